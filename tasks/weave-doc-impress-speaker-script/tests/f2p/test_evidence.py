"""evidence/slides.png: Impress's Slide Sorter with the deck's five slides."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from realcli_testkit import colour_counts, read_png

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_slide_sorter_screenshot() -> None:
    img = read_png(c.WS / "evidence" / "slides.png")
    assert img.size == (1024, 768), img.size
    counts = colour_counts(img)
    shown = [(title, bg) for title, bg, hidden, _ in c.SLIDES if not hidden]
    # each thumbnail shows ~7500 px of its background in Slide Sorter at 1024x768
    missing = [title for title, bg in shown if counts[bg] < 3000]
    assert not missing, f"the capture does not show these slides' thumbnails: {missing}"
