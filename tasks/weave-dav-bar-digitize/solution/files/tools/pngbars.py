#!/usr/bin/env python3
"""Measure the bars of a bar-chart screenshot (stdlib only: zlib + struct).

usage: pngbars.py SCREENSHOT.png --axis-max 600 [--json]

Finds the bar colour (the most frequent saturated colour), the value-0 baseline (the bottom
of the bars) and the top gridline (the highest light-grey line spanning the plot), maps pixel
rows linearly (baseline = 0, top gridline = --axis-max) and prints one line per bar, left to
right: index, x-centre, top row, value.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
import zlib
from collections import Counter


def read_png(path: str) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, palette = 8, [], None
    width = height = depth = ctype = interlace = None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = [tuple(body[i : i + 3]) for i in range(0, len(body), 3)]
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if interlace:
        raise ValueError("interlaced PNG not supported")
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    bits = depth * channels
    bpp = max(1, bits // 8)  # bytes per complete pixel, for the filters
    stride = (width * bits + 7) // 8
    raw = zlib.decompress(b"".join(idat))
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride if f else 0):  # filter 0 (None): bytes as stored
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    pixels = []
    for line in rows:
        if depth == 16:
            line = line[::2]  # high bytes
            d = 8
        else:
            d = depth
        if d < 8:
            vals = []
            for byte in line:
                for shift in range(8 - d, -1, -d):
                    vals.append((byte >> shift) & ((1 << d) - 1))
            vals = vals[:width]
            if ctype == 3:
                out = [palette[v] for v in vals]
            else:
                out = [(v * 255 // ((1 << d) - 1),) * 3 for v in vals]
        elif ctype == 3:
            out = [palette[v] for v in line[:width]]
        elif ctype in (0, 4):
            out = [(line[i],) * 3 for i in range(0, width * channels, channels)]
        else:
            out = [tuple(line[i : i + 3]) for i in range(0, width * channels, channels)]
        pixels.append(out)
    return width, height, pixels


def saturated(c: tuple[int, int, int]) -> bool:
    return max(c) - min(c) > 60


def measure(path: str, axis_max: float) -> list[dict]:
    w, h, px = read_png(path)
    counts = Counter(c for row in px for c in row if saturated(c))
    if not counts:
        raise SystemExit(f"{path}: no coloured bars found")
    bar = counts.most_common(1)[0][0]
    # columns that contain bar pixels, grouped into runs = bars
    cols = [x for x in range(w) if any(px[y][x] == bar for y in range(h))]
    runs, start = [], None
    for i, x in enumerate(cols):
        if start is None:
            start = x
        if i + 1 == len(cols) or cols[i + 1] != x + 1:
            if x - start >= 8:  # ignore specks (legend, icons)
                runs.append((start, x))
            start = None
    bars = []
    for x0, x1 in runs:
        cx = (x0 + x1) // 2
        ys = [y for y in range(h) if px[y][cx] == bar]
        bars.append({"x0": x0, "x1": x1, "cx": cx, "top": min(ys), "bottom": max(ys) + 1})
    base = Counter(b["bottom"] for b in bars).most_common(1)[0][0]
    # gridlines: light grey rows that show in every gap between the bars (and left of them)
    gaps = [bars[0]["x0"] - 20] + [(a["x1"] + b["x0"]) // 2 for a, b in zip(bars, bars[1:])]
    grid_rows = []
    for y in range(base):
        row = px[y]
        if all(row[x][0] == row[x][1] == row[x][2] and 190 <= row[x][0] < 250 for x in gaps):
            grid_rows.append(y)
    top_grid = min(grid_rows)
    scale = (base - top_grid) / axis_max  # pixels per unit
    for b in bars:
        b["value"] = round((base - b["top"]) / scale, 1)
    return bars


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("png")
    ap.add_argument("--axis-max", type=float, required=True)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    bars = measure(a.png, a.axis_max)
    if a.json:
        json.dump(bars, sys.stdout)
        print()
    else:
        for i, b in enumerate(bars):
            print(i, b["cx"], b["top"], b["value"])


if __name__ == "__main__":
    main()
