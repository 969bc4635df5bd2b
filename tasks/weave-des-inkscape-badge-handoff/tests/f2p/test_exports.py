"""out/badge-128.png and out/badge-32.png: the badge group alone, exported by Inkscape."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from realcli_testkit import read_png

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)

WHITE = (255, 255, 255)
# (x, y) at 128 px (1 px per user unit; the badge's box starts at 16,16) -> expected colour
SAMPLES_128 = [
    ((6, 64), c.RING),  # the ring, left
    ((64, 64), c.STAR),  # the star's centre
    ((84, 56), c.STAR),  # the master star's right arm (outside the old diamond)
    ((64, 92), WHITE),  # between the master star's legs (inside the old diamond)
    ((64, 20), WHITE),  # the face above the star
]


def test_exports() -> None:
    big = read_png(c.WS / "out" / "badge-128.png")
    small = read_png(c.WS / "out" / "badge-32.png")
    assert (big.width, big.height) == (128, 128), (big.width, big.height)
    assert (small.width, small.height) == (32, 32), (small.width, small.height)
    for (x, y), want in SAMPLES_128:
        got = big.pixel(x, y)
        assert c.close(got, c.rgb(want) if isinstance(want, str) else want, 3), (
            f"badge-128.png at {(x, y)} is {got}, expected {want}"
        )
    assert c.close(small.pixel(16, 16), c.rgb(c.STAR), 8), small.pixel(16, 16)
    assert c.close(small.pixel(1, 16), c.rgb(c.RING), 12), small.pixel(1, 16)
