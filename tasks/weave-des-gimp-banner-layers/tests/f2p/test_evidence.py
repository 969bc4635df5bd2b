"""evidence/gimp.png: GIMP's canvas showing the banner in its current (unsaved) state."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

from realcli_testkit import decode

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_gimp_screenshot() -> None:
    width, height, rows = decode(c.WS / "evidence" / "gimp.png")
    assert (width, height) == (1024, 768), (width, height)
    counts = Counter(px for row in rows for px in row)
    # At 100 % the badge covers ~6600 px and the visible part of the glow ~18000 px.
    assert counts[c.BADGE] >= 4000, f"{counts[c.BADGE]} px of the badge: the banner is not shown"
    assert counts[c.GLOW] >= 10000, f"{counts[c.GLOW]} px of the 55 % glow: not the current state"
    assert counts[c.GLOW_SAVED] < 500, "the glow is shown at its saved 40 % opacity"
