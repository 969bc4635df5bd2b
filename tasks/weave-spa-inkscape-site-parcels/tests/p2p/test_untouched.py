"""What stays: the README, the validator and the 2019 figures."""

from __future__ import annotations

import hashlib
from pathlib import Path

WS = Path.cwd()


def test_inputs_unchanged() -> None:
    got = {rel: hashlib.sha256((WS / rel).read_bytes()).hexdigest() for rel in SHAS}
    assert got == SHAS


SHAS = {
    "README.md": "73e5ec9da0c12a340dc53fd8c4b9340bd3470ffcf5c893f62bdfec3ff5380342",
    "tools/check_geojson.py": "b9384c011f62608508ba9a7077e7ddbf00071e6ef02b823885ba000cd9ac41bc",
    "data/parcels-2019.csv": "5c3374161f0f594ba579847515d137f1518297a6590c59037320c1e8159e8740",
}
