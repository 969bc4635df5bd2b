#!/usr/bin/env python3
"""Check an export: a FeatureCollection of Points inside the survey area (README.md)."""

from __future__ import annotations

import json
import sys

LON = (16.30, 16.42)
LAT = (48.18, 48.23)


def problems(fc: dict) -> list[str]:
    if fc.get("type") != "FeatureCollection" or not isinstance(fc.get("features"), list):
        return ["not a FeatureCollection with a features list"]
    out = []
    for i, f in enumerate(fc["features"]):
        geom = f.get("geometry") or {}
        lon, lat = (geom.get("coordinates") or [None, None])[:2]
        if geom.get("type") != "Point":
            out.append(f"feature {i}: geometry is not a Point")
        elif not (LON[0] <= lon <= LON[1] and LAT[0] <= lat <= LAT[1]):
            out.append(f"feature {i}: [{lon}, {lat}] is outside the survey area ([lon, lat]?)")
        if "id" not in (f.get("properties") or {}):
            out.append(f"feature {i}: no properties.id")
    return out


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as f:
        found = problems(json.load(f))
    for p in found:
        print(p)
    print("ok" if not found else f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
