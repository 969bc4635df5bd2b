#!/usr/bin/env python3
"""Dump of the survey's IndexedDB store -> GeoJSON FeatureCollection (see README.md)."""

from __future__ import annotations

import datetime
import json
import sys


def iso_utc(epoch_ms: int) -> str:
    """recordedAt is JavaScript time (milliseconds since the epoch); ISO 8601 UTC, whole seconds."""
    when = datetime.datetime.fromtimestamp(epoch_ms // 1000, tz=datetime.timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def feature(record: dict) -> dict:
    return {
        "type": "Feature",
        # RFC 7946 3.1.1: [longitude, latitude]
        "geometry": {"type": "Point", "coordinates": [record["lon"], record["lat"]]},
        "properties": {
            "id": record["id"],
            "species": record["species"],
            "dbh_cm": record["dbh_cm"],
            "recorded_at": iso_utc(record["recordedAt"]),
        },
    }


def convert(records: list[dict]) -> dict:
    pending = sorted((r for r in records if not r.get("synced")), key=lambda r: r["id"])
    return {"type": "FeatureCollection", "features": [feature(r) for r in pending]}


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
