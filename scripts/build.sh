#!/usr/bin/env bash
# Configures and builds into build/ (release-with-debug-info), 2 jobs by default.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "${JOBS:-2}"
