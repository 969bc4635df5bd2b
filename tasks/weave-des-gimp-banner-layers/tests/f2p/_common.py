"""Expected values and helpers for the weave-des-gimp-banner-layers tests (hidden)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

WS = Path.cwd()
# bottom to top; badge offset and glow opacity are GIMP's unsaved values (saved: 362,94; 40)
STACK = [
    ("background", 0, 0, 100, True),
    ("glow", 140, 40, 55, True),
    ("old-price", 300, 30, 100, False),
    ("badge", 352, 84, 85, True),
    ("headline", 24, 18, 100, True),
]
BG = (40, 90, 70)
BADGE = (214, 82, 46)  # the badge at 85 % over the background, blended in linear light
GLOW = (193, 184, 101)  # the glow at 55 %
GLOW_SAVED = (169, 165, 94)  # the glow at the saved 40 %
WHITE = (255, 255, 255)


def read_png(path: Path) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    """8-bit RGB/RGBA PNG, no interlace: width, height, rows of RGB."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    pos, idat = 8, b""
    width = height = depth = ctype = interlace = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    n = {2: 3, 6: 4}.get(ctype)
    assert depth == 8 and n and not interlace, f"{path.name}: unsupported PNG layout"
    raw, stride = zlib.decompress(idat), width * n
    prev, rows, i = bytearray(stride), [], 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - n] if x >= n else 0
            b, c = prev[x], (prev[x - n] if x >= n else 0)
            if ftype == 1:
                line[x] = (line[x] + a) & 0xFF
            elif ftype == 2:
                line[x] = (line[x] + b) & 0xFF
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        prev = line
        rows.append([(line[x * n], line[x * n + 1], line[x * n + 2]) for x in range(width)])
    return width, height, rows


def near(got: tuple[int, int, int], want: tuple[int, int, int], tol: int = 2) -> bool:
    return all(abs(g - w) <= tol for g, w in zip(got, want, strict=True))
