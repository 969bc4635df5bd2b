"""What the rotation keeps: the README, the unit, the wrapper and offsite.env's other lines."""

from __future__ import annotations

import hashlib
from pathlib import Path

WS = Path.cwd()
KEPT = {
    "README.md": "2de58ad03dd941a614bcaa8f2079e5247baffb618c54abf51275d7624ef00485",
    "deploy/restic-offsite.service": (
        "1dfbf68eebfcc824a965f4777f2345fa354f09c4bfe13b6d5dd9b9aae84f1dd5"
    ),
    "deploy/restic-offsite.sh": "f4e6b7b73750b48440d25963d819f2b173901d86231b210613445b6b79e1a1c5",
}


def test_files_unchanged() -> None:
    for rel, digest in KEPT.items():
        assert hashlib.sha256((WS / rel).read_bytes()).hexdigest() == digest, f"{rel} changed"


def test_env_other_lines_kept() -> None:
    text = (WS / "deploy" / "offsite.env").read_text(encoding="utf-8")
    for line in (
        "RESTIC_PASSWORD_FILE=/etc/restic/offsite/restic-password",
        "B2_ACCOUNT_KEY_FILE=/etc/restic/offsite/b2-account-key",
        "RESTIC_COMPRESSION=auto",
    ):
        assert line in text.splitlines(), f"offsite.env lost {line!r}"
