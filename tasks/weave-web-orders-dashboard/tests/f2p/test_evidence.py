"""evidence/verified.png: the dashboard after a successful "Verify totals"."""

from __future__ import annotations

from pathlib import Path

from realcli_testkit import count_near, read_png  # realcli's shared test helpers

OK_GREEN = (0x1A, 0x7F, 0x37)
FAIL_RED = (0xCF, 0x22, 0x2E)
VERIFY_BLUE = (0x09, 0x69, 0xDA)


def test_verified_screenshot():
    path = Path("evidence/verified.png")
    assert path.is_file(), "evidence/verified.png is missing"
    img = read_png(path)
    assert img.size == (1024, 768), "not a full screenshot of the 1024x768 display"
    assert count_near(img, OK_GREEN, 6) > 40_000, "no green 'Totals verified' panel"
    assert count_near(img, FAIL_RED, 6) < 300, "a failed verification is on screen"
