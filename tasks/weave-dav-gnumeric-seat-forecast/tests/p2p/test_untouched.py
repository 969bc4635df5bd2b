"""What must keep working: the targets stay as the team keeps them."""

import csv
from pathlib import Path


def test_targets_kept() -> None:
    rows = list(csv.reader(Path("data/targets.csv").read_text().splitlines()))
    assert rows[0] == ["region", "q4_target"] and len(rows) == 8
