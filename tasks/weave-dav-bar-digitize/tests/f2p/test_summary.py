import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from truth import BEST, REGION_PCT_TOL, UNITS, WORST, attainment, region_pct  # noqa: E402

OUT = Path("out/summary.json")


def _summary():
    assert OUT.is_file(), "out/summary.json is missing"
    return json.loads(OUT.read_text(encoding="utf-8"))


def test_below_target():
    want = sorted(s for s in UNITS if attainment(s) < 100)
    assert _summary()["below_target"] == want


def test_region_attainment():
    got = _summary()["region_attainment_pct"]
    want = region_pct()
    assert sorted(got) == sorted(want)
    for r, v in want.items():
        assert abs(float(got[r]) - v) <= REGION_PCT_TOL, f"{r}: {got[r]} vs {v:.1f}"


def test_best_worst_region():
    s = _summary()
    assert s["best_region"] == BEST
    assert s["worst_region"] == WORST
