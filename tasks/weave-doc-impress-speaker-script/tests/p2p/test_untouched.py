"""What stays: the README."""

from __future__ import annotations

import hashlib
from pathlib import Path

WS = Path.cwd()


def test_readme_unchanged() -> None:
    assert hashlib.sha256((WS / "README.md").read_bytes()).hexdigest() == README_SHA256


README_SHA256 = "57b92ddd14fea6a923bc4b8016fe287bb31093533b860d98b39c89119805286a"
