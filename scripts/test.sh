#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (GUI tests run offscreen).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j "${JOBS:-2}"
