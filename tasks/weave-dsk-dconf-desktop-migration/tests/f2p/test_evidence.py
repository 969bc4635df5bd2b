"""evidence/dconf-editor.png: dconf Editor rendering the session (its prefer-dark colour scheme)."""

from __future__ import annotations

from pathlib import Path

from realcli_testkit import colour_counts, read_png

WS = Path.cwd()
DARK_BG = (45, 45, 45)  # Adwaita dark: dconf Editor follows the session's color-scheme
LIGHT_BG = (246, 245, 244)  # Adwaita light: what a default (or memory-backend) session shows
SELECTED = (21, 83, 158)  # Adwaita dark's selected row: a key is selected


def test_dconf_editor_screenshot() -> None:
    img = read_png(WS / "evidence" / "dconf-editor.png")
    assert img.size == (1024, 768), img.size
    counts = colour_counts(img)
    assert counts[DARK_BG] >= 100000, (
        f"only {counts[DARK_BG]} px of the dark window: not the session"
    )
    assert counts[LIGHT_BG] < 5000, "dconf Editor is light: not the user's session (prefer-dark)"
    assert counts[SELECTED] >= 8000, f"only {counts[SELECTED]} px of a selected key row"
