"""evidence/exported.png: the survey page after a successful "Check export"."""

from __future__ import annotations

from pathlib import Path

from realcli_testkit import count_near, read_png  # realcli's shared test helpers

OK_GREEN = (0x1A, 0x7F, 0x37)
FAIL_RED = (0xCF, 0x22, 0x2E)


def test_exported_screenshot():
    path = Path("evidence/exported.png")
    assert path.is_file(), "evidence/exported.png is missing"
    img = read_png(path)
    assert img.size == (1024, 768), "not a full screenshot of the 1024x768 display"
    assert count_near(img, OK_GREEN, 6) > 20_000, "no green 'Export verified' panel"
    assert count_near(img, FAIL_RED, 6) < 300, "a failed check is on screen"
