import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from truth import PCT_TOL, TARGET, UNITS, attainment, region_of  # noqa: E402

OUT = Path("out/attainment.csv")
HEADER = ["store_id", "region", "units", "target_units", "attainment_pct"]


def _rows():
    assert OUT.is_file(), "out/attainment.csv is missing"
    with OUT.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], [r for r in rows[1:] if any(c.strip() for c in r)]


def test_attainment_format():
    header, rows = _rows()
    assert [c.strip() for c in header] == HEADER
    pcts = [float(r[4]) for r in rows]
    assert pcts == sorted(pcts), "rows must be sorted by attainment_pct ascending"
    for r in rows:
        assert r[4].strip() == f"{float(r[4]):.1f}", f"one decimal: {r}"


def test_attainment_values():
    _, rows = _rows()
    got = {r[0].strip(): r for r in rows}
    assert sorted(got) == sorted(UNITS), f"stores: {sorted(got)}"
    for s, r in got.items():
        assert r[1].strip() == region_of(s), r
        assert int(float(r[3])) == TARGET[s], f"target of {s}: {r}"
        assert abs(float(r[4]) - attainment(s)) <= PCT_TOL, f"{s}: {r[4]} vs {attainment(s):.1f}"
        # internal consistency: the pct is computed from the row's own units/target
        assert abs(float(r[4]) - 100 * float(r[2]) / float(r[3])) <= 0.06, r
