"""Golden tests for the views: raw rows in, expected view rows out."""

from __future__ import annotations

from typing import Any

import duckdb
import pytest
from run_folders import T0, raw_run

from realcli.warehouse import fetch_df, insert_rows


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    return fetch_df(con, sql).rows(named=True)


@pytest.mark.parametrize(
    ("f2p_step", "bin_"),
    [
        (0.0, "[0,30)"),
        (0.2999, "[0,30)"),
        (0.3, "[30,60)"),
        (0.1 + 0.2, "[30,60)"),  # 0.30000000000000004
        (0.3 - 1e-12, "[30,60)"),  # float noise below the edge rounds onto it
        (0.5999, "[30,60)"),
        (0.6, "[60,80)"),
        (0.7999, "[60,80)"),
        (0.8, "[80,100)"),
        (0.9999, "[80,100)"),
        (1.0, "100"),
    ],
)
def test_fct_runs_bins_f2p_step_with_100_as_its_own_bin(
    fresh_db: duckdb.DuckDBPyConnection, f2p_step: float, bin_: str
) -> None:
    insert_rows(fresh_db, "runs", [raw_run("r1", f2p_step=f2p_step)])
    assert _rows(fresh_db, "select f2p_step_bin from fct_runs") == [{"f2p_step_bin": bin_}]


def test_fct_runs_statuses_and_denominators(fresh_db: duckdb.DuckDBPyConnection) -> None:
    insert_rows(
        fresh_db,
        "runs",
        [
            raw_run("graded", passed=True, f2p_pass=True, f2p_step=1.0),
            raw_run(
                "infra",
                status="infra_error",
                passed=None,
                f2p_pass=None,
                f2p_step=None,
                p2p_pass=None,
                p2p_step=None,
            ),
            raw_run("task", status="task_error"),
            raw_run(
                "killed",
                status="incomplete",
                complete=False,
                passed=None,
                f2p_pass=None,
                f2p_step=None,
                p2p_pass=None,
                p2p_step=None,
            ),
        ],
    )
    got = _rows(
        fresh_db,
        "select run_key, in_denominator, is_infra_error, passed, f2p_step,"
        " f2p_step_bin, p2p_pass, f2p_tests_total from fct_runs order by 1",
    )
    assert got == [
        {
            "run_key": "graded",
            "in_denominator": True,
            "is_infra_error": False,
            "passed": True,
            "f2p_step": 1.0,
            "f2p_step_bin": "100",
            "p2p_pass": True,
            "f2p_tests_total": 0,
        },
        {
            "run_key": "infra",
            "in_denominator": True,
            "is_infra_error": True,
            "passed": False,
            "f2p_step": 0.0,
            "f2p_step_bin": "[0,30)",
            "p2p_pass": False,
            "f2p_tests_total": 0,
        },
        {
            "run_key": "killed",
            "in_denominator": False,
            "is_infra_error": False,
            "passed": None,
            "f2p_step": None,
            "f2p_step_bin": None,
            "p2p_pass": None,
            "f2p_tests_total": None,
        },
        {
            "run_key": "task",
            "in_denominator": True,
            "is_infra_error": False,
            "passed": False,
            "f2p_step": 0.0,
            "f2p_step_bin": "[0,30)",
            "p2p_pass": True,
            "f2p_tests_total": 0,
        },
    ]


def _round(run_key: str, round_: int, **kw: Any) -> dict[str, Any]:
    row = {
        "run_key": run_key,
        "round": round_,
        "passed": False,
        "f2p_total": 2,
        "f2p_passed": 1,
        "f2p_pass": False,
        "f2p_step": 0.5,
        "p2p_total": 1,
        "p2p_passed": 1,
        "p2p_pass": True,
        "p2p_step": 1.0,
        "f2p_test_share": 0.5,
    }
    return row | kw


def _test(run_key: str, round_: int, nodeid: str, outcome: str) -> dict[str, Any]:
    return {
        "run_key": run_key,
        "round": round_,
        "test_set": nodeid[:3],
        "nodeid": nodeid,
        "outcome": outcome,
        "duration_s": 1.0,
        "message": "",
    }


def _substep(run_key: str, round_: int, sid: str, passed: bool) -> dict[str, Any]:
    return {
        "run_key": run_key,
        "round": round_,
        "substep_id": sid,
        "passed": passed,
        "weight": 0.5,
        "tests_passed": int(passed),
        "tests_total": 1,
    }


def test_final_round_tests_and_substeps_feed_fct_runs(
    fresh_db: duckdb.DuckDBPyConnection,
) -> None:
    insert_rows(fresh_db, "runs", [raw_run("r1", n_rounds=2)])
    insert_rows(fresh_db, "rounds", [_round("r1", 1), _round("r1", 2, passed=True)])
    insert_rows(
        fresh_db,
        "test_results",
        [
            _test("r1", 1, "f2p/t.py::a", "failed"),
            _test("r1", 1, "f2p/t.py::b", "failed"),
            _test("r1", 1, "p2p/t.py::c", "passed"),
            _test("r1", 2, "f2p/t.py::a", "passed"),
            _test("r1", 2, "f2p/t.py::b", "error"),
            _test("r1", 2, "p2p/t.py::c", "passed"),
        ],
    )
    insert_rows(
        fresh_db,
        "substep_results",
        [
            _substep("r1", 1, "s1", False),
            _substep("r1", 1, "s2", False),
            _substep("r1", 2, "s1", True),
            _substep("r1", 2, "s2", False),
        ],
    )
    assert _rows(
        fresh_db,
        "select f2p_tests_total, f2p_tests_passed, p2p_tests_total,"
        " p2p_tests_passed, substeps_total, substeps_passed from fct_runs",
    ) == [
        {
            "f2p_tests_total": 2,
            "f2p_tests_passed": 1,
            "p2p_tests_total": 1,
            "p2p_tests_passed": 1,
            "substeps_total": 2,
            "substeps_passed": 1,
        }
    ]
    assert _rows(
        fresh_db,
        "select round, is_final_round, count(*) as n from stg_tests group by all order by 1",
    ) == [
        {"round": 1, "is_final_round": False, "n": 3},
        {"round": 2, "is_final_round": True, "n": 3},
    ]
    assert _rows(
        fresh_db,
        "select run_key, model, round, substep_id, passed from fct_substeps order by substep_id",
    ) == [
        {"run_key": "r1", "model": "m", "round": 2, "substep_id": "s1", "passed": True},
        {"run_key": "r1", "model": "m", "round": 2, "substep_id": "s2", "passed": False},
    ]
    assert _rows(fresh_db, "select round, is_final_round, passed from fct_rounds order by 1") == [
        {"round": 1, "is_final_round": False, "passed": False},
        {"round": 2, "is_final_round": True, "passed": True},
    ]


def test_fct_task_attempts_counts_seeds_and_passes_per_system_and_task(
    fresh_db: duckdb.DuckDBPyConnection,
) -> None:
    insert_rows(
        fresh_db,
        "runs",
        [
            raw_run("a1", seed=1, passed=True),
            raw_run("a2", seed=2, passed=False),
            raw_run("a3", seed=3, status="infra_error", passed=None),
            raw_run("a4", seed=4, status="incomplete", passed=None),
            raw_run("b1", task_id="task-b", seed=1, passed=True),
            raw_run("c1", harness="other", seed=1, passed=True),
        ],
    )
    got = _rows(
        fresh_db,
        "select harness, task_id, n_attempts, n_passed, n_incomplete"
        " from fct_task_attempts order by 1, 2",
    )
    assert got == [
        {"harness": "h", "task_id": "task-a", "n_attempts": 3, "n_passed": 1, "n_incomplete": 1},
        {"harness": "h", "task_id": "task-b", "n_attempts": 1, "n_passed": 1, "n_incomplete": 0},
        {
            "harness": "other",
            "task_id": "task-a",
            "n_attempts": 1,
            "n_passed": 1,
            "n_incomplete": 0,
        },
    ]


def test_stg_errors_reads_typed_error_events(fresh_db: duckdb.DuckDBPyConnection) -> None:
    insert_rows(
        fresh_db,
        "events",
        [
            {
                "run_key": "r1",
                "seq": 3,
                "kind": "error",
                "ts": T0,
                "payload": '{"error_type": "sandbox_error", "message": "bwrap died"}',
            },
            {"run_key": "r1", "seq": 4, "kind": "message", "ts": T0, "payload": "{}"},
        ],
    )
    assert _rows(fresh_db, "select run_key, seq, error_type, message from stg_errors") == [
        {"run_key": "r1", "seq": 3, "error_type": "sandbox_error", "message": "bwrap died"}
    ]
