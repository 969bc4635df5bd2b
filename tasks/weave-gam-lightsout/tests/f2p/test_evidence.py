"""evidence/solved.png: a screenshot of the finished game (both levels cleared)."""

from __future__ import annotations

from pathlib import Path

from _png import count_near, read_png

LIT = (0xFF, 0xD2, 0x3F)
OFF = (0x2F, 0x37, 0x42)
GREEN = (0x2E, 0xA0, 0x43)


def test_solved_screenshot():
    path = Path("evidence/solved.png")
    assert path.is_file(), "evidence/solved.png is missing"
    width, height, rows = read_png(path)
    assert (width, height) == (1024, 768), "not a full screenshot of the 1024x768 display"
    assert count_near(rows, OFF, 4) > 100_000, "no Lights Out board on the screenshot"
    assert count_near(rows, LIT, 12) < 50, "lights are still on"
    assert count_near(rows, GREEN, 8) > 10_000, "no 'ALL LIGHTS OUT' banner"
