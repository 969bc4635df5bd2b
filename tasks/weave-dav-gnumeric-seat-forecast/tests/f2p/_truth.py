"""The hidden anchors of weave-dav-gnumeric-seat-forecast (tests/anchors.json)."""

import json
from pathlib import Path

ANCHORS = json.loads((Path(__file__).resolve().parents[1] / "anchors.json").read_text())
FORECAST: dict[str, int] = ANCHORS["forecast"]
TARGET: dict[str, int] = ANCHORS["target"]
GAP: dict[str, int] = ANCHORS["gap"]
SHORT: list[str] = ANCHORS["short"]
WORST: str = ANCHORS["worst_region"]


def expected_rows() -> list[list[str]]:
    """out/gap.csv's rows, sorted by gap ascending (then region)."""
    rows = []
    for r in sorted(GAP, key=lambda r: (GAP[r], r)):
        pct = round(FORECAST[r] / TARGET[r] * 100, 1)
        rows.append([r, str(FORECAST[r]), str(TARGET[r]), str(GAP[r]), f"{pct:.1f}"])
    return rows
