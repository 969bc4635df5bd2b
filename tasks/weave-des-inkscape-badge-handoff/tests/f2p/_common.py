"""Expected values and helpers for the weave-des-inkscape-badge-handoff tests (hidden)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
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


def close(got: tuple[int, int, int], want: tuple[int, int, int], tol: int) -> bool:
    return all(abs(g - w) <= tol for g, w in zip(got, want, strict=True))
