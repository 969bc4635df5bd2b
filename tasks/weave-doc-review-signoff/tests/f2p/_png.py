"""Minimal stdlib PNG reader for the tests (8/16-bit, grey/RGB/palette/alpha, no interlace)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class Png:
    def __init__(self, width: int, height: int, rows: list[list[tuple[int, int, int]]]) -> None:
        self.width = width
        self.height = height
        self.rows = rows

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        return self.rows[y][x]


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path: str | Path) -> Png:
    data = Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, palette = 8, b"", b""
    width = height = depth = ctype = interlace = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if interlace or depth not in (8, 16) or ctype not in _CHANNELS:
        raise ValueError(
            f"unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})"
        )
    raw = zlib.decompress(idat)
    bpp = _CHANNELS[ctype] * depth // 8
    stride = width * bpp
    prev = bytearray(stride)
    rows: list[list[tuple[int, int, int]]] = []
    i = 0
    for _ in range(height):
        ftype = raw[i]
        line = bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 0xFF
            elif ftype == 2:
                line[x] = (line[x] + b) & 0xFF
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                line[x] = (line[x] + _paeth(a, b, c)) & 0xFF
        prev = line
        step = depth // 8
        row = []
        for x in range(width):
            px = line[x * bpp : (x + 1) * bpp][::step]  # high bytes for 16-bit
            if ctype == 3:
                k = px[0] * 3
                row.append((palette[k], palette[k + 1], palette[k + 2]))
            elif ctype in (0, 4):
                row.append((px[0], px[0], px[0]))
            else:
                row.append((px[0], px[1], px[2]))
        rows.append(row)
    return Png(width, height, rows)
