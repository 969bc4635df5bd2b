"""out/attainment.csv: revenue from the refreshed pivot (shipped orders only), the ODS targets."""

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _truth import ORDER, OUT, PCT, REVENUE, TARGET  # noqa: E402


def _rows() -> list[dict[str, str]]:
    path = OUT / "attainment.csv"
    assert path.is_file(), "out/attainment.csv is missing"
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ["region", "revenue", "target", "attainment_pct"], reader.fieldnames
        return list(reader)


def test_header_and_order() -> None:
    assert [r["region"] for r in _rows()] == ORDER, "one row per region, attainment ascending"


def test_revenue_values() -> None:
    got = {r["region"]: float(r["revenue"]) for r in _rows()}
    assert set(got) == set(REVENUE)
    wrong = {k: (got[k], v) for k, v in REVENUE.items() if abs(got[k] - v) > 0.011}
    assert not wrong, f"revenue differs from the refreshed pivot's totals (got, want): {wrong}"


def test_targets_from_ods() -> None:
    got = {r["region"]: float(r["target"]) for r in _rows()}
    assert got == {k: float(v) for k, v in TARGET.items()}, got


def test_attainment_values() -> None:
    got = {r["region"]: r["attainment_pct"] for r in _rows()}
    assert got == {k: f"{v:.1f}" for k, v in PCT.items()}, got
