"""Golden-test input: `runs` rows inserted straight into an in-memory warehouse."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import duckdb
import polars as pl
import pytest

from realcli.warehouse import insert_rows

T0 = datetime(2026, 1, 1, tzinfo=UTC)
_count = 0


def run(**columns: Any) -> dict[str, Any]:
    """A `runs` row: a graded LongCLI run of system m1 · h1 that failed, unless overridden."""
    global _count
    _count += 1
    row: dict[str, Any] = {
        "run_key": f"run{_count:06d}",
        "experiment": "exp",
        "task_id": "t1",
        "task_kind": "longcli",
        "model": "m1",
        "harness": "h1",
        "mode": "cli_only",
        "protocol": "autonomous",
        "seed": 1,
        "status": "graded",
        "complete": True,
        "ledger_problems": [],
        "passed": False,
        "f2p_pass": False,
        "f2p_step": 0.0,
        "p2p_pass": True,
        "p2p_step": 1.0,
        "wall_time_s": 10.0,
        "n_events": 1,
        "n_model_calls": 0,
        "n_tool_calls": 0,
        "n_gui_tool_calls": 0,
        "n_errors": 0,
        "tokens_in": 0,
        "tokens_out": 0,
        "tokens_cached": 0,
        "cost_usd": 0.0,
        "run_dir": "/runs",
        "spec_json": "{}",
        "ingest_digest": "d",
        "ingested_at": T0,
    }
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
