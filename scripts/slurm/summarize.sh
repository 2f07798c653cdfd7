#!/usr/bin/env bash
# Summarises exports on a Slurm cluster: one job array (`sbatch --wait --array=0-(T-1)`), each task
# running `skewscope summarize FILE... --output DIR --task $SLURM_ARRAY_TASK_ID --tasks T` on its
# share of the files (docs/analysis.md, "Summaries"; README, "Summaries on a cluster").
#
#   scripts/slurm/summarize.sh [SBATCH_OPTION...] [--tasks=T] [--throttle=P] FILE... --output DIR
#
# SBATCH_OPTION: sbatch's own options, before the files, each one word (--partition=gpu,
# --time=00:30:00, --mem-per-cpu=4G, --account=X). --tasks=T: the array's size (default one task
# per file, at most 1000); --throttle=P: at most P tasks at once (--array=...%P). The tasks' logs go
# to DIR/logs/summarize-<job>_<task>.log. The binary: $SKEWSCOPE, else this checkout's build, else
# skewscope on the PATH. Exit 0 only when every summary exists; else the failed tasks are named
# with their logs (exit 1); 2 for a usage error.
set -uo pipefail

usage() {
  echo "usage: $0 [SBATCH_OPTION...] [--tasks=T] [--throttle=P] FILE... --output DIR" >&2
  [ -n "${1:-}" ] && echo "summarize.sh: $1" >&2
  exit 2
}

sbatch_opts=() files=() out="" tasks="" throttle=""
while [ $# -gt 0 ]; do
  case "$1" in
    --output) [ $# -ge 2 ] || usage "--output needs a folder"; out="$2"; shift 2; continue ;;
    --tasks=*) tasks="${1#--tasks=}" ;;
    --throttle=*) throttle="${1#--throttle=}" ;;
    -*) [ ${#files[@]} -eq 0 ] || usage "sbatch options go before the files: $1"; sbatch_opts+=("$1") ;;
    *) files+=("$1") ;;
  esac
  shift
done
[ ${#files[@]} -gt 0 ] || usage "no export given"
[ -n "$out" ] || usage "--output DIR is needed (a folder on a file system the compute nodes share)"
[ -z "$tasks" ] && tasks=$(( ${#files[@]} < 1000 ? ${#files[@]} : 1000 ))
[[ "$tasks" =~ ^[1-9][0-9]*$ ]] || usage "--tasks takes a whole number >= 1, not '$tasks'"
[ -z "$throttle" ] || [[ "$throttle" =~ ^[1-9][0-9]*$ ]] || usage "--throttle takes a whole number >= 1, not '$throttle'"
[ "$tasks" -le ${#files[@]} ] || tasks=${#files[@]}

bin="${SKEWSCOPE:-}"
here="$(cd "$(dirname "$0")/../.." && pwd)"
if [ -z "$bin" ] && [ -x "$here/build/bin/skewscope" ]; then bin="$here/build/bin/skewscope"; fi
if [ -z "$bin" ]; then bin="$(command -v skewscope || true)"; fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "summarize.sh: no skewscope binary (set SKEWSCOPE, build this checkout, or put it on the PATH)" >&2; exit 1; }
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
command -v sbatch >/dev/null || { echo "summarize.sh: sbatch is not on the PATH (run this on a Slurm login node)" >&2; exit 1; }

mkdir -p "$out/logs" || exit 1
out="$(cd "$out" && pwd)"
list="$out/logs/files.txt"
printf '%s\n' "${files[@]}" > "$list"
job="$out/logs/summarize.sbatch"
cat > "$job" <<JOB
#!/usr/bin/env bash
mapfile -t files < "$list"
exec "$bin" summarize "\${files[@]}" --output "$out" --task "\$SLURM_ARRAY_TASK_ID" --tasks $tasks
JOB

array="0-$((tasks - 1))${throttle:+%$throttle}"
idfile="$(mktemp)"
trap 'rm -f "$idfile"' EXIT
sbatch --wait --parsable --job-name=skewscope-summarize --array="$array" \
  --output="$out/logs/summarize-%A_%a.log" "${sbatch_opts[@]}" "$job" > "$idfile"
rc=$?
jobid="$(head -n1 "$idfile" | cut -d';' -f1)"
[ -n "$jobid" ] || { echo "summarize.sh: sbatch did not submit the job (exit $rc)" >&2; exit 1; }

# every summary there? the missing ones name their task and its log
declare -A failed=()
missing=0
for i in "${!files[@]}"; do
  if [ ! -s "$out/$(basename "${files[$i]}").skewsum" ]; then
    missing=$((missing + 1))
    failed[$((i % tasks))]+=" ${files[$i]}"
  fi
done
if [ "$missing" -eq 0 ]; then
  echo "summarize.sh: ${#files[@]} summaries in $out (job $jobid, $tasks tasks)"
  exit 0
fi
echo "summarize.sh: $missing of ${#files[@]} summaries missing (job $jobid, sbatch exit $rc):" >&2
for t in $(printf '%s\n' "${!failed[@]}" | sort -n); do
  echo "  task $t failed: log $out/logs/summarize-${jobid}_$t.log; not summarised:${failed[$t]}" >&2
done
exit 1
