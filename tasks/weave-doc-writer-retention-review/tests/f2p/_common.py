"""Expected values and helpers for the weave-doc-writer-retention-review tests (hidden)."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
import zipfile
import zlib
from pathlib import Path

WS = Path.cwd()
POLICY = WS / "docs" / "retention-policy.odt"
NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
    "meta": "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
}
# Legal's three changes accepted, Marketing's two rejected.
FINAL = [
    ("Heading_20_1", "Customer data retention policy"),
    ("Policy_20_Body", "Support tickets are kept for 30 days after they are closed."),
    (
        "Policy_20_Body",
        "Account data is deleted on request, unless a legal hold or a court order applies.",
    ),
    ("Policy_20_Body", "Nightly backups are kept for 35 days. Backups are encrypted at rest."),
]
COMMENTS = [
    ["author", "date", "resolved", "comment"],
    ["Priya Raman (Legal)", "2026-11-20 09:15", "no", "Shortened per DPO-4471."],
    [
        "Priya Raman (Legal)",
        "2026-11-20 09:20",
        "yes",
        "Court orders count as a legal hold; agreed with the DPO.",
    ],
    [
        "Marco Bell (Marketing)",
        "2026-11-21 16:45",
        "no",
        'Sales asked for "unlimited", see the Q4 plan, p. 3',
    ],
]


def q(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def part(name: str) -> ET.Element:
    with zipfile.ZipFile(POLICY) as z:
        return ET.fromstring(z.read(name))


def blocks(content: ET.Element) -> list[ET.Element]:
    body = content.find("office:body/office:text", NS)
    assert body is not None, "content.xml has no office:body/office:text"
    return [el for el in body if el.tag in (q("text", "h"), q("text", "p"))]


def text_of(el: ET.Element) -> str:
    out = [el.text or ""]
    for child in el:
        if child.tag == q("text", "s"):
            out.append(" " * int(child.get(q("text", "c"), "1")))
        elif child.tag != q("office", "annotation"):
            out.append(text_of(child))
        out.append(child.tail or "")
    return "".join(out)


def read_png_rgb(path: Path) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    """8-bit RGB/RGBA PNG (the screenshot tool's), no interlace: width, height, rows."""
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
