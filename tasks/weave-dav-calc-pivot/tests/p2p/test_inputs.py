"""The targets workbook is an input: read it, never rewrite it."""

import hashlib
from pathlib import Path

TARGETS_SHA256 = "22d7a76c939ea01a6289d6ae751374438c9cc6d74ae953204a34956138662f6c"


def test_targets_ods_unchanged() -> None:
    data = Path("data/targets.ods").read_bytes()
    assert hashlib.sha256(data).hexdigest() == TARGETS_SHA256, "data/targets.ods was changed"
