"""evidence/keepassxc.png: KeePassXC listing the current Backups credentials."""

from __future__ import annotations

from pathlib import Path

from realcli_testkit import colour_counts, read_png

WS = Path.cwd()
AMBER = (0xFF, 0xE0, 0x82)  # the vault's background colour of the current Backups entries


def test_keepassxc_screenshot() -> None:
    img = read_png(WS / "evidence" / "keepassxc.png")
    assert img.size == (1024, 768), img.size
    amber = colour_counts(img)[AMBER]
    # One unselected row of a current Backups credential is ~14700 px of its background; the
    # vault's start view (the root group, Grafana admin) has none.
    assert amber >= 8000, (
        f"only {amber} px of the Backups rows: the current credentials are not listed"
    )
