"""out/parcels.csv and out/parcels.geojson: the current parcels, in metres."""

from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_parcels_csv() -> None:
    with (c.WS / "out" / "parcels.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["id"] for r in rows] == sorted(c.AREA), [r.get("id") for r in rows]
    for r in rows:
        area, per = float(r["area_m2"]), float(r["perimeter_m"])
        assert abs(area - c.AREA[r["id"]]) <= 0.01, f"parcel {r['id']}: area {area}"
        assert abs(per - c.PERIMETER[r["id"]]) <= 0.01, f"parcel {r['id']}: perimeter {per}"


def test_parcels_geojson() -> None:
    path = c.WS / "out" / "parcels.geojson"
    doc = json.loads(path.read_text(encoding="utf-8"))
    feats = {f["properties"]["id"]: f for f in doc["features"]}
    assert sorted(feats) == sorted(c.RINGS), sorted(feats)
    for pid, want in c.RINGS.items():
        rings = feats[pid]["geometry"]["coordinates"]
        assert feats[pid]["geometry"]["type"] == "Polygon" and len(rings) == 1, pid
        ring = [tuple(p) for p in rings[0]]
        assert ring[0] == ring[-1], f"parcel {pid}: ring not closed"
        got = c.canonical(ring[:-1])
        assert got == c.canonical(want), f"parcel {pid}: {got} != {c.canonical(want)}"
    check = subprocess.run(
        [sys.executable, "tools/check_geojson.py", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=c.WS,
    )
    assert check.returncode == 0, check.stdout + check.stderr
