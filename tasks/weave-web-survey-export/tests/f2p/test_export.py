"""out/unsynced.geojson and out/check.json: the crew's real unsynced observations."""

from __future__ import annotations

import json
from pathlib import Path

IDS = [
    "obs-0043",
    "obs-0044",
    "obs-0046",
    "obs-0047",
    "obs-0048",
    "obs-0050",
    "obs-0051",
    "obs-0052",
]


def load(name: str):
    path = Path("out") / name
    assert path.is_file(), f"out/{name} is missing"
    return json.loads(path.read_text(encoding="utf-8"))


def test_export_holds_the_unsynced_records():
    fc = load("unsynced.geojson")
    assert [f["properties"]["id"] for f in fc["features"]] == IDS
    first = fc["features"][0]
    assert first["geometry"]["coordinates"] == [16.357888, 48.205845]
    assert first["properties"]["recorded_at"] == "2026-10-14T08:22:27Z"
    assert fc["features"][3]["properties"]["dbh_cm"] is None


def test_check_code():
    assert load("check.json").get("check_code") == "GS-F8FA-65AE"
