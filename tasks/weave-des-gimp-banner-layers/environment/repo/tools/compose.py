"""Build out/banner.png from banner/layers.json and the layer PNGs in banner/assets/.

    python3 tools/compose.py [--layers banner/layers.json] [--out out/banner.png]

layers.json lists the layers bottom to top: name (banner/assets/<name>.png), x, y (the
layer's offset on the canvas, px), opacity (0-100) and visible. Layers are composited as
GIMP 2.10's Normal mode does (alpha over, blended in linear light: sRGB values are decoded,
mixed and encoded again) onto a transparent canvas. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def read_png(path: Path) -> tuple[int, int, list[bytearray]]:
    """8-bit RGBA PNG, no interlace (what the design team exports): width, height, rows."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, ctype, interlace) != (8, 6, 0):
                raise SystemExit(f"{path}: expected 8-bit RGBA, not interlaced")
        elif kind == b"IDAT":
            idat += body
    raw, stride = zlib.decompress(idat), width * 4
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b, c = prev[x], (prev[x - 4] if x >= 4 else 0)
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
        rows.append(line)
        prev = line
    return width, height, rows


def write_png(path: Path, width: int, height: int, rows: list[bytearray]) -> None:
    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def _to_linear(v: int) -> float:
    c = v / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> int:
    c = min(max(c, 0.0), 1.0)
    v = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(v * 255)


LINEAR = [_to_linear(v) for v in range(256)]


def compose(spec: dict, assets: Path) -> tuple[int, int, list[bytearray]]:
    width, height = spec["canvas"]
    canvas = [bytearray(width * 4) for _ in range(height)]
    for layer in spec["layers"]:
        if not layer.get("visible", True):
            continue
        lw, lh, pixels = read_png(assets / f"{layer['name']}.png")
        opacity = float(layer.get("opacity", 100)) / 100.0
        ox, oy = int(layer["x"]), int(layer["y"])
        for ly in range(lh):
            y = oy + ly
            if not 0 <= y < height:
                continue
            src, dst = pixels[ly], canvas[y]
            for lx in range(lw):
                x = ox + lx
                if not 0 <= x < width:
                    continue
                sa = src[lx * 4 + 3] / 255.0 * opacity
                if sa <= 0:
                    continue
                da = dst[x * 4 + 3] / 255.0
                out_a = sa + da * (1 - sa)
                for k in range(3):
                    s, d = LINEAR[src[lx * 4 + k]], LINEAR[dst[x * 4 + k]]
                    dst[x * 4 + k] = _to_srgb((s * sa + d * da * (1 - sa)) / out_a)
                dst[x * 4 + 3] = round(out_a * 255)
    return width, height, canvas


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", default=str(ROOT / "banner" / "layers.json"))
    ap.add_argument("--out", default=str(ROOT / "out" / "banner.png"))
    args = ap.parse_args(argv)
    spec = json.loads(Path(args.layers).read_text(encoding="utf-8"))
    width, height, rows = compose(spec, Path(args.layers).parent / "assets")
    write_png(Path(args.out), width, height, rows)
    shown = [layer["name"] for layer in spec["layers"] if layer.get("visible", True)]
    print(f"{args.out}: {width}x{height}, layers bottom to top: {', '.join(shown)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
