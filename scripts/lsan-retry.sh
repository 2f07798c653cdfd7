#!/usr/bin/env bash
# Test launcher of the sanitizer build (preset "asan", scripts/test-sanitizers.sh): runs one test
# process, and runs it once more only when it failed because LeakSanitizer's own tracer crashed at
# the process's exit after the test had passed. That crash ("Tracer caught signal 11", then
# "LeakSanitizer has encountered a fatal error") is LeakSanitizer failing to stop the threads for
# its leak check, not a report about the program: a known fault of the tool (google/sanitizers#1353).
# CI met it in December 2026: the tracer read a bogus range as the dynamic TLS block of libjpeg
# (loaded by Qt's JPEG plugin for the PDF exports' pictures) and crashed, in about one run in three
# of the test that exports a PDF. The exports no longer use JPEG (ui/common/view_export.cpp); this
# launcher keeps a rarer case of the same fault from failing the suite.
#
# Not run again, so still a failure: any sanitizer report, a failed or missing GoogleTest result,
# half the signature, a crash of the test itself, and a second tracer crash.
set -uo pipefail

# test discovery (gtest_discover_tests) reads the list from stdout: nothing in between
for a in "$@"; do
    [[ $a == --gtest_list_tests ]] && exec "$@"
done

log=$(mktemp "${TMPDIR:-/tmp}/skewscope-lsan-retry.XXXXXX")
trap 'rm -f "$log"' EXIT
"$@" >"$log" 2>&1
rc=$?
cat "$log"
[[ $rc -eq 0 ]] && exit 0

tracer_crash() {
    grep -q '^Tracer caught signal 11' "$log" &&
        grep -q 'LeakSanitizer has encountered a fatal error' "$log" &&
        grep -q '^\[  PASSED  \] ' "$log" &&
        ! grep -q '^\[  FAILED  \]' "$log" &&
        ! grep -qE 'ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|SUMMARY: [A-Za-z]*Sanitizer|runtime error:' "$log"
}
if tracer_crash; then
    rm -f "$log"  # exec leaves no trap to run
    echo "lsan-retry: the test passed, then LeakSanitizer's tracer crashed at exit (a fault of the" \
         "tool, google/sanitizers#1353): running it once more" >&2
    exec "$@"
fi
exit $rc
