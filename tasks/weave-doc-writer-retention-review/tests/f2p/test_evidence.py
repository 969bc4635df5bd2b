"""evidence/reviewed.png: Writer showing the reviewed document with no tracked change left."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from realcli_testkit import decode

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)

# LibreOffice 7.4's change-tracking colours of the first two authors (Legal, Marketing)
AUTHOR_COLOURS = {(198, 146, 0), (6, 70, 162)}
TEXT_BOX = (95, 238, 440, 300)  # x0, y0, x1, y1: the policy lines left of the comment anchors


def test_reviewed_screenshot() -> None:
    width, height, rows = decode(c.WS / "evidence" / "reviewed.png")
    assert (width, height) == (1024, 768), (width, height)
    x0, y0, x1, y1 = TEXT_BOX
    box = [rows[y][x] for y in range(y0, y1) for x in range(x0, x1)]
    dark = sum(1 for p in box if max(p) < 80)
    white = sum(1 for p in box if p == (255, 255, 255))
    marked = sum(1 for p in box if p in AUTHOR_COLOURS)
    assert white > len(box) // 2 and dark > 300, "the capture does not show Writer's page text"
    assert marked == 0, f"{marked} px of tracked-change colour: changes are still pending"
