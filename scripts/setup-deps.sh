#!/usr/bin/env bash
# Installs the Debian packages Skewscope builds and tests with, when any is missing, and the German
# locale the suite also runs under (scripts/test-locale.sh: numbers must not follow the locale).
set -euo pipefail
# util-linux gives the tests setpriv (a run as an unprivileged user when the tests run as root);
# poppler-utils gives pdftotext and pdfinfo (the tests read the text and pages of PDF exports);
# libzstd-dev compresses summaries; slurm-wlm and munge run the one-node Slurm cluster of the test of
# scripts/slurm/summarize.sh (tests/slurm), jq compares its JSON
# the packaging tests (packaging/tests.cmake) build the .deb with cpack (dpkg-dev: dpkg-shlibdeps;
# file and binutils: the debug symbols split) and check it with lintian, the metainfo with
# appstream, the desktop entry with desktop-file-utils, the MIME types with shared-mime-info; the
# manual is read with man-db and groff-base, the zsh completion with zsh
pkgs=(build-essential cmake ninja-build pkg-config qt6-base-dev libqt6svg6-dev libqcustomplot-dev
      libsqlite3-dev sqlite3 libre2-dev libzstd-dev libgtest-dev nlohmann-json3-dev locales xvfb xauth util-linux poppler-utils
      dpkg-dev file binutils lintian qt6-qpa-plugins appstream desktop-file-utils shared-mime-info
      man-db groff-base zsh slurm-wlm munge jq)
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! locale -a 2>/dev/null | grep -qx 'de_DE.utf8'; then
  echo "Generating the locale de_DE.UTF-8"
  $SUDO localedef -i de_DE -c -f UTF-8 de_DE.UTF-8
fi
