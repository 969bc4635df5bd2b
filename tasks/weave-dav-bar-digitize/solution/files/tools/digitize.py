#!/usr/bin/env python3
"""Digitize the four region screenshots into out/measured.csv.

usage: digitize.py --axis-max 600 North=evidence/north.png South=... East=... West=...

Bars are drawn left to right in store_id order (the x-axis labels), so the n-th bar of a
region is its n-th open store in data/targets.csv sorted by store_id.
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngbars import measure  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--axis-max", type=float, required=True)
ap.add_argument("shots", nargs="+", help="Region=path.png")
a = ap.parse_args()

with open("data/targets.csv", newline="") as f:
    targets = [r for r in csv.DictReader(f) if r["status"].strip() == "open"]

rows = []
for spec in a.shots:
    region, path = spec.split("=", 1)
    stores = sorted(r["store_id"] for r in targets if r["region"] == region)
    bars = measure(path, a.axis_max)
    if len(bars) != len(stores):
        sys.exit(f"{region}: {len(bars)} bars on screen but {len(stores)} open stores")
    for sid, bar in zip(stores, bars):
        rows.append((sid, region, round(bar["value"])))
        print(f"{region:6} {sid}  top={bar['top']:4}  units={bar['value']:7.1f}")

os.makedirs("out", exist_ok=True)
with open("out/measured.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["store_id", "region", "units"])
    w.writerows(sorted(rows))
print(f"wrote out/measured.csv ({len(rows)} stores)")
