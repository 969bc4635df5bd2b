"""evidence/solved.png: a screenshot of the finished game (both levels cleared)."""

from __future__ import annotations

from pathlib import Path

from realcli_testkit import count_near, read_png  # realcli's shared test helpers

LIT = (0xFF, 0xD2, 0x3F)
OFF = (0x2F, 0x37, 0x42)
GREEN = (0x2E, 0xA0, 0x43)


def test_solved_screenshot():
    path = Path("evidence/solved.png")
    assert path.is_file(), "evidence/solved.png is missing"
    img = read_png(path)
    assert img.size == (1024, 768), "not a full screenshot of the 1024x768 display"
    assert count_near(img, OFF, 4) > 100_000, "no Lights Out board on the screenshot"
    assert count_near(img, LIT, 12) < 50, "lights are still on"
    assert count_near(img, GREEN, 8) > 10_000, "no 'ALL LIGHTS OUT' banner"
