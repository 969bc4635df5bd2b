"""QGIS's copied features (TSV, WKT geometry) -> notes/active.csv for ogr2ogr and the areas."""

import csv
import re
from collections import defaultdict
from itertools import pairwise
from pathlib import Path

with open("notes/active.tsv", encoding="utf-8", newline="") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))


def area(wkt: str) -> float:
    ring = re.search(r"\(\(([^)]*)\)", wkt).group(1)  # the outer ring
    pts = [tuple(map(float, p.split())) for p in ring.split(",")]
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairwise(pts))) / 2


with open("notes/active.csv", "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    w.writerow(["wkt_geom", "parcel_id", "owner", "zone"])
    for r in rows:
        w.writerow([r["wkt_geom"], r["parcel_id"], r["owner"], r["zone"]])

totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
for r in rows:
    totals[r["zone"]][0] += 1
    totals[r["zone"]][1] += area(r["wkt_geom"])
with open("out/zone_areas.csv", "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    w.writerow(["zone", "parcels", "area_m2"])
    for zone in sorted(totals):
        w.writerow([zone, totals[zone][0], f"{totals[zone][1]:.1f}"])
print(Path("out/zone_areas.csv").read_text())
