"""Shared read-only helpers for task tests: PNG decoding and image checks, standard library only.

realcli mounts this file read-only into every grading sandbox at
``/run/realcli/testkit/realcli_testkit.py`` and puts that folder first on the tests'
``sys.path`` (pytest's ``pythonpath``), so a bundle's tests write ``from realcli_testkit import
read_png`` instead of carrying a copy of a PNG decoder. A ``realcli_testkit.py`` in the
agent's workspace never shadows it (the workspace comes later on the path). It uses only the
standard library (``zlib``, ``struct``): it runs with whatever Python the sandbox has.

- :func:`read_png`: every non-interlaced PNG (grey, RGB, palette, grey+alpha, RGBA; 1-16
  bits; all five filters) to a :class:`Png` of RGB rows (alpha dropped, 16 bits reduced to 8).
- Colour checks: :func:`parse_colour`, :func:`count_near`, :func:`colour_share`,
  :func:`colour_counts`, :func:`bbox_of`.
- Region comparison and screenshot-vs-reference similarity: :func:`region_difference`,
  :func:`similarity`.

A region is ``(x, y, width, height)`` in pixels; None is the whole image.
"""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = [
    "PNG_SIGNATURE",
    "Pixel",
    "Png",
    "Region",
    "bbox_of",
    "colour_counts",
    "colour_share",
    "count_near",
    "decode",
    "parse_colour",
    "read_png",
    "region_difference",
    "similarity",
]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
Pixel = tuple[int, int, int]
Region = tuple[int, int, int, int]
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class Png:
    """A decoded image: ``rows[y][x]`` is an ``(r, g, b)`` tuple of 0-255."""

    def __init__(self, width: int, height: int, rows: list[list[Pixel]]) -> None:
        self.width = width
        self.height = height
        self.rows = rows

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def pixel(self, x: int, y: int) -> Pixel:
        return self.rows[y][x]

    def pixels(self, region: Region | None = None) -> Iterator[Pixel]:
        """Every pixel of ``region`` (clipped to the image), row by row."""
        x0, y0, x1, y1 = self._box(region)
        for row in self.rows[y0:y1]:
            yield from row[x0:x1]

    def crop(self, region: Region) -> Png:
        x0, y0, x1, y1 = self._box(region)
        return Png(x1 - x0, y1 - y0, [row[x0:x1] for row in self.rows[y0:y1]])

    def _box(self, region: Region | None) -> tuple[int, int, int, int]:
        if region is None:
            return 0, 0, self.width, self.height
        x, y, w, h = region
        if w <= 0 or h <= 0:
            raise ValueError(f"region {region}: width and height must be positive")
        return max(0, x), max(0, y), min(self.width, x + w), min(self.height, y + h)


def _chunks(data: bytes) -> Iterator[tuple[bytes, bytes]]:
    pos = 8
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if len(body) != length:
            raise ValueError("truncated PNG chunk")
        pos += 12 + length
        yield kind, body
        if kind == b"IEND":
            return


def _unfilter(raw: bytes, height: int, stride: int, bpp: int) -> Iterator[bytes]:
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        cur = bytearray(raw[start + 1 : start + 1 + stride])
        if len(cur) != stride:
            raise ValueError("truncated PNG image data")
        if kind == 1:
            for i in range(bpp, stride):
                cur[i] = (cur[i] + cur[i - bpp]) & 255
        elif kind == 2:
            for i in range(stride):
                cur[i] = (cur[i] + prev[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif kind != 0:
            raise ValueError(f"bad PNG filter type {kind} in row {y}")
        prev = cur
        yield bytes(cur)


def _samples(line: bytes, depth: int, count: int) -> list[int]:
    """``count`` samples of ``depth`` bits from one unfiltered row, scaled to 0-255 unless
    the depth is below 8 (palette indices keep their value)."""
    if depth == 8:
        return list(line[:count])
    if depth == 16:
        return list(line[: 2 * count : 2])
    per = 8 // depth
    mask = (1 << depth) - 1
    return [(line[i // per] >> (8 - depth * (i % per + 1))) & mask for i in range(count)]


def read_png(source: str | Path | bytes) -> Png:
    """Decode a PNG file (or its bytes).

    Raises:
        ValueError: not a PNG, interlaced, truncated or otherwise malformed.
    """
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    if data[:8] != PNG_SIGNATURE:
        raise ValueError("not a PNG file")
    header, palette, idat = None, None, []
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = [(body[i], body[i + 1], body[i + 2]) for i in range(0, len(body) - 2, 3)]
        elif kind == b"IDAT":
            idat.append(body)
    if header is None:
        raise ValueError("PNG without IHDR")
    width, height, depth, ctype, _, _, interlace = header
    if interlace:
        raise ValueError("interlaced PNG: not supported")
    if ctype not in _CHANNELS or (ctype == 3 and palette is None):
        raise ValueError(f"PNG colour type {ctype} without what it needs")
    channels = _CHANNELS[ctype]
    bits = depth * channels
    stride, bpp = (width * bits + 7) // 8, max(1, bits // 8)
    raw = zlib.decompress(b"".join(idat))
    scale = 255 // ((1 << depth) - 1) if depth < 8 and ctype != 3 else 1
    rows: list[list[Pixel]] = []
    for line in _unfilter(raw, height, stride, bpp):
        s = _samples(line, depth, width * channels)
        if ctype == 3:
            assert palette is not None
            row = [palette[v] for v in s]
        elif ctype in (0, 4):
            row = [(s[i] * scale, s[i] * scale, s[i] * scale) for i in range(0, len(s), channels)]
        else:
            row = [(s[i], s[i + 1], s[i + 2]) for i in range(0, len(s), channels)]
        rows.append(row)
    return Png(width, height, rows)


def decode(path: str | Path) -> tuple[int, int, list[list[Pixel]]]:
    """``(width, height, rows)`` of a PNG file (:func:`read_png` as a tuple)."""
    img = read_png(path)
    return img.width, img.height, img.rows


def parse_colour(colour: str | Sequence[int]) -> Pixel:
    """``"#2e7d32"`` / ``"2e7d32"`` / ``(46, 125, 50)`` as an ``(r, g, b)`` tuple."""
    if isinstance(colour, str):
        text = colour.removeprefix("#")
        if len(text) != 6:
            raise ValueError(f"colour {colour!r} is not #rrggbb")
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    r, g, b = colour
    return int(r), int(g), int(b)


def _near(p: Pixel, q: Pixel, tolerance: int) -> bool:
    return (
        abs(p[0] - q[0]) <= tolerance
        and abs(p[1] - q[1]) <= tolerance
        and (abs(p[2] - q[2]) <= tolerance)
    )


def count_near(
    img: Png, colour: str | Sequence[int], tolerance: int = 0, region: Region | None = None
) -> int:
    """How many pixels of ``region`` are within ``tolerance`` of ``colour`` on every channel."""
    ref = parse_colour(colour)
    return sum(1 for p in img.pixels(region) if _near(p, ref, tolerance))


def colour_share(
    img: Png, colour: str | Sequence[int], tolerance: int = 0, region: Region | None = None
) -> float:
    """The share (0-1) of ``region``'s pixels near ``colour``."""
    total = sum(1 for _ in img.pixels(region))
    return count_near(img, colour, tolerance, region) / total if total else 0.0


def colour_counts(img: Png, region: Region | None = None) -> Counter[Pixel]:
    """Exact colour -> pixel count over ``region``."""
    return Counter(img.pixels(region))


def bbox_of(
    img: Png, colour: str | Sequence[int], tolerance: int = 0, region: Region | None = None
) -> Region | None:
    """The smallest ``(x, y, width, height)`` holding every pixel near ``colour`` (None: none)."""
    ref = parse_colour(colour)
    x0, y0, x1, y1 = img._box(region)
    xs, ys = [], []
    for y in range(y0, y1):
        row = img.rows[y]
        for x in range(x0, x1):
            if _near(row[x], ref, tolerance):
                xs.append(x)
                ys.append(y)
    if not xs:
        return None
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def _pairs(a: Png, b: Png, region: Region | None) -> Iterator[tuple[Pixel, Pixel]]:
    if a.size != b.size:
        raise ValueError(f"images differ in size: {a.size} and {b.size}")
    return zip(a.pixels(region), b.pixels(region), strict=True)


def region_difference(a: Png, b: Png, region: Region | None = None, tolerance: int = 0) -> float:
    """The share (0-1) of ``region``'s pixels that differ between two same-size images by
    more than ``tolerance`` on some channel: 0.0 means identical there."""
    pairs = list(_pairs(a, b, region))
    if not pairs:
        return 0.0
    return sum(1 for p, q in pairs if not _near(p, q, tolerance)) / len(pairs)


def similarity(a: Png, b: Png, region: Region | None = None) -> float:
    """Screenshot-vs-reference similarity in [0, 1]: one minus the mean absolute channel
    difference over ``region`` (1.0: identical; a black vs a white image: 0.0)."""
    total = count = 0
    for p, q in _pairs(a, b, region):
        total += abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2])
        count += 3
    return 1.0 - total / (255 * count) if count else 1.0
