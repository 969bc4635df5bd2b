"""out/report.json: the verified figures and the verification code from the dashboard."""

from __future__ import annotations

import json
from pathlib import Path


def load():
    path = Path("out/report.json")
    assert path.is_file(), "out/report.json is missing"
    return json.loads(path.read_text(encoding="utf-8"))


def test_orders_and_revenue():
    report = load()
    assert report.get("orders") == 32
    assert report.get("revenue") == "$6,072.40"


def test_verification_code():
    assert load().get("verification_code") == "WV-EB6F-2363"
