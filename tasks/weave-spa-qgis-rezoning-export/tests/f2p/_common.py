"""Expected values and helpers for the weave-spa-qgis-rezoning-export tests (hidden)."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from itertools import pairwise
from pathlib import Path

WS = Path.cwd()
ANCHORS = json.loads(Path(__file__).resolve().parents[1].joinpath("anchors.json").read_text())
GPKG = WS / "out" / "active_parcels.gpkg"
# The saved (stale) state: P-104 was R2 before the unsaved edit; P-103, P-106 are retired.
STALE_ZONE = {"P-104": "R2"}
RETIRED = {"P-103", "P-106"}


def gpkg_rows() -> list[dict[str, str]]:
    """The layer's features as CSV with WKT geometry, read by GDAL's ogr2ogr."""
    proc = subprocess.run(
        [
            "ogr2ogr",
            "-f",
            "CSV",
            "/vsistdout/",
            str(GPKG),
            "active_parcels",
            "-lco",
            "GEOMETRY=AS_WKT",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, f"ogr2ogr cannot read layer active_parcels: {proc.stderr.strip()}"
    return list(csv.DictReader(io.StringIO(proc.stdout)))


def ring_area(wkt: str) -> float:
    """Planar area of a (single) polygon's outer ring minus its holes, from WKT."""
    rings = re.findall(r"\(([^()]+)\)", wkt)
    assert rings, f"not a polygon: {wkt[:60]}"
    total = 0.0
    for n, ring in enumerate(rings):
        pts = [tuple(map(float, p.split()[:2])) for p in ring.split(",")]
        a = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairwise(pts))) / 2
        total += a if n == 0 else -a
    return total
