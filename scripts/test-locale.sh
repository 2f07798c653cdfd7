#!/usr/bin/env bash
# The whole suite again under a German locale (a decimal comma, '.' grouping): reports, JSON, the
# viewer (the GUI tests run it offscreen) and render's pictures must read as under the C locale.
# Reuses build/ (scripts/test.sh builds it; built here when missing or stale).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
cd build
LC_ALL=de_DE.UTF-8 ctest --output-on-failure -j "${JOBS:-2}"
