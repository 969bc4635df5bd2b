"""Golden tests of the protocol and progress views: raw rows in, expected view rows out."""

from __future__ import annotations

from typing import Any

import duckdb
from run_folders import raw_run

from realcli.warehouse import fetch_df, insert_rows


def _round(
    run_key: str, round_: int, passed: bool, f2p_step: float, p2p_step: float, share: float
) -> dict[str, Any]:
    return {
        "run_key": run_key,
        "round": round_,
        "passed": passed,
        "f2p_total": 4,
        "f2p_passed": int(share * 4),
        "f2p_pass": share == 1.0,
        "f2p_step": f2p_step,
        "p2p_total": 2,
        "p2p_passed": int(p2p_step * 2),
        "p2p_pass": p2p_step == 1.0,
        "p2p_step": p2p_step,
        "f2p_test_share": share,
    }


def _tests(run_key: str, round_: int, passed: set[str]) -> list[dict[str, Any]]:
    return [
        {
            "run_key": run_key,
            "round": round_,
            "test_set": nodeid[:3],
            "nodeid": nodeid,
            "outcome": "passed" if nodeid in passed else "failed",
            "duration_s": 1.0,
            "message": "",
        }
        for nodeid in ("f2p::a", "f2p::b", "f2p::c", "f2p::d", "p2p::x", "p2p::y")
    ]


def test_fct_round_deltas_of_a_three_round_run(fresh_db: duckdb.DuckDBPyConnection) -> None:
    insert_rows(
        fresh_db,
        "runs",
        [
            raw_run("sc", protocol="self_correct", n_rounds=3, passed=True),
            raw_run("one", n_rounds=1),
            raw_run("killed", status="incomplete", n_rounds=None),
        ],
    )
    insert_rows(
        fresh_db,
        "rounds",
        [
            _round("sc", 1, False, 0.25, 1.0, 0.5),
            _round("sc", 2, False, 0.75, 0.5, 0.75),
            _round("sc", 3, True, 1.0, 1.0, 1.0),
            _round("one", 1, False, 0.5, 1.0, 0.5),
            _round("killed", 1, False, 0.5, 1.0, 0.5),
            _round("killed", 2, True, 1.0, 1.0, 1.0),
        ],
    )
    insert_rows(
        fresh_db,
        "test_results",
        _tests("sc", 1, {"f2p::a", "f2p::b", "p2p::x", "p2p::y"})
        + _tests("sc", 2, {"f2p::a", "f2p::b", "f2p::c", "p2p::x"})
        + _tests("sc", 3, {"f2p::a", "f2p::b", "f2p::c", "f2p::d", "p2p::x", "p2p::y"}),
    )
    columns = [
        "run_key", "protocol", "from_round", "to_round", "round_pair", "is_consecutive",
        "passed_before", "passed_after", "passed_delta", "f2p_pass_delta", "p2p_pass_delta",
        "f2p_step_before", "f2p_step_after", "f2p_step_delta", "p2p_step_delta",
        "f2p_test_share_delta", "tests_retained", "tests_regressed", "p2p_tests_regressed",
        "tests_newly_passed", "test_retention",
    ]  # fmt: skip
    got = fetch_df(
        fresh_db, f"select {', '.join(columns)} from fct_round_deltas order by from_round, to_round"
    ).rows()
    # Every value is exact in binary floating point, so == is exact.
    assert got == [
        ("sc", "self_correct", 1, 2, "T1→T2", True, False, False, 0, 0, -1,
         0.25, 0.75, 0.5, -0.5, 0.25, 3, 1, 1, 1, 0.75),
        ("sc", "self_correct", 1, 3, "T1→T3", False, False, True, 1, 1, 0,
         0.25, 1.0, 0.75, 0.0, 0.5, 4, 0, 0, 2, 1.0),
        ("sc", "self_correct", 2, 3, "T2→T3", True, False, True, 1, 1, 1,
         0.75, 1.0, 0.25, 0.5, 0.25, 4, 0, 0, 2, 1.0),
    ]  # fmt: skip


def test_fct_round_deltas_without_test_rows_has_zero_churn(
    fresh_db: duckdb.DuckDBPyConnection,
) -> None:
    insert_rows(fresh_db, "runs", [raw_run("sc", n_rounds=2)])
    insert_rows(
        fresh_db, "rounds", [_round("sc", 1, False, 0.5, 1.0, 0.5), _round("sc", 2, True, 1, 1, 1)]
    )
    assert fetch_df(
        fresh_db,
        "select passed_delta, f2p_step_delta, tests_retained, tests_regressed, test_retention"
        " from fct_round_deltas",
    ).rows() == [(1, 0.5, 0, 0, None)]


def _goal(run_key: str, goal: str, **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "run_key": run_key,
        "goal": goal,
        "kind": "substep",
        "reference_order": None,
        "depends_on": [],
        "initial": False,
        "first_pass_step": None,
        "broke_at": [],
        "restored_at": [],
        "final": False,
    }
    return row | kw


def _progress_run(run_key: str, last_step: int = 10) -> dict[str, Any]:
    return {
        "run_key": run_key,
        "method": "bisection",
        "grid": 8,
        "n_snapshots": last_step + 1,
        "last_step": last_step,
        "n_evaluations": 6,
        "seconds": 12.0,
    }


def test_fct_goal_maintenance_golden(fresh_db: duckdb.DuckDBPyConnection) -> None:
    insert_rows(
        fresh_db,
        "runs",
        [
            raw_run("g1", has_progress=True, protocol="interactive"),
            raw_run("empty", has_progress=True),
            raw_run("no_file", has_progress=False),
            raw_run("killed", has_progress=True, status="incomplete"),
        ],
    )
    insert_rows(
        fresh_db,
        "progress_runs",
        [_progress_run("g1"), _progress_run("empty", 3), _progress_run("killed")],
    )
    insert_rows(
        fresh_db,
        "progress_goals",
        [
            _goal("g1", "s1", reference_order=1, first_pass_step=2, final=True),
            # done before its prerequisite s1: a dependency violation and a discordant pair
            _goal(
                "g1",
                "s2",
                reference_order=2,
                depends_on=["s1"],
                first_pass_step=1,
                broke_at=[5],
                restored_at=[7],
                final=True,
            ),
            _goal(
                "g1", "s3", reference_order=3, depends_on=["s2"], first_pass_step=8, broke_at=[9]
            ),
            _goal("g1", "s4", reference_order=4, depends_on=["s3"]),  # never done: no edge
            _goal("g1", "p2p::x", kind="p2p", initial=True, first_pass_step=0, final=True),
            _goal("g1", "p2p::y", kind="p2p", initial=True, first_pass_step=0, broke_at=[4]),
            _goal("killed", "s1", reference_order=1, first_pass_step=1, final=True),
        ],
    )
    got = fetch_df(fresh_db, "select * from fct_goal_maintenance order by run_key").rows(named=True)
    assert [r["run_key"] for r in got] == ["empty", "g1"]
    empty, g1 = got
    assert {k: g1[k] for k in g1 if k not in ("model", "harness", "mode", "seed", "task_id")} == {
        "run_key": "g1",
        "protocol": "interactive",
        "passed": False,
        "method": "bisection",
        "n_snapshots": 11,
        "n_evaluations": 6,
        "last_step": 10,
        "n_goals": 6,
        "goals_ever": 5,
        "goals_final": 3,  # s1, s2, p2p::x
        "goal_maintenance_score": 0.6,
        "n_regressions": 3,  # s2 at 5, s3 at 9, p2p::y at 4
        "n_goals_regressed": 3,
        "n_restorations": 1,
        "substeps_total": 4,
        "substeps_completed": 3,
        "substeps_final": 2,
        "substeps_completed_share": 0.75,
        "p2p_total": 2,
        "p2p_ever": 2,
        "p2p_final": 1,
        "p2p_retention": 0.5,
        "n_dependency_edges": 2,  # s1 → s2, s2 → s3 (s4 was never done)
        "n_dependency_violations": 1,
        "n_out_of_order_pairs": 1,
        "last_progress_step": 8,  # s3's first pass (s2 restored at 7)
        "idle_tail_steps": 2,
    }
    assert (empty["n_goals"], empty["goal_maintenance_score"], empty["n_regressions"]) == (
        0,
        None,
        0,
    )
    assert (empty["p2p_retention"], empty["last_progress_step"], empty["idle_tail_steps"]) == (
        None,
        None,
        None,
    )


def test_stg_progress_goals_last_gain_ignores_goals_held_from_the_start(
    fresh_db: duckdb.DuckDBPyConnection,
) -> None:
    insert_rows(
        fresh_db,
        "progress_goals",
        [
            _goal("r", "a", initial=True, first_pass_step=0, broke_at=[3], restored_at=[6]),
            _goal("r", "b", initial=True, first_pass_step=0),
            _goal("r", "c", first_pass_step=4),
            _goal("r", "d"),
            _goal("r", "e", initial=True),
        ],
    )
    assert fetch_df(
        fresh_db,
        "select goal, ever_satisfied, held_from_step, n_breaks, n_restores, last_gain_step"
        " from stg_progress_goals order by goal",
    ).rows() == [
        ("a", True, 0, 1, 1, 6),
        ("b", True, 0, 0, 0, None),
        ("c", True, 4, 0, 0, 4),
        ("d", False, None, 0, 0, None),
        ("e", True, 0, 0, 0, None),  # held initially though no first_pass_step was written
    ]
