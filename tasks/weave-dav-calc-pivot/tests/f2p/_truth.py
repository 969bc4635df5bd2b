"""The hidden anchors of weave-dav-calc-pivot (tests/anchors.json, never in the sandbox)."""

import json
from pathlib import Path

ANCHORS = json.loads((Path(__file__).resolve().parents[1] / "anchors.json").read_text())
REVENUE: dict[str, float] = ANCHORS["revenue"]
TARGET: dict[str, float] = ANCHORS["target"]
PCT: dict[str, float] = ANCHORS["attainment_pct"]
ORDER: list[str] = ANCHORS["order"]
BELOW: list[str] = ANCHORS["below_target"]
OUT = Path("out")
