"""evidence/conversations.png: a capture of the display with Wireshark's dialog open."""

from __future__ import annotations

from pathlib import Path

from realcli_testkit import colour_counts, read_png  # realcli's shared test helpers


def test_conversations_screenshot():
    path = Path("evidence/conversations.png")
    assert path.is_file(), "evidence/conversations.png is missing"
    img = read_png(path)
    assert img.size == (1024, 768), "not a full screenshot of the 1024x768 display"
    assert len(colour_counts(img)) > 30, "an empty or single-colour screen, not Wireshark"
