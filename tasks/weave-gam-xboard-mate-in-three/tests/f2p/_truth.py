"""The hidden anchors of weave-gam-xboard-mate-in-three (tests/anchors.json)."""

import json
from pathlib import Path

ANCHORS = json.loads((Path(__file__).resolve().parents[1] / "anchors.json").read_text())
FEN: str = ANCHORS["fen"]
MATE_IN: int = ANCHORS["mate_in"]
KEY_MOVES: list[str] = ANCHORS["key_moves"]
KEY_SAN: str = ANCHORS["key_san"]
LINES: dict[str, str] = ANCHORS["lines"]  # every forced mate line (UCI) -> its final placement


def occupancy(placement: str) -> list[str]:
    """A FEN placement as 8 rows (rank 8 first) of ``W``/``B``/``.`` per square."""
    rows = []
    for rank in placement.split("/"):
        row = ""
        for ch in rank:
            row += "." * int(ch) if ch.isdigit() else ("W" if ch.isupper() else "B")
        rows.append(row)
    return rows
