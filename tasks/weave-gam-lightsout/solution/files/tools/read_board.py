#!/usr/bin/env python3
"""Read the Lights Out board from a screenshot PNG (stdlib only: zlib + struct).

usage: python3 tools/read_board.py SCREENSHOT.png > board.txt

Cells are the only large blocks of the lit (yellow) or off (slate) colour: every horizontal
run of at least MIN_RUN such pixels is part of a cell, bands of rows that have runs are the
board rows, and the runs in the middle of a band are its cells.
"""

from __future__ import annotations

import functools
import struct
import sys
import zlib
from pathlib import Path

LIT = (0xFF, 0xD2, 0x3F)
OFF = (0x2F, 0x37, 0x42)
TOL = 10
MIN_RUN = 30


def read_png(path: Path) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, palette = 8, b"", []
    width = height = depth = ctype = interlace = 0
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
            idat += body
        elif kind == b"IEND":
            break
    if depth != 8 or interlace:
        raise ValueError(f"unsupported PNG: bit depth {depth}, interlace {interlace}")
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    stride = width * channels
    raw = zlib.decompress(idat)
    prev = bytearray(stride)
    pixels = []
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride if ftype else 0):  # filter 0 (None): bytes as stored
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + b) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        prev = line
        if ctype == 3:
            row = [palette[v] for v in line]
        elif ctype in (0, 4):
            row = [(line[i],) * 3 for i in range(0, stride, channels)]
        else:
            row = [tuple(line[i : i + 3]) for i in range(0, stride, channels)]
        pixels.append(row)
    return width, height, pixels


@functools.cache  # a screenshot has few distinct colours
def near(px: tuple[int, int, int], ref: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= TOL for a, b in zip(px, ref))


def runs(row: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    out, start = [], None
    for x, px in enumerate(row + [(0, 0, 0)]):
        cell = near(px, LIT) or near(px, OFF)
        if cell and start is None:
            start = x
        elif not cell and start is not None:
            if x - start >= MIN_RUN:
                out.append((start, x))
            start = None
    return out


def read_board(path: Path) -> list[list[int]]:
    _, height, pixels = read_png(path)
    bands, start = [], None
    for y in range(height + 1):
        has = y < height and bool(runs(pixels[y]))
        if has and start is None:
            start = y
        elif not has and start is not None:
            if y - start >= MIN_RUN:
                bands.append((start, y))
            start = None
    if not bands:
        raise ValueError(f"{path}: no board found")
    board = []
    for y0, y1 in bands:
        mid = (y0 + y1) // 2
        board.append([int(near(pixels[mid][(x0 + x1) // 2], LIT)) for x0, x1 in runs(pixels[mid])])
    if len({len(r) for r in board}) != 1:
        raise ValueError(f"{path}: ragged board {[len(r) for r in board]}")
    return board


if __name__ == "__main__":
    for row in read_board(Path(sys.argv[1])):
        print("".join(map(str, row)))
