"""Read the Sudoku grid off a screenshot of GNOME Sudoku: digits and which cells are given.

Usage: python3 tools/read_grid.py work/start.png > work/grid.json

Standard library only: a PNG decoder (8-bit RGB/RGBA, non-interlaced), the grid found by its
dark border lines, each cell's ink (dark pixels) scaled to a 6x8 mask and matched to the
glyph masks of GNOME Sudoku's digits (TEMPLATES, measured on the app at 1024x768).
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from pathlib import Path

# digit -> its 6x8 ink mask (rows top to bottom), measured on GNOME Sudoku 43 at 1024x768
TEMPLATES: dict[str, str] = {
    "1": "111100001100001100001100001100001100001100111111",
    "2": "111110100011000011000010001110011000111010111111",
    "3": "111110000011000010011110000011000011110110111100",
    "4": "000110001110011110010110100110111111000110000010",
    "5": "111110110000110100111110000011000011110110111100",
    "6": "011110110000110000111110110011110011110111001110",
    "7": "111111000010000110000110001100001000001000011000",
    "8": "011110110011110011011110110011100011110111011110",
    "9": "011110110010100011110111011111000011010110011100",
}
GW, GH = 6, 8


def read_png(path: Path) -> tuple[int, int, list[bytes], int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "only 8-bit RGB/RGBA PNGs"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
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
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def main() -> None:
    width, height, rows, bpp = read_png(Path(sys.argv[1]))

    def px(x: int, y: int) -> tuple[int, int, int]:
        i = x * bpp
        r = rows[y]
        return r[i], r[i + 1], r[i + 2]

    def ink(x: int, y: int) -> bool:
        return max(px(x, y)) < 110

    def line(x: int, y: int) -> bool:  # the grid's border and box lines: #333333
        return all(abs(v - 0x33) <= 6 for v in px(x, y))

    dark_rows = [
        y for y in range(height) if sum(line(x, y) for x in range(0, width, 2)) > width // 5
    ]
    dark_cols = [
        x for x in range(width) if sum(line(x, y) for y in range(0, height, 2)) > height // 5
    ]
    top, left, right = dark_rows[0], dark_cols[0], dark_cols[-1]
    side = (right - left) / 9
    grid, given = [], []
    for r in range(9):
        digits, fixed = "", ""
        for c in range(9):
            x0, y0 = int(left + c * side), int(top + r * side)
            m = int(side * 0.15)
            pts = [
                (x, y)
                for y in range(y0 + m, int(y0 + side) - m)
                for x in range(x0 + m, int(x0 + side) - m)
                if ink(x, y)
            ]
            bg = px(x0 + 4, y0 + 4)
            fixed += "1" if max(bg) < 230 and abs(bg[0] - bg[2]) < 10 else "0"
            if len(pts) < 20:
                digits += "."
                continue
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            bx, by = min(xs), min(ys)
            bw, bh = max(xs) - bx + 1, max(ys) - by + 1
            cells = [[0] * GW for _ in range(GH)]
            for x, y in pts:
                cells[(y - by) * GH // bh][(x - bx) * GW // bw] += 1
            area = bw * bh / (GW * GH)
            mask = "".join("1" if v > area * 0.3 else "0" for row in cells for v in row)
            best = min(
                TEMPLATES,
                key=lambda d: sum(a != b for a, b in zip(TEMPLATES[d], mask, strict=True)),
            )
            digits += best
        grid.append(digits)
        given.append(fixed)
    print(json.dumps({"grid": grid, "given": given}, indent=1))


if __name__ == "__main__":
    main()
