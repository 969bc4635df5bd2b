"""Golden test of the halt indicators: last progress, idle tail, open goals at a voluntary stop."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_progress, add_rounds, add_runs, assert_rows, goal, run

from analysis.figures import halt_indicators
from realcli.schema.report import ReportSpec
from tests.warehouse.goal_rows import add_clauses, add_tests, ending


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="a", has_progress=True),
        run(run_key="b", has_progress=True, seed=2),
        run(run_key="c", seed=3, passed=True),
        run(run_key="d", seed=4),
    )
    # last gain: s2 restored at step 8 of 10; s3 never done, F2P 2 never passed
    add_progress(
        con,
        "a",
        [
            goal("s1", order=1, first=2),
            goal("s2", order=2, first=6, broke_at=[7], restored_at=[8]),
            goal("s3", order=3),
            goal("p2p::x", kind="p2p", first=0),
        ],
    )
    add_rounds(con, "a", (False, 0.5, True))
    add_tests(con, "a", "f2p", "f2p::1", True)
    add_tests(con, "a", "f2p", "f2p::2", False)
    add_clauses(con, "a", "trajectory", ["satisfied", "false", "partial"])
    add_clauses(con, "a", "outcome_only", ["false", "false", "false"])
    ending(con, "a", "done", "Finished.")
    add_progress(con, "b", [goal("s1", order=1, first=0)])  # nothing gained after step 0
    ending(con, "b", "max_turns")
    add_rounds(con, "c", (True, 1.0, True))
    ending(con, "c", "done")
    ending(con, "d", "crash")


def test_halt_indicators_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = halt_indicators.data(con)
    assert got.columns == list(halt_indicators.COLUMN_LABELS)
    assert_rows(
        got,
        [
            {
                "model": "m1",
                "harness": "h1",
                "mode": "cli_only",
                "protocol": "autonomous",
                "system": "m1 · h1",
                "n_runs": 4,
                "n_runs_progress": 2,
                "last_progress_index_pct": 40.0,  # a: 8 / 10; b: 0
                "idle_tail_steps": 6.0,  # a: 2; b: 10
                "idle_tail_pct": 60.0,
                "n_voluntary_stops": 2,  # a, c (b ran out of turns, d crashed)
                "n_budget_stops": 1,
                "n_stops_with_open_goals": 1,
                "open_goals_per_stop": 2.0,  # a: s3, F2P 2 and 2 trajectory clauses; c: none
                "run_keys": ["a", "b", "c", "d"],
            }
        ],
    )
    halt_indicators.chart(got).to_dict()


def test_open_clauses_follow_the_primary_judge(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    spec = ReportSpec(primary_judge="outcome_only")
    assert halt_indicators.data(con, spec=spec)["open_goals_per_stop"].to_list() == [2.5]
