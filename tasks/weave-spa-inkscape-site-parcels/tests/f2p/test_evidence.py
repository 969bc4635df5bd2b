"""evidence/site-plan.png: Inkscape's canvas with the four current parcels."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from realcli_testkit import colour_counts, read_png

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_site_plan_screenshot() -> None:
    img = read_png(c.WS / "evidence" / "site-plan.png")
    assert img.size == (1024, 768), img.size
    counts = colour_counts(img)
    for pid, fill in c.FILLS.items():
        assert counts[fill] >= 1000, f"parcel {pid}'s fill covers {counts[fill]} px: not shown"
    assert counts[c.DEMOLISHED_FILL] < 50, "the hidden demolished parcel is shown"
