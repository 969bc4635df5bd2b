"""tools/to_geojson.py on a hidden dump of the survey store."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DUMP = [
    {
        "id": "t-9",
        "lat": 48.21,
        "lon": 16.37,
        "species": "Quercus robur",
        "dbh_cm": 40,
        "recordedAt": 1767225600000,
        "synced": False,
        "notes": "",
    },
    {
        "id": "t-2",
        "lat": 48.19,
        "lon": 16.31,
        "species": "Tilia cordata",
        "dbh_cm": None,
        "recordedAt": 1767225661999,
        "synced": False,
        "notes": "x",
    },
    {
        "id": "t-5",
        "lat": 48.2,
        "lon": 16.4,
        "species": "Acer campestre",
        "dbh_cm": 12,
        "recordedAt": 1767225700000,
        "synced": True,
        "notes": "",
    },
]


def convert(tmp_path: Path) -> dict:
    src, out = tmp_path / "dump.json", tmp_path / "out.geojson"
    src.write_text(json.dumps(DUMP), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "tools/to_geojson.py", str(src), str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_lon_lat_order(tmp_path):
    fc = convert(tmp_path)
    coords = {f["properties"]["id"]: f["geometry"]["coordinates"] for f in fc["features"]}
    assert coords["t-9"] == [16.37, 48.21]
    assert coords["t-2"] == [16.31, 48.19]


def test_only_unsynced_sorted(tmp_path):
    fc = convert(tmp_path)
    assert fc["type"] == "FeatureCollection"
    assert [f["properties"]["id"] for f in fc["features"]] == ["t-2", "t-9"]


def test_recorded_at_utc_from_milliseconds(tmp_path):
    props = {f["properties"]["id"]: f["properties"] for f in convert(tmp_path)["features"]}
    assert props["t-9"]["recorded_at"] == "2026-01-01T00:00:00Z"
    assert props["t-2"]["recorded_at"] == "2026-01-01T00:01:01Z"
    assert props["t-2"]["dbh_cm"] is None
