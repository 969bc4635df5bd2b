"""The hidden anchors of weave-gam-sudoku-saved-game (tests/anchors.json)."""

import json
from pathlib import Path

ANCHORS = json.loads((Path(__file__).resolve().parents[1] / "anchors.json").read_text())
PUZZLE: list[str] = ANCHORS["puzzle"]
SOLUTION: list[str] = ANCHORS["solution"]
WRONG: list[str] = ANCHORS["wrong"]
