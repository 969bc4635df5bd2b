"""Stdlib PNG decoding for the evidence tests (8-bit, non-interlaced; grey, RGB, palette, alpha)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

Pixel = tuple[int, int, int]


def read_png(path: Path) -> tuple[int, int, list[list[Pixel]]]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat, palette = 8, b"", []
    width = height = depth = ctype = interlace = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = [tuple(body[i : i + 3]) for i in range(0, len(body), 3)]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    assert depth == 8 and not interlace, f"unsupported PNG depth={depth} interlace={interlace}"
    ch = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    stride = width * ch
    raw = zlib.decompress(idat)
    prev = bytearray(stride)
    rows: list[list[Pixel]] = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        prev = line
        if ctype == 3:
            rows.append([palette[v] for v in line])
        elif ctype in (0, 4):
            rows.append([(line[i],) * 3 for i in range(0, stride, ch)])
        else:
            rows.append([tuple(line[i : i + 3]) for i in range(0, stride, ch)])
    return width, height, rows


def count_near(rows: list[list[Pixel]], ref: Pixel, tol: int = 12) -> int:
    return sum(
        1 for row in rows for px in row if all(abs(a - b) <= tol for a, b in zip(px, ref))
    )
