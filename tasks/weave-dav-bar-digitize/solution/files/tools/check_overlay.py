#!/usr/bin/env python3
"""Compare the overlay ticks (magenta) with the bar tops in a dashboard screenshot."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngbars import read_png  # noqa: E402

MAGENTA = (255, 0, 255)
w, h, px = read_png(sys.argv[1])
bar = (70, 130, 180)
cols = [x for x in range(w) if any(px[y][x] == bar for y in range(h))]
runs, start = [], None
for i, x in enumerate(cols):
    start = x if start is None else start
    if i + 1 == len(cols) or cols[i + 1] != x + 1:
        runs.append((start, x))
        start = None
worst = 0
for x0, x1 in runs:
    cx = (x0 + x1) // 2
    top = min(y for y in range(h) if px[y][cx] == bar)  # first visible bar row
    ticks = [y for y in range(h) if px[y][x0 - 5] == MAGENTA]
    if not ticks:
        print(f"bar at x={cx}: no overlay tick")
        worst = 99
        continue
    lo, hi = min(ticks), max(ticks)
    # a tick drawn over the bar's top edge hides it: touching the visible top is a match
    off = 0.0 if lo <= top <= hi + 1 else (lo + hi) / 2 - top
    worst = max(worst, abs(off))
    print(f"bar at x={cx}: visible top row {top}, tick rows {lo}-{hi} (offset {off:+.1f} px)")
print("overlay OK" if worst <= 2 else "overlay MISMATCH")
sys.exit(0 if worst <= 2 else 1)
