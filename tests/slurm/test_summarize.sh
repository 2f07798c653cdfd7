#!/usr/bin/env bash
# ctest Slurm.SummarizeScript: a one-node Slurm cluster in a temporary folder (one_node_cluster.sh),
# scripts/slurm/summarize.sh over 16 generated per-rank exports in 5 array tasks, then analyze of
# the summaries must equal analyze of the exports (all but "inputs"); and a run with an export
# that cannot be read must exit 1 naming the failed task and its log.
#   test_summarize.sh BIN_DIR (the build's bin/, with skewscope and skewgen)
set -euo pipefail
bin="$(cd "${1:?BIN_DIR}" && pwd)"
src="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d /tmp/skewscope-slurm-XXXXXX)"
cleanup() {
  "$src/tests/slurm/one_node_cluster.sh" stop "$tmp/cluster" || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

eval "$("$src/tests/slurm/one_node_cluster.sh" start "$tmp/cluster")"
mkdir -p "$tmp/data"
"$bin/skewgen" --out "$tmp/data/job" --per-rank-files --ranks 16 --steps 3 --layers 3 --seed 7 >/dev/null
files=("$tmp"/data/job_rank*.sqlite)
[ ${#files[@]} -eq 16 ] || fail "skewgen wrote ${#files[@]} files, not 16"

export SKEWSCOPE="$bin/skewscope" SKEWSCOPE_CACHE_DIR="$tmp/cache"
"$src/scripts/slurm/summarize.sh" --time=10 --tasks=5 --throttle=4 "${files[@]}" --output "$tmp/summaries" \
  || fail "summarize.sh exited $?"
n=$(ls "$tmp/summaries"/*.skewsum | wc -l)
[ "$n" -eq 16 ] || fail "$n summaries, not 16"
[ "$(ls "$tmp/summaries/logs"/summarize-*_*.log | wc -l)" -eq 5 ] || fail "not one log per task"

"$bin/skewscope" analyze --format json --no-cache "${files[@]}" > "$tmp/exports.json"
"$bin/skewscope" analyze --format json "$tmp/summaries" > "$tmp/summaries.json"
jq -S 'del(.inputs)' "$tmp/exports.json" > "$tmp/a.json"
jq -S 'del(.inputs)' "$tmp/summaries.json" > "$tmp/b.json"
diff -q "$tmp/a.json" "$tmp/b.json" >/dev/null || { diff "$tmp/a.json" "$tmp/b.json" | head -20; fail "analyze of the summaries differs from analyze of the exports"; }
[ "$(jq '.ranks | length' "$tmp/b.json")" -eq 16 ] || fail "not 16 ranks"

# an export that cannot be read: its task (file 2 of 3 in 2 tasks: task 1) is named with its log
set +e
"$src/scripts/slurm/summarize.sh" --tasks=2 "${files[0]}" "$tmp/data/missing.sqlite" "${files[1]}" --output "$tmp/bad" 2> "$tmp/bad.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "summarize.sh with a missing export exited $rc, not 1"
grep -q "task 1 failed: log $tmp/bad/logs/summarize-[0-9]*_1.log; not summarised: $tmp/data/missing.sqlite" "$tmp/bad.err" \
  || { cat "$tmp/bad.err"; fail "the failed task is not named with its log"; }
grep -q "missing.sqlite" "$tmp"/bad/logs/summarize-*_1.log || fail "the task's log does not say what failed"
echo "Slurm.SummarizeScript: 16 exports summarised in 5 array tasks; analyze equal; a failed task named"
