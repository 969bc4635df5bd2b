"""The pairing confirmation from the desktop's control panel was recorded, with evidence."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from realcli_testkit import read_png  # realcli's shared test helpers (docs/weave.md)

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_pairing_code() -> None:
    path = c.WS / "out" / "pairing.txt"
    assert path.is_file(), "out/pairing.txt is missing"
    assert path.read_text(encoding="utf-8").strip() == c.PAIRING_CODE


def test_paired_screenshot() -> None:
    path = c.WS / "evidence" / "paired.png"
    assert path.is_file(), "evidence/paired.png is missing"
    img = read_png(path)
    assert (img.width, img.height) == (1024, 768), (img.width, img.height)
    # The status banner of the Server Check tab (left strip, beside its text) must be green.
    samples = [img.pixel(x, y) for x in range(44, 130, 6) for y in range(260, 318, 6)]
    green = [p for p in samples if p[1] > 100 and p[0] < 90 and p[2] < 90]
    assert len(green) == len(samples), f"banner is not the green PAIRED state: {samples[:3]}"
