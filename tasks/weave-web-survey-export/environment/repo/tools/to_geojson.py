#!/usr/bin/env python3
"""Dump of the survey's IndexedDB store -> GeoJSON FeatureCollection (see README.md)."""

from __future__ import annotations

import datetime
import json
import sys


def feature(record: dict) -> dict:
    when = datetime.datetime.fromtimestamp(record["recordedAt"])
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [record["lat"], record["lon"]]},
        "properties": {
            "id": record["id"],
            "species": record["species"],
            "dbh_cm": record["dbh_cm"],
            "recorded_at": when.isoformat(),
        },
    }


def convert(records: list[dict]) -> dict:
    return {"type": "FeatureCollection", "features": [feature(r) for r in records]}


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: to_geojson.py DUMP OUT", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        records = json.load(f)
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(convert(records), f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
