"""Golden tests of the goal-maintenance views (SPEC §4): raw rows in, expected view rows out."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest

from realcli.warehouse import connect, insert_rows
from tests.analysis.warehouse_rows import add_progress, add_rounds, add_runs, goal, run
from tests.warehouse.goal_rows import add_events, add_judgement, add_tests, ending


@pytest.fixture
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = connect(":memory:")
    yield connection
    connection.close()


def test_goal_outcomes_per_source(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="steps", has_progress=True),
        run(run_key="rounds", n_rounds=2, seed=2),
        run(run_key="one", seed=3),
    )
    add_progress(
        con,
        "steps",
        [goal("s1", order=1, first=2, broke_at=[6], restored_at=[8]), goal("s2", order=2)],
    )
    add_rounds(con, "steps", (False, 0.5, True))
    add_tests(con, "steps", "f2p", "f2p::a", True)
    add_tests(con, "steps", "p2p", "p2p::x", True)  # replayed runs take P2P from the replay
    add_rounds(con, "rounds", (False, 0.5, True), (False, 0.5, False))
    add_tests(con, "rounds", "f2p", "f2p::a", False, True)
    add_tests(con, "rounds", "p2p", "p2p::x", False, False)  # a goal from round 0 all the same
    insert_substeps(con, "rounds", "s1", True, False)
    add_rounds(con, "one", (False, 0.5, True))
    add_tests(con, "one", "f2p", "f2p::a", True)
    rows = con.execute(
        "select run_key, kind, goal, history, horizon, tracked, ever_satisfied, final,"
        " established_at, established_share, violated, first_violation_at, exposure"
        " from fct_goal_outcomes order by run_key, kind, goal"
    ).fetchall()
    assert rows == [
        ("one", "f2p", "f2p::a", "rounds", 1, False, True, True, 1, 1.0, False, None, 0),
        ("rounds", "f2p", "f2p::a", "rounds", 2, True, True, True, 2, 1.0, False, None, 0),
        ("rounds", "p2p", "p2p::x", "rounds", 2, True, True, False, 0, 0.0, True, 1, 2),
        ("rounds", "substep", "s1", "rounds", 2, True, True, False, 1, 0.5, True, 2, 1),
        ("steps", "f2p", "f2p::a", "rounds", 1, False, True, True, 1, 1.0, False, None, 0),
        ("steps", "substep", "s1", "steps", 10, True, True, True, 2, 0.2, True, 6, 8),
        ("steps", "substep", "s2", "steps", 10, True, False, False, None, None, False, None, None),
    ]


def insert_substeps(
    con: duckdb.DuckDBPyConnection, run_key: str, substep: str, *passed: bool
) -> None:
    insert_rows(
        con,
        "substep_results",
        [
            {
                "run_key": run_key,
                "round": i,
                "substep_id": substep,
                "passed": ok,
                "weight": 1.0,
                "tests_passed": int(ok),
                "tests_total": 1,
            }
            for i, ok in enumerate(passed, start=1)
        ],
    )


@pytest.mark.parametrize(
    ("reason", "message", "claimed"),
    [
        ("done", "All tasks are complete and the tests pass.", True),
        ("done", None, True),  # no message recorded: the stop is the claim
        ("done", "I could not get the GUI to render the chart.", False),
        ("done", "I couldn't finish the migration.", False),
        ("done", "Unable to reach the service; the report is incomplete.", False),
        ("done", "Partially implemented: the parser works, the CLI is not done yet.", False),
        ("done", "I gave up on the flaky fixture.", False),
        ("max_turns", "Everything is done.", False),  # a budget stop is no claim
        ("timeout", None, False),
        ("crash", None, False),
    ],
)
def test_a_done_claim(
    con: duckdb.DuckDBPyConnection, reason: str, message: str | None, claimed: bool
) -> None:
    add_runs(con, run(run_key="r"))
    ending(con, "r", reason, message)
    row = con.execute(
        "select stop_reason, voluntary_stop, claimed_done from fct_run_endings"
    ).fetchone()
    assert row == (reason, reason == "done", claimed)


def test_the_claim_is_the_last_agent_session(con: duckdb.DuckDBPyConnection) -> None:
    """Self-correction: round 2 ran no agent (passed earlier); round 1's stop is the one."""
    add_runs(con, run(run_key="r", n_rounds=2, passed=True))
    add_events(
        con,
        "r",
        (1, "round_end", {"round": 1, "reason": "timeout"}),
        (2, "message", {"role": "assistant", "text": "Done."}),
        (3, "message", {"role": "user", "text": "Continue."}),
        (4, "round_end", {"round": 2, "reason": "passed_earlier"}),
    )
    row = con.execute(
        "select stop_reason, final_message, claimed_done, budget_stop from fct_run_endings"
    ).fetchone()
    assert row == ("timeout", "Done.", False, True)


def test_an_abstention_admits_unfinished_work(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(con, run(run_key="r", task_kind="weave"))
    ending(con, "r", "done", "Done.")
    add_judgement(con, "r", "trajectory", passed=False)
    insert_rows(
        con,
        "artifact_checks",
        [
            {
                "run_key": "r",
                "judge": "trajectory",
                "deliverable": "chart.png",
                "exists": False,
                "format_ok": False,
                "correctness": 0.0,
                "tier": "T1",
                "abstained": True,
                "critical_failed": True,
                "unstaged_evidence": False,
                "evidence_quote": "",
                "missing_or_wrong": [],
                "n_clauses": 1,
            }
        ],
    )
    row = con.execute("select n_abstained, admits_incomplete, claimed_done from fct_run_endings")
    assert row.fetchone() == (1, True, False)
