"""Golden test of the Kaplan–Meier curve of steps until a goal's first violation (SPEC §4)."""

from __future__ import annotations

import duckdb
import numpy as np
import pytest
from progress_seed import seed_progress
from warehouse_rows import assert_rows

from analysis.figures import first_violation_km


def test_first_violation_km_golden(con: duckdb.DuckDBPyConnection) -> None:
    seed_progress(con)
    got = first_violation_km.data(con)
    assert got.columns == list(first_violation_km.COLUMN_LABELS)
    # m1 goals: censored at 10, 1, 0 (b.s2), 0 (c.s1); broken after 2 (a.s2, b.s1) and 4 (a.x).
    # Product limit: S(2) = 1 - 2/4, S(4) = 0.5 * (1 - 1/2)
    columns = ["steps", "n_at_risk", "n_violations", "n_censored", "survival_pct"]
    expected = [
        (0, 7, 0, 2, 100.0, ["b", "c"]),
        (1, 5, 0, 1, 100.0, ["a"]),
        (2, 4, 2, 0, 50.0, ["a", "b"]),
        (4, 2, 1, 0, 25.0, ["a"]),
        (10, 1, 0, 1, 25.0, ["a"]),
    ]
    assert set(got["system"]) == {"m1 · h1"}
    assert_rows(
        got.select(*columns, "run_keys"),
        [dict(zip(columns, row[:-1], strict=True)) | {"run_keys": row[-1]} for row in expected],
    )
    band = got.filter(got["ci_low"].is_not_null() & (got["steps"] > 0))
    assert band.height > 0
    assert (band["ci_low"] <= band["survival_pct"]).all()
    assert (band["survival_pct"] <= band["ci_high"]).all()
    first_violation_km.chart(got).to_dict()


def test_survival_matches_the_textbook_6mp_example() -> None:
    """The product limit on the textbook sample (Freireich et al. 1963, remission weeks of the
    6-MP group, as in Kleinbaum & Klein): S(6) = 0.857, S(7) = 0.807, S(10) = 0.753."""
    times = np.array([6, 6, 6, 7, 10, 13, 16, 22, 23, 6, 9, 10, 11, 17, 19, 20, 25, 32, 32, 34, 35])
    observed = np.array([True] * 9 + [False] * 12)
    rows = {r["steps"]: r for r in first_violation_km.survival(times.astype(float), observed)}
    assert rows[0]["survival_pct"] == 100.0  # the start is added when nothing happens at 0
    assert rows[6]["survival_pct"] == pytest.approx(85.71, abs=0.01)
    assert rows[7]["survival_pct"] == pytest.approx(80.67, abs=0.01)
    assert rows[10]["survival_pct"] == pytest.approx(75.29, abs=0.01)
    assert (rows[6]["n_at_risk"], rows[6]["n_violations"], rows[6]["n_censored"]) == (21, 3, 1)


def test_no_replay(con: duckdb.DuckDBPyConnection) -> None:
    got = first_violation_km.data(con)
    assert got.is_empty() and got.columns == list(first_violation_km.COLUMN_LABELS)
    assert "message" in str(first_violation_km.chart(got).to_dict())
