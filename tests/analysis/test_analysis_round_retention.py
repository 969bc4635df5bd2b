"""Golden test of round-to-round retention, regressions, new passes and churn (SPEC §4)."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_rounds, add_runs, assert_rows, run

from analysis.figures import round_retention
from tests.warehouse.goal_rows import add_tests

_SCORES = (False, 0.5, False)


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="a", protocol="self_correct", n_rounds=3),
        run(run_key="b", protocol="self_correct", n_rounds=2, seed=2),
        run(run_key="one", protocol="self_correct", seed=3),  # one round: no pair
        run(run_key="gone", protocol="self_correct", status="incomplete", seed=4),
    )
    add_rounds(con, "a", _SCORES, _SCORES, _SCORES)
    add_tests(con, "a", "f2p", "f2p::1", False, True, True)
    add_tests(con, "a", "f2p", "f2p::2", True, False, True)
    add_tests(con, "a", "p2p", "p2p::x", True, True, False)
    add_tests(con, "a", "p2p", "p2p::y", True, True, True)
    add_rounds(con, "b", _SCORES, _SCORES)
    add_tests(con, "b", "f2p", "f2p::1", False, False)
    add_tests(con, "b", "p2p", "p2p::x", True, False)
    add_rounds(con, "one", _SCORES)
    add_tests(con, "one", "f2p", "f2p::1", True)
    add_rounds(con, "gone", _SCORES, _SCORES)
    add_tests(con, "gone", "p2p", "p2p::x", True, False)


def _row(pair: str, test_set: str, **values: object) -> dict[str, object]:
    return {"round_pair": pair, "test_set": test_set} | values


def test_round_retention_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = round_retention.data(con)
    assert got.columns == list(round_retention.COLUMN_LABELS)
    assert set(got["system"]) == {"m1 · h1"}
    columns = [
        "round_pair",
        "test_set",
        "n_runs",
        "n_tests",
        "passed_before",
        "retained",
        "regressions",
        "new_passes",
        "retention_pct",
        "churn_pct",
        "regressions_per_run",
        "run_keys",
    ]
    both, only_a = ["a", "b"], ["a"]
    assert_rows(
        got.select(columns),
        [
            # a: 2 -> 1 swap (1 regression, 1 new pass); b: nothing passed before
            _row("T1→T2", "f2p", n_runs=2, n_tests=3, passed_before=1, retained=0,
                 regressions=1, new_passes=1, retention_pct=0.0, churn_pct=200 / 3,
                 regressions_per_run=0.5, run_keys=both),
            _row("T1→T2", "p2p", n_runs=2, n_tests=3, passed_before=3, retained=2,
                 regressions=1, new_passes=0, retention_pct=200 / 3, churn_pct=100 / 3,
                 regressions_per_run=0.5, run_keys=both),
            _row("T2→T3", "f2p", n_runs=1, n_tests=2, passed_before=1, retained=1,
                 regressions=0, new_passes=1, retention_pct=100.0, churn_pct=50.0,
                 regressions_per_run=0.0, run_keys=only_a),
            _row("T2→T3", "p2p", n_runs=1, n_tests=2, passed_before=2, retained=1,
                 regressions=1, new_passes=0, retention_pct=50.0, churn_pct=50.0,
                 regressions_per_run=1.0, run_keys=only_a),
            _row("T1→T3", "f2p", n_runs=1, n_tests=2, passed_before=1, retained=1,
                 regressions=0, new_passes=1, retention_pct=100.0, churn_pct=50.0,
                 regressions_per_run=0.0, run_keys=only_a),
            _row("T1→T3", "p2p", n_runs=1, n_tests=2, passed_before=2, retained=1,
                 regressions=1, new_passes=0, retention_pct=50.0, churn_pct=50.0,
                 regressions_per_run=1.0, run_keys=only_a),
        ],
    )  # fmt: skip
    round_retention.chart(got).to_dict()


def test_a_pair_without_passes_before_has_no_retention(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    rows = con.execute(
        "select retention, churn, n_tests from fct_round_retention"
        " where run_key = 'b' and test_set = 'f2p'"
    ).fetchall()
    assert rows == [(None, 0.0, 1)]


def test_no_multi_round_runs(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(run_key="one"))
    add_rounds(con, "one", _SCORES)
    got = round_retention.data(con)
    assert got.is_empty()
    assert "message" in str(round_retention.chart(got).to_dict())
