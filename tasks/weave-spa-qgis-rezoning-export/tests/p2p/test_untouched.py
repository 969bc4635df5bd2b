"""What the export keeps: the README and the zone list."""

from __future__ import annotations

import hashlib
from pathlib import Path

WS = Path.cwd()
KEPT = {
    "README.md": "df0aeefb40beb069c31cf23e5747f56f88987a221fb2f953053fe7bf99edea21",
    "planning/zones.csv": "ec0d7a72a207b058fe3d0c68a87ff18854cf87d7c579456bbaec19dffef88699",
}


def test_files_unchanged() -> None:
    for rel, digest in KEPT.items():
        assert hashlib.sha256((WS / rel).read_bytes()).hexdigest() == digest, f"{rel} changed"
