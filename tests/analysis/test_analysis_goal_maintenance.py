"""Golden test of the Goal Maintenance Score and false completions (SPEC §4)."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_progress, add_rounds, add_runs, assert_rows, goal, run

from analysis.figures import goal_maintenance
from tests.warehouse.goal_rows import add_judgement, add_tests, ending


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="p", task_id="t1", has_progress=True),
        run(run_key="r", task_id="t2", seed=2, n_rounds=2),
        run(run_key="q", task_id="t1", seed=3, passed=True),
        run(run_key="b", task_id="t2", seed=4),
        run(run_key="w", task_kind="weave", model="m2"),
        run(run_key="w2", task_kind="weave", model="m2", seed=2, passed=True),
        run(run_key="gone", status="incomplete", seed=5),
    )
    # step level: s1 breaks for good, s2 holds, s3 never; P2P y breaks for good -> 2 / 4
    add_progress(
        con,
        "p",
        [
            goal("s1", order=1, first=2, broke_at=[6]),
            goal("s2", order=2, first=4),
            goal("s3", order=3),
            goal("p2p::x", kind="p2p", first=0),
            goal("p2p::y", kind="p2p", first=0, broke_at=[3]),
        ],
    )
    add_rounds(con, "p", (False, 0.25, False))
    add_tests(con, "p", "f2p", "f2p::a", True)  # one round: F2P has no history, untracked
    add_tests(con, "p", "p2p", "p2p::x", True)  # P2P of a run with a replay: from the replay
    ending(con, "p", "done", "All tasks are complete.")  # a claim; the tests fail: false
    # round level: F2P a gained, F2P b lost, P2P z kept, P2P w lost -> 2 / 4
    add_rounds(con, "r", (False, 0.5, False), (False, 0.5, False))
    add_tests(con, "r", "f2p", "f2p::a", False, True)
    add_tests(con, "r", "f2p", "f2p::b", True, False)
    add_tests(con, "r", "p2p", "p2p::z", True, True)
    add_tests(con, "r", "p2p", "p2p::w", True, False)
    ending(con, "r", "done", "I could not finish the parser; two tests still fail.")
    add_rounds(con, "q", (True, 1.0, True))
    add_tests(con, "q", "p2p", "p2p::z", True)  # P2P kept since round 0 -> 1 / 1
    ending(con, "q", "done")  # a claim without a message, and the run passed
    ending(con, "b", "max_turns", "Everything is done.")  # a budget stop is no claim
    # WeaveBench tasks are decided by the primary judge
    ending(con, "w", "done", "Done.")
    add_judgement(con, "w", "trajectory", passed=True)
    ending(con, "w2", "done", "Done.")
    add_judgement(con, "w2", "trajectory", passed=False)
    ending(con, "gone", "done", "Done.")


def test_run_scores(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = goal_maintenance.run_scores(con).select(
        "run_key",
        "gms",
        "gms_substep",
        "gms_p2p",
        "gms_f2p",
        "claimed_done",
        "final_check",
        "final_check_passed",
        "false_completion",
    )
    assert_rows(
        got,
        [
            {
                "run_key": "b",
                "gms": None,
                "gms_substep": None,
                "gms_p2p": None,
                "gms_f2p": None,
                "claimed_done": False,
                "final_check": "tests",
                "final_check_passed": False,
                "false_completion": False,
            },
            {
                "run_key": "p",
                "gms": 0.5,
                "gms_substep": 0.5,
                "gms_p2p": 0.5,
                "gms_f2p": None,
                "claimed_done": True,
                "final_check": "tests",
                "final_check_passed": False,
                "false_completion": True,
            },
            {
                "run_key": "q",
                "gms": 1.0,
                "gms_substep": None,
                "gms_p2p": 1.0,
                "gms_f2p": None,
                "claimed_done": True,
                "final_check": "tests",
                "final_check_passed": True,
                "false_completion": False,
            },
            {
                "run_key": "r",
                "gms": 0.5,
                "gms_substep": None,
                "gms_p2p": 0.5,
                "gms_f2p": 0.5,
                "claimed_done": False,
                "final_check": "tests",
                "final_check_passed": False,
                "false_completion": False,
            },
            {
                "run_key": "w",
                "gms": None,
                "gms_substep": None,
                "gms_p2p": None,
                "gms_f2p": None,
                "claimed_done": True,
                "final_check": "judge:trajectory",
                "final_check_passed": True,
                "false_completion": False,
            },
            {
                "run_key": "w2",
                "gms": None,
                "gms_substep": None,
                "gms_p2p": None,
                "gms_f2p": None,
                "claimed_done": True,
                "final_check": "judge:trajectory",
                "final_check_passed": False,
                "false_completion": True,
            },
        ],
    )


def test_goal_maintenance_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = goal_maintenance.data(con)
    assert got.columns == list(goal_maintenance.COLUMN_LABELS)
    common = {"mode": "cli_only", "protocol": "autonomous"}
    assert_rows(
        got,
        [
            common
            | {
                "model": "m1",
                "harness": "h1",
                "system": "m1 · h1",
                "n_runs": 4,
                "n_runs_gms": 3,
                # t1: mean(p 0.5, q 1.0) = 0.75; t2: r 0.5; mean over tasks 0.625
                "gms_pct": 62.5,
                "gms_ci_low": 50.0,
                "gms_ci_high": 75.0,
                "gms_substep_pct": 50.0,
                "gms_p2p_pct": 62.5,
                "gms_f2p_pct": 50.0,
                "n_done_claims": 2,
                "n_false_completions": 1,
                "false_completion_pct": 50.0,
                "run_keys": ["b", "p", "q", "r"],
            },
            common
            | {
                "model": "m2",
                "harness": "h1",
                "system": "m2 · h1",
                "n_runs": 2,
                "n_runs_gms": 0,
                "gms_pct": None,
                "gms_ci_low": None,
                "gms_ci_high": None,
                "gms_substep_pct": None,
                "gms_p2p_pct": None,
                "gms_f2p_pct": None,
                "n_done_claims": 2,
                "n_false_completions": 1,
                "false_completion_pct": 50.0,
                "run_keys": ["w", "w2"],
            },
        ],
    )
    goal_maintenance.chart(got).to_dict()


def test_bootstrap_ci_is_deterministic(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    first = goal_maintenance.data(con)
    assert goal_maintenance.data(con).equals(first)


def test_empty_warehouse(con: duckdb.DuckDBPyConnection) -> None:
    got = goal_maintenance.data(con)
    assert got.is_empty() and got.columns == list(goal_maintenance.COLUMN_LABELS)
    assert "message" in str(goal_maintenance.chart(got).to_dict())
