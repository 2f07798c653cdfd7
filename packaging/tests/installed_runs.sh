#!/usr/bin/env bash
# The package from Package.Builds, unpacked with dpkg -x into a scratch root and run from there:
# the binary is stripped and its debug symbols are in the -dbgsym package under its build id;
# the desktop files, manual and completions are where desktops and shells look for them;
# --version names the project version; analyze of the installed demo writes the report the build
# tree's binary writes for the build's demo (same bytes); render draws it offscreen.
# installed_runs.sh <package folder> <project version>
set -euo pipefail
dir=$(realpath "$1") version=$2
root=$dir/root dbg=$dir/dbgsym-root
rm -rf "$root" "$dbg"
dpkg -x "$dir"/skewscope_*.deb "$root"
dpkg -x "$dir"/skewscope-dbgsym_*.ddeb "$dbg"
bin=$root/usr/bin/skewscope
build=$(cd "$dir/.." && pwd)

file -L "$bin" | grep -q ', stripped' || { echo "not stripped: $(file -L "$bin")"; exit 1; }
id=$(LC_ALL=C readelf -n "$bin" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
debug=$dbg/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
[ -s "$debug" ] || { echo "no debug symbols at ${debug#$dbg}"; exit 1; }
LC_ALL=C readelf -S "$debug" 2>/dev/null | grep -q '\.debug_info' || { echo "${debug#$dbg} has no .debug_info"; exit 1; }

if ldd "$bin" | grep 'not found'; then exit 1; fi
for f in usr/share/man/man1/skewscope.1.gz usr/share/bash-completion/completions/skewscope \
         usr/share/zsh/vendor-completions/_skewscope usr/share/applications/skewscope.desktop \
         usr/share/metainfo/io.github.skewscope.skewscope.metainfo.xml usr/share/mime/packages/skewscope.xml \
         usr/share/icons/hicolor/{16x16,22x22,24x24,32x32,48x48,64x64,128x128,256x256}/apps/skewscope.png \
         usr/share/icons/hicolor/scalable/apps/skewscope.svg usr/share/doc/skewscope/copyright \
         usr/share/doc/skewscope/changelog.gz; do
  [ -s "$root/$f" ] || { echo "not installed: /$f"; exit 1; }
done
MANWIDTH=80 man -l "$root/usr/share/man/man1/skewscope.1.gz" 2>/dev/null | grep -q 'skewscope analyze' || { echo "the man page does not read"; exit 1; }
out=$("$bin" --version)
case "$out" in
  "skewscope $version"|"skewscope $version (git "*")") echo "$out" ;;
  *) echo "--version printed '$out', expected skewscope $version [(git ...)]"; exit 1 ;;
esac

export HOME=$dir/home XDG_CACHE_HOME=$dir/home/.cache  # no cache in the user's home
mkdir -p "$HOME"
(cd "$root/usr/share/skewscope" && "$bin" analyze demo.sqlite --no-cache) > "$dir/installed.txt"
(cd "$build/demo" && "$build/bin/skewscope" analyze demo.sqlite --no-cache) > "$dir/built.txt"
cmp "$dir/installed.txt" "$dir/built.txt"
grep -q . "$dir/installed.txt"
echo "installed analyze of the demo: $(wc -l < "$dir/installed.txt") lines, as the build's"
# the viewer's code from the installed files: a view of the demo drawn offscreen (Qt's libraries
# and platform plugins are the package's dependencies)
QT_QPA_PLATFORM=offscreen "$bin" render "$root/usr/share/skewscope/demo.sqlite" --no-cache --collective worst \
  --output "$dir/worst.png" --size 800x450
file "$dir/worst.png" | grep -q 'PNG image data, 800 x 450' || { echo "render: $(file "$dir/worst.png")"; exit 1; }
