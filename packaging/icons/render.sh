#!/usr/bin/env bash
# Renders resources/skewscope.svg to the hicolor PNG sizes committed beside this script; run it
# again after changing the SVG (rsvg-convert, from librsvg2-bin; PNGs carry no timestamp).
set -euo pipefail
cd "$(dirname "$0")"
for s in 16 22 24 32 48 64 128 256; do
  mkdir -p ${s}x${s}
  rsvg-convert -w $s -h $s ../../resources/skewscope.svg -o ${s}x${s}/skewscope.png
done
