#!/usr/bin/env bash
# Builds the whole suite with AddressSanitizer + UndefinedBehaviorSanitizer (preset "asan", into
# build-asan/) and runs every test there, the hostile-input corpus included: any report fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
cmake --preset asan >/dev/null
cmake --build --preset asan
cd build-asan
# UB stops the program (-fno-sanitize-recover); leaks in system libraries (fontconfig, Qt plugins)
# are not ours: the suppressions file names them.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/../scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
ctest --output-on-failure -j "${JOBS:-2}" --timeout 600
