#!/usr/bin/env bash
# scripts/lsan-retry.sh (the sanitizer build's test launcher) runs a test once more only when the
# test passed and then LeakSanitizer's tracer crashed at exit; every other failure stays a failure,
# with its exit code, and a second tracer crash too. Each case is a fake test process that counts
# its runs in a file and prints what a real one would.
set -uo pipefail
retry="$1/scripts/lsan-retry.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
export TMPDIR="$dir/tmp"  # the launcher's log of a run goes here, and must not stay
mkdir "$TMPDIR"

# fake RUNS_BEFORE_OK OUTPUT_KIND: exits 1 with OUTPUT_KIND's lines for its first RUNS_BEFORE_OK
# runs, then passes
cat >"$dir/fake" <<'FAKE'
#!/usr/bin/env bash
n=$(cat "$COUNT" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" >"$COUNT"
echo "[==========] 1 test from 1 test suite ran."
if (( n > $1 )); then echo "[  PASSED  ] 1 test."; exit 0; fi
case $2 in
  tracer) echo "[  PASSED  ] 1 test."; echo "Tracer caught signal 11: addr=0x2efb0 pc=0x7f57d1ee80f0 sp=0x7f57c60d5d10" >&2
          echo "==13147==LeakSanitizer has encountered a fatal error." >&2; exit 1 ;;
  tracer-after-failure) echo "[  FAILED  ] 1 test, listed below:"; echo "Tracer caught signal 11: addr=0x0" >&2
          echo "==1==LeakSanitizer has encountered a fatal error." >&2; exit 1 ;;
  tracer-and-leak) echo "[  PASSED  ] 1 test."; echo "==1==ERROR: LeakSanitizer: detected memory leaks" >&2
          echo "Tracer caught signal 11: addr=0x0" >&2; echo "==1==LeakSanitizer has encountered a fatal error." >&2; exit 1 ;;
  half) echo "[  PASSED  ] 1 test."; echo "==1==LeakSanitizer has encountered a fatal error." >&2; exit 1 ;;
  ub) echo "x.cpp:3:5: runtime error: signed integer overflow" >&2; exit 1 ;;
  crash) exit 139 ;;
esac
FAKE
chmod +x "$dir/fake"

# case NAME RUNS_BEFORE_OK KIND EXPECTED_EXIT EXPECTED_RUNS
check() {
    export COUNT="$dir/count-$1"
    rm -f "$COUNT"
    "$retry" "$dir/fake" "$2" "$3" >"$dir/out-$1" 2>&1
    local rc=$? runs
    runs=$(cat "$COUNT")
    if [[ $rc -ne $4 || $runs -ne $5 ]]; then
        echo "FAIL $1: exit $rc (expected $4), runs $runs (expected $5)"; cat "$dir/out-$1"; fails=1
    else
        echo "ok   $1: exit $rc, runs $runs"
    fi
}
check passes 0 tracer 0 1
check tracer-once 1 tracer 0 2
check tracer-twice 2 tracer 1 2
check tracer-after-a-failed-test 1 tracer-after-failure 1 1
check tracer-with-a-leak-report 1 tracer-and-leak 1 1
check half-the-signature 1 half 1 1
check undefined-behaviour 1 ub 1 1
check crash 1 crash 139 1
# the first run's output is kept, and the retry is said
grep -q "Tracer caught signal 11" "$dir/out-tracer-once" && grep -q "lsan-retry: .* running it once more" "$dir/out-tracer-once" ||
    { echo "FAIL: the first run's output or the retry's line is missing"; fails=1; }
# discovery: the list on stdout untouched, one run
COUNT="$dir/count-list" "$retry" sh -c 'echo "Suite."; echo "  Test"' --gtest_list_tests >"$dir/list" 2>&1
[[ "$(cat "$dir/list")" == $'Suite.\n  Test' ]] || { echo "FAIL: the test list was changed"; fails=1; }
[[ -z "$(ls -A "$TMPDIR")" ]] || { echo "FAIL: the launcher left files: $(ls "$TMPDIR")"; fails=1; }
exit $fails
