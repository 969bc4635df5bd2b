"""banner/layers.json (GIMP's stack, unsaved changes included) and out/banner.png."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from realcli_testkit import decode

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_layers_json() -> None:
    spec = json.loads((c.WS / "banner" / "layers.json").read_text(encoding="utf-8"))
    assert spec.get("canvas") == [480, 200], spec.get("canvas")
    got = [(la["name"], la["x"], la["y"], la["opacity"], la["visible"]) for la in spec["layers"]]
    assert [g[0] for g in got] == [s[0] for s in c.STACK], f"layer order (bottom to top): {got}"
    for g, want in zip(got, c.STACK, strict=True):
        name, x, y, opacity, visible = g
        assert (x, y) == want[1:3], f"{name}: offset {(x, y)}, GIMP shows {want[1:3]}"
        assert isinstance(opacity, int | float) and abs(opacity - want[3]) < 0.01, (
            f"{name}: opacity {opacity}, GIMP shows {want[3]}"
        )
        assert visible is want[4], f"{name}: visible {visible!r}, GIMP shows {want[4]}"


SAMPLES = [
    ((400, 132), c.BADGE, "the badge's centre"),
    ((365, 115), c.BADGE, "the badge where it is now (not where the saved XCF has it)"),
    ((240, 100), c.GLOW, "the glow at 55 %"),
    ((310, 40), c.BG, "where the hidden old-price layer would be"),
    ((30, 20), c.WHITE, "a headline stripe"),
    ((30, 28), c.BG, "between headline stripes"),
    ((5, 5), c.BG, "the background"),
]


def test_banner_png() -> None:
    width, height, rows = decode(c.WS / "out" / "banner.png")
    assert (width, height) == (480, 200), (width, height)
    for (x, y), want, what in SAMPLES:
        assert c.near(rows[y][x], want), f"{what} at {(x, y)} is {rows[y][x]}, expected {want}"
