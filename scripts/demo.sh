#!/usr/bin/env bash
# Sets up, builds, and opens the viewer on the bundled demo profile (made by the generator).
# Without a display it prints the report of the demo and writes a screenshot instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
demo=build/demo/demo.sqlite
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/bin/skewscope "$demo"
fi
echo "No display: printing the demo's report instead of opening the viewer."
if build/bin/skewscope analyze "$demo" --output - 2>/dev/null; then
  if build/bin/skewscope render "$demo" --collective worst --output build/demo/demo.png >/dev/null 2>&1; then
    echo "Screenshot of the biggest late arriver: build/demo/demo.png"
  fi
else
  build/bin/skewscope info "$demo"
fi
