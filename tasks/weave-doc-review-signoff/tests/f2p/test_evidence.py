"""evidence/in_sync.png: the viewer's source comparison in the green state."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from realcli_testkit import read_png  # realcli's shared test helpers (docs/weave.md)

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_in_sync_screenshot() -> None:
    path = c.WS / "evidence" / "in_sync.png"
    assert path.is_file(), "evidence/in_sync.png is missing"
    img = read_png(path)
    assert (img.width, img.height) == (1024, 768), (img.width, img.height)
    # The "Source sync" banner, both ends (clear of its text), must be green.
    xs = [*range(758, 784, 5), *range(975, 999, 5)]
    samples = [img.pixel(x, y) for x in xs for y in range(174, 215, 5)]
    green = [p for p in samples if p[1] > 100 and p[0] < 90 and p[2] < 90]
    assert len(green) == len(samples), (
        f"banner is not the green SOURCE IN SYNC state: {samples[:3]}"
    )
