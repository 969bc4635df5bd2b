"""Golden-test input: `runs`, `rounds` and progress rows inserted straight into a warehouse."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb
import polars as pl
import pytest

from realcli.schema.progress import GoalProgress
from realcli.warehouse import insert_rows
from tests.warehouse.run_folders import goal, raw_run

__all__ = ["add_progress", "add_rounds", "add_runs", "assert_rows", "goal", "run"]

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


def add_rounds(
    con: duckdb.DuckDBPyConnection, run_key: str, *scores: tuple[bool, float, bool]
) -> None:
    """`rounds` rows T1, T2, … of ``run_key``, one per (passed, f2p_step, p2p_pass)."""
    insert_rows(
        con,
        "rounds",
        [
            {
                "run_key": run_key,
                "round": i,
                "passed": passed,
                "f2p_total": 4,
                "f2p_passed": round(f2p_step * 4),
                "f2p_pass": f2p_step == 1.0,
                "f2p_step": f2p_step,
                "p2p_total": 2,
                "p2p_passed": 2 if p2p_pass else 1,
                "p2p_pass": p2p_pass,
                "p2p_step": 1.0 if p2p_pass else 0.5,
                "f2p_test_share": f2p_step,
            }
            for i, (passed, f2p_step, p2p_pass) in enumerate(scores, start=1)
        ],
    )


def add_progress(
    con: duckdb.DuckDBPyConnection,
    run_key: str,
    goals: Sequence[GoalProgress],
    *,
    last_step: int = 10,
) -> None:
    """A progress replay of ``run_key`` (`progress_runs`, `progress_goals`); build the goals with
    :func:`goal`. The run's `runs` row needs ``has_progress=True``."""
    insert_rows(
        con,
        "progress_runs",
        [
            {
                "run_key": run_key,
                "method": "exhaustive",
                "grid": 0,
                "n_snapshots": last_step + 1,
                "last_step": last_step,
                "n_evaluations": last_step + 1,
                "seconds": 1.0,
            }
        ],
    )
    insert_rows(
        con,
        "progress_goals",
        [
            {
                "run_key": run_key,
                "goal": g.goal,
                "kind": g.kind,
                "reference_order": g.reference_order,
                "depends_on": list(g.depends_on),
                "initial": g.initial,
                "first_pass_step": g.first_pass_step,
                "broke_at": list(g.broke_at),
                "restored_at": list(g.restored_at),
                "final": g.final,
            }
            for g in goals
        ],
    )


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
