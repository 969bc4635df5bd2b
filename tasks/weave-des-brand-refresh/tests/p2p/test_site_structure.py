"""The rebrand changes colours only: the page, the logo's shapes and the non-colour tokens stay."""

import hashlib
import re
import xml.etree.ElementTree as ET
from pathlib import Path

SITE = Path("site")
INDEX_SHA256 = "9bffb6d93b59f0d5863527495f24cc9c08daae05a41aa4a8aab2447e43a95000"
LOGO_SHAPES = {
    "ring": ("circle", {"cx": "60", "cy": "60", "r": "54"}),
    "hole": ("circle", {"cx": "60", "cy": "60", "r": "38"}),
    "bar": ("rect", {"x": "52", "y": "14", "width": "16", "height": "92"}),
    "dot": ("circle", {"cx": "60", "cy": "60", "r": "14"}),
}


def test_index_unchanged():
    assert hashlib.sha256((SITE / "index.html").read_bytes()).hexdigest() == INDEX_SHA256


def test_logo_shapes_unchanged():
    root = ET.parse(SITE / "logo.svg").getroot()
    assert root.get("viewBox") == "0 0 120 120"
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    for el_id, (tag, attrs) in LOGO_SHAPES.items():
        el = by_id[el_id]
        assert el.tag.split("}")[-1] == tag
        for k, v in attrs.items():
            assert el.get(k) == v, (el_id, k)


def test_non_colour_tokens_unchanged():
    css = (SITE / "tokens.css").read_text()
    assert re.search(r"--radius\s*:\s*8px\s*;", css)
    assert re.search(r'--font-body\s*:\s*"DejaVu Sans", Arial, sans-serif\s*;', css)
