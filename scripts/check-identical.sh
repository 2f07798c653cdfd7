#!/usr/bin/env bash
# Proves that a change left behaviour alone: runs the same commands (every report format, every
# `render --view` picture) with two builds of skewscope on the demo, a per-rank generated job and the
# real exports, and compares the outputs byte for byte (PNG pictures pixel for pixel).
#
#   scripts/check-identical.sh BASE            BASE: a git revision (built into build-base/) or a
#                                              folder holding a built skewscope and skewgen
#   NEW=folder scripts/check-identical.sh ...  the new build's bin folder (default build/bin)
#
# Inputs are made once with the base's generator, so generator changes do not count. SVG and PDF
# carry dates and ids; they are compared after removing those. Exit 0 when all outputs agree.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
base=${1:?usage: scripts/check-identical.sh BASE_REVISION|BASE_BIN_FOLDER}
new=${NEW:-$root/build/bin}

if [ -d "$base" ]; then
  basebin=$(cd "$base" && pwd)
else
  rev=$(git rev-parse --verify "$base^{commit}")
  wt=$root/build-base/src
  if [ ! -d "$wt" ]; then
    git worktree add --detach "$wt" "$rev" >/dev/null
  else
    git -C "$wt" checkout -q --detach "$rev"
  fi
  cmake -S "$wt" -B "$root/build-base/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSKEWSCOPE_BUILD_TESTS=OFF >/dev/null
  cmake --build "$root/build-base/build" -j "${JOBS:-2}" --target skewscope skewgen >/dev/null
  basebin=$root/build-base/build/bin
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/skewscope-identical.XXXXXX")
[ -n "${KEEPWORK:-}" ] || trap 'rm -rf "$work"' EXIT
in=$work/in
mkdir -p "$in" "$work/a" "$work/b"
"$basebin/skewgen" --demo --out "$in/demo.sqlite" >/dev/null
"$basebin/skewgen" --per-rank-files --ranks 4 --steps 3 --seed 7 --out "$in/job" >/dev/null
"$basebin/skewgen" --ranks 8 --steps 4 --no-late --seed 3 --out "$in/fixed.sqlite" >/dev/null
real=$root/tests/data/real

export QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8
cases=()   # "name|args..." (args separated by |)
add() { cases+=("$(IFS='|'; echo "$*")"); }
inputs=("demo|$in/demo.sqlite" "job|$in/job_rank0.sqlite $in/job_rank1.sqlite $in/job_rank2.sqlite $in/job_rank3.sqlite")
for f in "$real"/*.sqlite; do inputs+=("$(basename "$f" .sqlite)|$f"); done
for entry in "${inputs[@]}"; do
  name=${entry%%|*}; files=${entry#*|}
  add "$name.info.txt" info $files
  add "$name.info.json" info $files --format json
  for fmt in text json md csv; do add "$name.analyze.$fmt" analyze $files --format $fmt; done
  add "$name.analyze-opts.json" analyze $files --format json --big-skew-ms 1 --anomaly-threshold 2
  add "$name.collective.png" render $files --collective worst --size 1200x700
  add "$name.collective1.png" render $files --collective 1 --size 1024x700
  for v in timeline stepmap heatmap; do add "$name.$v.png" render $files --view $v --size 1400x800; done
  add "$name.timeline.svg" render $files --view timeline --size 1400x800
done
ab="$real/nsysai-mfu_2gpu_before.sqlite|--vs|$real/nsysai-mfu_2gpu_after.sqlite"
for fmt in text json md; do add "mfu.compare.$fmt" compare "$ab" --format $fmt; done
add "mfu.compare.png" render "$ab" --view compare --collective worst --size 1400x900
add "demo-fixed.compare.json" compare "$in/demo.sqlite|--vs|$in/fixed.sqlite" --format json
add "demo-fixed.compare.png" render "$in/demo.sqlite|--vs|$in/fixed.sqlite" --view compare --size 1400x900

run() {  # run BIN OUTDIR CASE
  local bin=$1 out=$2 c=$3 name args ext
  name=${c%%|*}
  IFS='|' read -r -a args <<<"${c#*|}"
  # "a b" inside one field are several files
  local argv=()
  for a in "${args[@]}"; do for w in $a; do argv+=("$w"); done; done
  ext=${name##*.}
  local target=$out/$name
  if [ "${argv[0]}" = render ]; then
    "$bin/skewscope" "${argv[@]}" --no-cache --output "$target" >/dev/null 2>"$target.err" || echo "exit $?" >>"$target.err"
  else
    "$bin/skewscope" "${argv[@]}" --no-cache >"$target" 2>"$target.err" || echo "exit $?" >>"$target.err"
  fi
  # the inputs' folder differs only by name: make it one
  sed -i "s#$work/[ab]#WORK#g" "$target.err" 2>/dev/null || true
  if [ "$ext" = svg ]; then sed -i -E 's/(id|href)="[^"]*"//g' "$target" 2>/dev/null || true; fi
}

fails=0 total=0
for c in "${cases[@]}"; do
  run "$basebin" "$work/a" "$c"
  run "$new" "$work/b" "$c"
  name=${c%%|*}
  total=$((total + 1))
  for f in "$name" "$name.err"; do
    [ -e "$work/a/$f" ] || [ -e "$work/b/$f" ] || continue
    if ! cmp -s "$work/a/$f" "$work/b/$f"; then
      if [[ "$f" == *.png ]] && command -v compare >/dev/null &&
         [ "$(compare -metric AE "$work/a/$f" "$work/b/$f" null: 2>&1 || true)" = 0 ]; then
        continue  # same pixels, other bytes
      fi
      echo "DIFFERS: $f"
      fails=$((fails + 1))
      if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP"; cp "$work/a/$f" "$KEEP/base.$f" 2>/dev/null || true; cp "$work/b/$f" "$KEEP/new.$f" 2>/dev/null || true; fi
    fi
  done
done
echo "$total cases, $fails differing outputs (base: $basebin, new: $new)"
[ "$fails" -eq 0 ]
