#!/usr/bin/env bash
# app/build_version.cmake outside a checkout of the project: a source tree that is no git checkout
# (a tarball), and one inside another repository, both give an empty git version (--version then
# prints the project version alone); the project's checkout gives git describe.
# version_without_git.sh <build_version.cmake>
set -euo pipefail
script=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect_empty() {
  cmake -DSOURCE="$1" -DOUTPUT="$tmp/v.h" -P "$script"
  grep -qx '#define SKEWSCOPE_BUILD_VERSION ""' "$tmp/v.h" || { echo "$2: $(cat "$tmp/v.h")"; exit 1; }
}
mkdir -p "$tmp/tarball" "$tmp/other/src"
expect_empty "$tmp/tarball" "not a checkout"
git -C "$tmp/other" init -q
git -C "$tmp/other" -c user.name=t -c user.email=t@t commit -q --allow-empty -m x
expect_empty "$tmp/other/src" "inside another repository"
src=$(cd "$(dirname "$script")/.." && pwd)
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  cmake -DSOURCE="$src" -DOUTPUT="$tmp/v.h" -P "$script"
  want=$(git -C "$src" describe --tags --always --dirty)
  grep -qx "#define SKEWSCOPE_BUILD_VERSION \"$want\"" "$tmp/v.h" || { echo "checkout: $(cat "$tmp/v.h"), want $want"; exit 1; }
fi
echo ok
