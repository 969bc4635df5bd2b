"""out/restored.json: the restored drafts and the finance check's code."""

from __future__ import annotations

import json
from pathlib import Path


def load():
    path = Path("out/restored.json")
    assert path.is_file(), "out/restored.json is missing"
    return json.loads(path.read_text(encoding="utf-8"))


def test_drafts_and_total():
    report = load()
    assert report.get("drafts") == 8
    assert report.get("total_cents") == 375884


def test_check_code():
    assert load().get("check_code") == "EX-E6D0-666D"
