"""What the hand-off keeps: the README, the badge's ids and the ring/face geometry."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from pathlib import Path

WS = Path.cwd()


def test_readme_unchanged() -> None:
    digest = hashlib.sha256((WS / "README.md").read_bytes()).hexdigest()
    assert digest == README_SHA256


def test_badge_structure_kept() -> None:
    root = ET.parse(WS / "brand" / "badge.svg").getroot()
    assert root.get("viewBox") == "0 0 160 160"
    els = {el.get("id"): el for el in root.iter() if el.get("id")}
    for key in ("badge", "badge-ring", "badge-face", "badge-star", "badge-label"):
        assert key in els, f"{key} is missing"
    assert {k: els["badge-ring"].get(k) for k in ("cx", "cy", "r")} == {
        "cx": "80",
        "cy": "80",
        "r": "64",
    }
    assert {k: els["badge-face"].get(k) for k in ("cx", "cy", "r")} == {
        "cx": "80",
        "cy": "80",
        "r": "50",
    }


README_SHA256 = "75e3f390b42c1d60a484ef77cbca13cff8170ca08560d8da8f233bc6a402d674"
