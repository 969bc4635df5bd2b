"""Golden test of retention by establishment-time quintile (SPEC §4)."""

from __future__ import annotations

import duckdb
from progress_seed import seed_progress
from warehouse_rows import assert_rows

from analysis.figures import early_retention


def test_early_retention_golden(con: duckdb.DuckDBPyConnection) -> None:
    seed_progress(con)
    got = early_retention.data(con)
    assert got.columns == list(early_retention.COLUMN_LABELS)
    columns = ["system", "kind", "quintile", "n_runs", "n_goals", "n_retained", "retention_pct"]
    expected = [
        ("m1 · h1", "p2p", "[0,20)", 1, 1, 1, 100.0, ["a"]),
        ("m1 · h1", "substep", "[0,20)", 2, 2, 1, 50.0, ["a", "b"]),  # a.s1 kept, b.s1 lost
        ("m1 · h1", "substep", "[20,40)", 1, 1, 0, 0.0, ["a"]),
        ("m1 · h1", "substep", "[80,100]", 2, 2, 2, 100.0, ["a", "b"]),  # b.s2 at 10 / 10
    ]  # run c (0 steps) has no establishment share; d has no replay; 'gone' is unfinished
    assert_rows(
        got.select(*columns, "run_keys"),
        [dict(zip(columns, row[:-1], strict=True)) | {"run_keys": row[-1]} for row in expected],
    )
    early_retention.chart(got).to_dict()


def test_no_replay(con: duckdb.DuckDBPyConnection) -> None:
    got = early_retention.data(con)
    assert got.is_empty() and got.columns == list(early_retention.COLUMN_LABELS)
    assert "message" in str(early_retention.chart(got).to_dict())
