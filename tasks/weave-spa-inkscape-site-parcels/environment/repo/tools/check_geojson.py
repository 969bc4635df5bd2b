"""Validate the planning portal's parcel GeoJSON (the portal's import rules).

    python3 tools/check_geojson.py out/parcels.geojson

A FeatureCollection of Polygon features, each with a string ``properties.id`` (unique); one
linear ring per polygon (no holes), closed (first position == last), at least 4 positions,
exterior rings counterclockwise (RFC 7946 section 3.1.6). Exit 0 when valid, 1 with the
problems listed otherwise.
"""

from __future__ import annotations

import itertools
import json
import sys


def ring_area(ring: list[list[float]]) -> float:
    """Signed area (shoelace): positive for a counterclockwise ring, x right and y up."""
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in itertools.pairwise(ring)) / 2


def problems(doc: object) -> list[str]:
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        return ["not a FeatureCollection"]
    out, seen = [], set()
    for i, feat in enumerate(doc.get("features") or []):
        where = f"features[{i}]"
        pid = (feat.get("properties") or {}).get("id") if isinstance(feat, dict) else None
        if not isinstance(pid, str) or not pid:
            out.append(f"{where}: properties.id is missing")
        elif pid in seen:
            out.append(f"{where}: id {pid!r} repeats")
        seen.add(pid)
        geom = feat.get("geometry") if isinstance(feat, dict) else None
        if not isinstance(geom, dict) or geom.get("type") != "Polygon":
            out.append(f"{where}: geometry is not a Polygon")
            continue
        rings = geom.get("coordinates") or []
        if len(rings) != 1:
            out.append(f"{where}: {len(rings)} rings (one exterior ring, no holes)")
            continue
        ring = rings[0]
        if len(ring) < 4 or ring[0] != ring[-1]:
            out.append(f"{where}: the ring is not closed (first position must equal the last)")
        elif ring_area(ring) <= 0:
            out.append(f"{where}: the exterior ring is clockwise (RFC 7946: counterclockwise)")
    if not seen:
        out.append("no features")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        found = problems(json.load(f))
    for p in found:
        print(p)
    print("OK" if not found else f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
