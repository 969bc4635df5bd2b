"""out/summary.json: total, regions below target, best region."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _truth import ANCHORS, BELOW, OUT  # noqa: E402


def test_summary() -> None:
    path = OUT / "summary.json"
    assert path.is_file(), "out/summary.json is missing"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) == {"total_revenue", "below_target", "best_region"}, sorted(data)
    assert abs(float(data["total_revenue"]) - ANCHORS["total_revenue"]) <= 0.011, data
    assert data["below_target"] == BELOW, data["below_target"]
    assert data["best_region"] == ANCHORS["best_region"], data["best_region"]
