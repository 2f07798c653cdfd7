#!/usr/bin/env bash
# lintian on the package from Package.Builds: no error and no warning, with no override (one would
# be installed as /usr/share/lintian/overrides/skewscope, each tag with its reason in a comment).
# Info and pedantic tags are printed, not failed.
# lintian_clean.sh <package folder>
set -euo pipefail
lintian --fail-on error,warning --display-info --pedantic "$1"/skewscope_*.deb
