#!/usr/bin/env python3
"""Join out/measured.csv with data/targets.csv: out/attainment.csv and out/summary.json."""

import csv
import json
from collections import defaultdict

with open("data/targets.csv", newline="") as f:
    target = {r["store_id"]: int(r["target_units"]) for r in csv.DictReader(f)}
with open("out/measured.csv", newline="") as f:
    measured = list(csv.DictReader(f))

rows = []
for r in measured:
    units, t = int(r["units"]), target[r["store_id"]]
    rows.append([r["store_id"], r["region"], units, t, round(100 * units / t, 1)])
rows.sort(key=lambda r: (r[4], r[0]))
with open("out/attainment.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["store_id", "region", "units", "target_units", "attainment_pct"])
    for r in rows:
        w.writerow(r[:4] + [f"{r[4]:.1f}"])

tot = defaultdict(lambda: [0, 0])
for r in rows:
    tot[r[1]][0] += r[2]
    tot[r[1]][1] += r[3]
region_pct = {k: round(100 * u / t, 1) for k, (u, t) in tot.items()}
summary = {
    "below_target": sorted(r[0] for r in rows if r[4] < 100),
    "region_attainment_pct": {k: region_pct[k] for k in ("North", "South", "East", "West")},
    "best_region": max(region_pct, key=region_pct.get),
    "worst_region": min(region_pct, key=region_pct.get),
}
with open("out/summary.json", "w") as f:
    json.dump(summary, f, indent=2)
    f.write("\n")
print(json.dumps(summary, indent=2))
