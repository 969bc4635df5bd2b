"""evidence/inkscape.png: Inkscape's canvas rendering the master in its current colours."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from realcli_testkit import colour_counts, read_png

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_inkscape_screenshot() -> None:
    img = read_png(c.WS / "evidence" / "inkscape.png")
    assert img.size == (1024, 768), img.size
    counts = colour_counts(img)
    ring, star = counts[c.rgb(c.RING)], counts[c.rgb(c.STAR)]
    # At Inkscape's 200 % the ring covers ~18000 px and the star ~6000 px of the canvas.
    assert ring >= 4000, f"only {ring} px of the ring colour: the badge is not on screen"
    assert star >= 1500, f"only {star} px of the star's current colour: not the master as shown"
    assert counts[c.rgb(c.STALE["star"])] < 50, "the star is shown in its old colour"
