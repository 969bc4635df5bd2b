import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from truth import UNITS, UNITS_TOL, region_of  # noqa: E402

OUT = Path("out/measured.csv")


def _rows():
    assert OUT.is_file(), "out/measured.csv is missing"
    with OUT.open(newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_measured_header():
    rows = _rows()
    assert [c.strip() for c in rows[0]] == ["store_id", "region", "units"]


def test_measured_stores():
    rows = _rows()[1:]
    rows = [r for r in rows if any(c.strip() for c in r)]
    ids = [r[0].strip() for r in rows]
    assert sorted(ids) == sorted(UNITS), f"stores: {sorted(ids)}"
    for r in rows:
        assert r[1].strip() == region_of(r[0].strip()), r


def test_measured_values():
    rows = [r for r in _rows()[1:] if any(c.strip() for c in r)]
    got = {r[0].strip(): float(r[2]) for r in rows}
    bad = {s: (got.get(s), v) for s, v in UNITS.items() if s not in got or abs(got[s] - v) > UNITS_TOL}
    assert not bad, f"off by more than {UNITS_TOL} units (got, expected): {bad}"
