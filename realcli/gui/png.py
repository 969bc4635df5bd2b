"""PNG without a library: the stdlib encoder the GUI driver's screenshots use (from an
``xwd`` dump of the screen) and the size check every screenshot passes."""

from __future__ import annotations

import struct
import zlib

__all__ = ["encode_png", "png_size", "xwd_to_rgb"]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(width: int, height: int, rgb: bytes | bytearray, level: int = 1) -> bytes:
    """An 8-bit RGB PNG of ``rgb`` (``width * height * 3`` bytes, rows top to bottom)."""
    stride = width * 3
    if len(rgb) != stride * height:
        raise ValueError(f"expected {stride * height} bytes of RGB, got {len(rgb)}")
    view = memoryview(rgb)
    packer = zlib.compressobj(level)
    parts = [packer.compress(b"\0" + view[y * stride : (y + 1) * stride]) for y in range(height)]
    parts.append(packer.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", b"".join(parts))
        + _chunk(b"IEND", b"")
    )


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR. Raises ValueError when it is not a PNG."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def xwd_to_rgb(xwd: bytes) -> tuple[int, int, bytearray] | None:
    """Pixels of a 32-bit TrueColor ZPixmap XWD dump as RGB, or None for other formats."""
    if len(xwd) < 100:
        return None
    f = struct.unpack(">25I", xwd[:100])
    header_size, version, fmt, _depth, width, height = f[0:6]
    byte_order, bpp, bpl, vclass = f[7], f[11], f[12], f[13]
    masks, ncolors = f[14:17], f[19]
    if (
        version != 7
        or fmt != 2  # ZPixmap
        or bpp != 32
        or vclass not in (4, 5)  # TrueColor, DirectColor
        or masks != (0xFF0000, 0xFF00, 0xFF)
        or bpl < width * 4
    ):
        return None
    start = header_size + ncolors * 12
    px = xwd[start : start + bpl * height]
    if len(px) < bpl * height:
        return None
    if bpl != width * 4:
        px = b"".join(px[y * bpl : y * bpl + width * 4] for y in range(height))
    # 32-bit pixels 0x00RRGGBB: bytes B G R X (LSB first) or X R G B (MSB first).
    r, g, b = (2, 1, 0) if byte_order == 0 else (1, 2, 3)
    rgb = bytearray(width * height * 3)
    rgb[0::3] = px[r::4]
    rgb[1::3] = px[g::4]
    rgb[2::3] = px[b::4]
    return width, height, rgb
