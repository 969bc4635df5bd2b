"""Golden-test input: `runs` rows inserted straight into an in-memory warehouse."""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl
import pytest

from realcli.warehouse import insert_rows
from tests.warehouse.run_folders import raw_run

_count = 0


def run(**columns: Any) -> dict[str, Any]:
    """A `runs` row: a graded LongCLI run of system m1 · h1 that failed, unless overridden."""
    global _count
    _count += 1
    row = raw_run(
        f"run{_count:06d}",
        task_id="t1",
        task_kind="longcli",
        model="m1",
        harness="h1",
        wall_time_s=10.0,
        run_dir="/runs",
    )
    unfinished = {
        "passed": None,
        "f2p_pass": None,
        "f2p_step": None,
        "p2p_pass": None,
        "p2p_step": None,
    }
    if columns.get("status") == "incomplete":
        row |= unfinished | {"complete": False}
    if columns.get("passed"):
        row |= {"f2p_pass": True, "f2p_step": 1.0}
    row.update(columns)
    row["run_key"] = columns.get("run_key", row["run_key"])
    return row


def add_runs(con: duckdb.DuckDBPyConnection, *rows: dict[str, Any]) -> None:
    insert_rows(con, "runs", list(rows))


def assert_rows(got: pl.DataFrame, expected: list[dict[str, Any]]) -> None:
    """Row-by-row, column-by-column equality; floats compared with pytest.approx."""
    rows = got.to_dicts()
    assert len(rows) == len(expected), rows
    for i, (g, e) in enumerate(zip(rows, expected, strict=True)):
        assert set(g) == set(e), (i, set(g) ^ set(e))
        for key, value in e.items():
            if isinstance(value, float):
                assert g[key] == pytest.approx(value), (i, key, g[key])
            else:
                assert g[key] == value, (i, key, g[key])
