"""out/active_parcels.gpkg and out/zone_areas.csv: the filtered layer with the unsaved edit."""

from __future__ import annotations

import csv
import importlib.util
import sqlite3
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_gpkg_srs() -> None:
    assert c.GPKG.is_file(), "out/active_parcels.gpkg is missing"
    with sqlite3.connect(f"file:{c.GPKG}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT c.data_type, g.srs_id FROM gpkg_contents c JOIN gpkg_geometry_columns g"
            " ON g.table_name = c.table_name WHERE c.table_name = 'active_parcels'"
        ).fetchall()
    assert rows, "no feature layer active_parcels in the GeoPackage's gpkg_contents"
    assert rows[0] == ("features", c.ANCHORS["srs_id"]), f"{rows[0]}: not features in EPSG:32633"


def test_gpkg_features() -> None:
    want = c.ANCHORS["parcels"]
    got = {r.get("parcel_id", ""): r for r in c.gpkg_rows()}
    assert not (set(got) & c.RETIRED), f"retired parcels exported: {sorted(set(got) & c.RETIRED)}"
    assert set(got) == set(want), f"parcels {sorted(got)}, expected {sorted(want)}"
    for pid, w in want.items():
        r = got[pid]
        assert r.get("owner") == w["owner"], f"{pid}: owner {r.get('owner')!r}"
        stale = (
            " (the saved zone, not QGIS's edit)" if r.get("zone") == c.STALE_ZONE.get(pid) else ""
        )
        assert r.get("zone") == w["zone"], f"{pid}: zone {r.get('zone')!r}{stale}"
        area = c.ring_area(r["WKT"])
        assert abs(area - w["area_m2"]) < 0.5, (
            f"{pid}: polygon area {area:.1f}, expected {w['area_m2']}"
        )


def test_zone_areas() -> None:
    path = c.WS / "out" / "zone_areas.csv"
    assert path.is_file(), "out/zone_areas.csv is missing"
    rows = list(csv.reader(path.open(encoding="utf-8", newline="")))
    assert rows and rows[0] == ["zone", "parcels", "area_m2"], f"header {rows[:1]}"
    want = [[z, str(n), a] for z, n, a in c.ANCHORS["zone_areas"]]
    assert rows[1:] == want, f"rows {rows[1:]}, expected {want}"
