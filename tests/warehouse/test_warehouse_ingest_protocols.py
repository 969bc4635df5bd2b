"""ingest() of the protocol and progress data: intervention and snapshot events, progress.json
(optional; a malformed one is a problem naming the file and field, never a failed ingest)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest
from run_folders import T0, MakeRun, goal, table_counts, write_progress

from realcli.warehouse import fetch_df, ingest

PLAN = {
    "round": 1,
    "type": "plan",
    "trigger": "protocol",
    "source": "reference_plan",
    "delivery": "prompt",
    "text": "1. parse\n2. merge",
}
GUIDANCE = {
    "round": 1,
    "type": "guidance",
    "trigger": "stall",
    "source": "task_guidance",
    "substep": "s2",
    "delivery": "inject",
    "text": "merge() must sort first",
    "budget_left": 2,
}
GOALS = (
    goal("s1", order=1, first=2),
    goal("s2", order=2, depends_on=["s1"], first=1, broke_at=[3], restored_at=[4]),
    goal("s3", order=3, depends_on=["s2"]),
    goal("p2p/test_b.py::test_0", kind="p2p", first=0, broke_at=[2], final=False),
)


def test_intervention_and_snapshot_events_become_rows(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    run_dir = make_run(
        protocol="plan_interactive", interventions=[PLAN, GUIDANCE], snapshots=True, n_tool_calls=3
    )
    make_run(seed=2)

    stats = ingest(fresh_db, runs_dir)

    assert (stats.loaded, stats.problems) == (2, [])
    got = fetch_df(fresh_db, "select * from interventions order by seq").rows(named=True)
    key = {"run_key": run_dir.name, "ts": T0}
    # seq 1: round_start, 2: the initial snapshot
    assert got[0] == key | {"seq": 3, "substep": None, "budget_left": None} | PLAN
    assert got[1] == key | {"seq": 4} | GUIDANCE
    snaps = fetch_df(
        fresh_db, "select round, step, call_id, changed_files from snapshots order by seq"
    ).rows()
    assert snaps == [(1, 0, None, 0), (1, 1, "c1-0", 1), (1, 2, "c1-1", 1), (1, 3, "c1-2", 1)]
    assert fresh_db.execute(
        "select protocol, n_interventions, n_snapshots, has_progress from fct_runs order by seed"
    ).fetchall() == [("plan_interactive", 2, 4, False), ("autonomous", 0, 0, False)]


def test_progress_json_becomes_progress_runs_and_goals(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    run_dir = make_run()
    write_progress(run_dir, GOALS, last_step=4)

    stats = ingest(fresh_db, runs_dir)

    assert (stats.loaded, stats.problems) == (1, [])
    assert fetch_df(fresh_db, "select * from progress_runs").rows(named=True) == [
        {
            "run_key": run_dir.name,
            "method": "bisection",
            "grid": 2,
            "n_snapshots": 5,
            "last_step": 4,
            "n_evaluations": 4,  # steps 0, 1, 2, 4
            "seconds": 2.0,
        }
    ]
    goals = fetch_df(
        fresh_db,
        "select goal, kind, reference_order, depends_on, initial, first_pass_step, broke_at,"
        " restored_at, final from progress_goals order by goal",
    ).rows()
    assert goals == [
        ("p2p/test_b.py::test_0", "p2p", None, [], True, 0, [2], [], False),
        ("s1", "substep", 1, [], False, 2, [], [], True),
        ("s2", "substep", 2, ["s1"], False, 1, [3], [4], True),
        ("s3", "substep", 3, ["s2"], False, None, [], [], False),
    ]
    assert fresh_db.execute("select has_progress from runs").fetchall() == [(True,)]


def test_progress_json_written_later_reloads_the_run_once(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    run_dir = make_run()
    assert ingest(fresh_db, runs_dir).loaded == 1
    write_progress(run_dir, GOALS)

    again = ingest(fresh_db, runs_dir)
    third = ingest(fresh_db, runs_dir)

    assert (again.loaded, again.unchanged) == (1, 0)
    assert (third.loaded, third.unchanged) == (0, 1)
    counts = table_counts(fresh_db)
    assert (counts["progress_runs"], counts["progress_goals"]) == (1, 4)
    (run_dir / "progress.json").unlink()
    assert ingest(fresh_db, runs_dir).loaded == 1
    counts = table_counts(fresh_db)
    assert (counts["progress_runs"], counts["progress_goals"]) == (0, 0)


def _edit(change: Callable[[dict[str, object]], object]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))

    return damage


def _goal_field(i: int, name: str, value: object) -> Callable[[dict[str, object]], None]:
    def change(doc: dict[str, object]) -> None:
        doc["goals"][i][name] = value  # type: ignore[index]

    return change


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda p: p.write_text('{"run_key": '), "progress.json: not valid JSON"),
        (_edit(lambda d: d.pop("method")), "progress.json: method: Field required"),
        (
            _edit(_goal_field(1, "first_pass_step", "three")),
            "progress.json: goals.1.first_pass_step: Input should be a valid integer",
        ),
        (
            _edit(lambda d: d.update(n_snapshots=0)),
            "progress.json: n_snapshots: Input should be greater than or equal to 1",
        ),
        (_edit(_goal_field(2, "kind", "f2p")), "progress.json: goals.2.kind: Input should be"),
        (_edit(lambda d: d.update(run_key="0" * 16)), "progress.json: run_key: report is for"),
        (_edit(lambda d: d.update(schema_version=9)), "progress.json: schema_version: version 9"),
        (_edit(_goal_field(1, "goal", "s1")), "progress.json: goals.1.goal: 's1' appears twice"),
    ],
    ids=[
        "bad-json",
        "missing-field",
        "wrong-type",
        "out-of-range",
        "bad-kind",
        "other-run",
        "newer-schema",
        "duplicate-goal",
    ],
)
def test_malformed_progress_json_is_a_problem_and_every_run_still_loads(
    fresh_db: duckdb.DuckDBPyConnection,
    make_run: MakeRun,
    runs_dir: Path,
    damage: Callable[[Path], None],
    expected: str,
) -> None:
    bad = make_run(seed=1)
    good = make_run(seed=2)
    damage(write_progress(bad, GOALS))
    write_progress(good, GOALS)

    stats = ingest(fresh_db, runs_dir)

    assert (stats.loaded, stats.incomplete) == (2, 0)
    assert len(stats.problems) == 1, stats.problems
    assert stats.problems[0].startswith(f"{bad / 'progress.json'}: ")
    assert expected in stats.problems[0]
    assert "run loaded without progress (fix: " in stats.problems[0]
    assert fresh_db.execute(
        "select seed, status, has_progress, n_rounds from runs order by seed"
    ).fetchall() == [(1, "graded", False, 1), (2, "graded", True, 1)]
    assert fresh_db.execute("select distinct run_key from progress_goals").fetchall() == [
        (good.name,)
    ]
    assert fresh_db.execute("select run_key from progress_runs").fetchall() == [(good.name,)]


def test_round_deltas_of_an_ingested_three_round_run(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    make_run(
        protocol="self_correct",
        round_scores=[(False, 0.2, True), (False, 0.5, False), (True, 1.0, True)],
    )
    ingest(fresh_db, runs_dir)
    got = fetch_df(
        fresh_db,
        "select round_pair, passed_delta, f2p_step_delta, p2p_pass_delta, f2p_test_share_delta,"
        " tests_regressed, p2p_tests_regressed, tests_newly_passed"
        " from fct_round_deltas order by from_round, to_round",
    ).rows()
    assert got == [
        ("T1→T2", 0, pytest.approx(0.3), -1, 0.0, 1, 1, 0),
        ("T1→T3", 1, pytest.approx(0.8), 0, 0.5, 0, 0, 1),
        ("T2→T3", 1, pytest.approx(0.5), 1, 0.5, 0, 0, 2),
    ]
