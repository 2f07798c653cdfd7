#!/usr/bin/env bash
# packaging/skewscope-mime.xml in a scratch MIME database (with the system's freedesktop.org.xml),
# read by Qt as a desktop reads it: exports by name (*.sqlite) and, without it, by content when the
# export is small (schema on the first page); a big export without the name is only SQLite; a plain
# SQLite database stays SQLite; reports and summaries by name.
# mime_types.sh <mime_probe> <skewscope-mime.xml> <tests/data/real>
set -euo pipefail
probe=$1 xml=$2 real=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/share/mime/packages" "$tmp/home" "$tmp/f"
cp /usr/share/mime/packages/freedesktop.org.xml "$xml" "$tmp/share/mime/packages/"
update-mime-database "$tmp/share/mime" 2>/dev/null
cp "$real/pipit-cloverleaf.sqlite" "$tmp/f/small-export"
cp "$real/nsysai-mfu_2gpu_before.sqlite" "$tmp/f/big-export"
sqlite3 "$tmp/f/plain" 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'
cp "$tmp/f/plain" "$tmp/f/plain.sqlite3"
: > "$tmp/f/run.nsys-rep"; : > "$tmp/f/old.qdrep"; : > "$tmp/f/run.skewsum"
files=("$real/nsysai-mfu_2gpu_before.sqlite" "$tmp/f/small-export" "$tmp/f/big-export" "$tmp/f/plain"
       "$tmp/f/plain.sqlite3" "$tmp/f/run.nsys-rep" "$tmp/f/old.qdrep" "$tmp/f/run.skewsum")
expected="application/x-nsight-systems-sqlite
application/x-nsight-systems-sqlite
application/vnd.sqlite3
application/vnd.sqlite3
application/vnd.sqlite3
application/x-nsight-systems-report
application/x-nsight-systems-report
application/x-skewscope-summary"
# (in a sanitizer build, Qt's own allocations kept until exit are no finding of this test)
got=$(ASAN_OPTIONS=detect_leaks=0 XDG_DATA_DIRS="$tmp/share" XDG_DATA_HOME="$tmp/home" QT_QPA_PLATFORM=offscreen \
      "$probe" "${files[@]}")
if [ "$got" != "$expected" ]; then
  paste <(printf '%s\n' "${files[@]##*/}") <(echo "$expected") <(echo "$got")
  exit 1
fi
echo ok
