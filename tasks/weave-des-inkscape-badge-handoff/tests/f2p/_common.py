"""Expected values and helpers for the weave-des-inkscape-badge-handoff tests (hidden)."""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

WS = Path.cwd()
RING = "#1f6f8b"
STAR = "#c2185b"  # the unsaved change; the master's saved fill attribute is #e0a526
LABEL = "EST. 2025"
STALE = {"ring": "#2b5d7a", "star": "#e0a526", "label": "EST. 2019"}


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def by_id(path: Path) -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    return {el.get("id", ""): el for el in root.iter() if el.get("id")}


def effective_fill(el: ET.Element) -> str | None:
    """The fill SVG renders: a style declaration wins over the presentation attribute."""
    m = re.search(r"(?:^|;)\s*fill\s*:\s*([^;]+)", el.get("style", ""))
    value = m.group(1) if m else el.get("fill")
    return value.strip().lower() if value else None


class Png:
    def __init__(self, width: int, height: int, rows: list[list[tuple[int, int, int, int]]]):
        self.width, self.height, self.rows = width, height, rows

    def rgba(self, x: int, y: int) -> tuple[int, int, int, int]:
        return self.rows[y][x]


def read_png(path: Path) -> Png:
    """8-bit RGB/RGBA/grey PNG (what Inkscape and the screenshot tool write), no interlace."""
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
        elif kind == b"IEND":
            break
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    assert depth == 8 and channels and not interlace, f"{path.name}: unsupported PNG layout"
    raw, stride = zlib.decompress(idat), width * channels
    prev, rows, i = bytearray(stride), [], 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 0xFF
            elif ftype == 2:
                line[x] = (line[x] + b) & 0xFF
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        prev = line
        row = []
        for x in range(width):
            px = line[x * channels : (x + 1) * channels]
            if channels == 1:
                row.append((px[0], px[0], px[0], 255))
            elif channels == 2:
                row.append((px[0], px[0], px[0], px[1]))
            elif channels == 3:
                row.append((px[0], px[1], px[2], 255))
            else:
                row.append((px[0], px[1], px[2], px[3]))
        rows.append(row)
    return Png(width, height, rows)


def close(got: tuple[int, ...], want: tuple[int, int, int], tol: int) -> bool:
    return all(abs(g - w) <= tol for g, w in zip(got[:3], want, strict=True))
