#!/usr/bin/env bash
# lintian on the package from Package.Builds: no error and no warning (overrides, each with its
# reason, in packaging/debian/lintian-overrides). Info and pedantic tags are printed, not failed.
# lintian_clean.sh <package folder>
set -euo pipefail
lintian --fail-on error,warning --display-info --pedantic "$1"/skewscope_*.deb
