"""ingest(): real run folders in, rows out; idempotent, tolerant, one bad folder never stops it."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import duckdb
import pytest
from run_folders import MakeRun, make_verdict, table_counts, truncate_ledger, write_run

from realcli.warehouse import connect, fetch_df, ingest
from realcli.warehouse import ingestion as ingest_module

# One run of write_run(): header, round_start, session, 2 x (model_call, tool_call,
# tool_result), tool_pool, fidelity, round_end, grading, run_end.
EVENTS_PER_RUN = 14


def test_loads_every_run_folder_and_skips_dot_and_underscore_folders(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    for seed in (1, 2, 3):
        make_run(seed=seed)
    hidden = make_run(seed=4)
    shutil.move(hidden, runs_dir / ".hydra" / "multirun" / hidden.name)
    other = make_run(seed=5)
    shutil.move(other, other.parent / f"_{other.name}")

    stats = ingest(fresh_db, runs_dir)

    assert (stats.loaded, stats.unchanged, stats.incomplete, stats.problems) == (3, 0, 0, [])
    assert table_counts(fresh_db) == {
        "runs": 3,
        "rounds": 3,
        "test_results": 12,
        "substep_results": 30,
        "events": 3 * EVENTS_PER_RUN,
        "model_calls": 6,
        "tool_calls": 6,
        "sessions": 3,
        "tool_pools": 3,
        "fidelity": 3,
        "interventions": 0,
        "snapshots": 0,
        "progress_goals": 0,
        "progress_runs": 0,
        "judgements": 0,
        "artifact_checks": 0,
        "clause_results": 0,
        "judge_dimensions": 0,
        "hack_flags": 0,
        "run_deliverables": 0,
        "run_clauses": 0,
        "screenshots": 0,
        "screenshot_provenance": 0,
        "tool_call_ops": 6,  # six shell calls of one simple command each
        "run_task_atoms": 0,
        "run_p1_atoms": 0,
        "run_gui_apps": 0,
    }


def test_run_row_carries_the_axes_and_ledger_totals(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    run_dir = make_run(
        model="m1",
        harness="h1",
        mode="hybrid",
        protocol="self_correct",
        seed=7,
        task_id="task-z",
        passed=False,
        f2p_step=0.4,
        rounds=2,
    )
    ingest(fresh_db, runs_dir)
    row = fetch_df(fresh_db, "select * from runs").row(0, named=True)
    assert row["run_key"] == run_dir.name
    assert (row["experiment"], row["task_id"], row["task_category"], row["task_kind"]) == (
        "exp",
        "task-z",
        "bugfix",
        "longcli",
    )
    assert (row["model"], row["model_backend"], row["model_id"]) == ("m1", "scripted", "test/m1")
    assert (row["harness"], row["harness_version"], row["mode"], row["channels"]) == (
        "h1",
        "1",
        "hybrid",
        "cli,gui",  # hybrid mode offers both channels
    )
    assert (row["protocol"], row["protocol_rounds"], row["seed"]) == ("self_correct", 2, 7)
    assert (row["status"], row["ledger_status"], row["complete"]) == ("graded", "graded", True)
    assert (row["passed"], row["f2p_step"], row["n_rounds"]) == (False, 0.4, 2)
    assert (row["n_model_calls"], row["n_tool_calls"], row["tokens_in"], row["tokens_out"]) == (
        4,
        4,
        400,
        40,
    )
    assert row["cost_usd"] == pytest.approx(0.04)
    assert (row["wall_time_s"], row["agent_time_s"], row["tests_time_s"]) == (12.5, 10.0, 2.5)
    assert row["ended_at"] > row["started_at"]
    assert row["run_dir"] == str(run_dir.resolve())
    assert json.loads(row["spec_json"])["spec"]["seed"] == 7
    tool = fetch_df(fresh_db, "select * from tool_calls order by seq").row(0, named=True)
    assert (tool["name"], tool["ok"], tool["exit_code"], tool["result_seq"]) == (
        "shell",
        True,
        0,
        tool["seq"] + 1,
    )


def test_ingesting_twice_changes_no_count(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    for seed in (1, 2, 3):
        make_run(seed=seed)
    make_run(seed=4, verdict=False)
    first = ingest(fresh_db, runs_dir)
    counts = table_counts(fresh_db)
    stamps = fresh_db.execute("select run_key, ingested_at from runs order by 1").fetchall()

    second = ingest(fresh_db, runs_dir)

    assert (first.loaded, first.incomplete) == (4, 1)
    assert (second.loaded, second.unchanged, second.incomplete, second.problems) == (0, 4, 0, [])
    assert table_counts(fresh_db) == counts
    assert fresh_db.execute("select run_key, ingested_at from runs order by 1").fetchall() == stamps


def test_unchanged_runs_are_recognised_by_a_new_connection(
    tmp_path: Path, make_run: MakeRun, runs_dir: Path
) -> None:
    make_run(seed=1)
    with connect(tmp_path / "w.duckdb") as con:
        assert ingest(con, runs_dir).loaded == 1
    with connect(tmp_path / "w.duckdb") as con:
        stats = ingest(con, runs_dir)
        assert (stats.loaded, stats.unchanged) == (0, 1)


def test_a_changed_folder_is_replaced_not_duplicated(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    changed = make_run(seed=1, passed=True)
    make_run(seed=2)
    ingest(fresh_db, runs_dir)
    counts = table_counts(fresh_db)
    regraded = make_verdict(changed.name, "task-a", passed=False, f2p_step=0.2, p2p_pass=True)
    (changed / "verdict.json").write_text(regraded.model_dump_json())

    stats = ingest(fresh_db, runs_dir)

    assert (stats.loaded, stats.unchanged) == (1, 1)
    assert table_counts(fresh_db) == counts
    passed, step = (
        fresh_db.execute(
            "select passed, f2p_step from runs where run_key = ?", [changed.name]
        ).fetchone()
        or ()
    )
    assert (passed, step) == (False, 0.2)


def test_truncated_ledger_marks_run_incomplete_and_keeps_its_parsed_events(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    killed = make_run(seed=1, verdict=False)
    truncate_ledger(killed)
    make_run(seed=2)

    stats = ingest(fresh_db, runs_dir)

    assert (stats.loaded, stats.incomplete) == (2, 1)
    assert len(stats.problems) == 1
    assert "ledger.jsonl: line 13: truncated last line" in stats.problems[0]
    assert "complete=false" in stats.problems[0]
    rows = fetch_df(
        fresh_db,
        "select run_key, status, complete, ledger_problems, n_events from runs order by seed",
    ).rows(named=True)
    assert [(r["status"], r["complete"]) for r in rows] == [("incomplete", False), ("graded", True)]
    assert len(rows[0]["ledger_problems"]) == 1
    # run_end dropped and the tool_result cut: 9 of 11 events parse.
    assert rows[0]["n_events"] == EVENTS_PER_RUN - 2
    per_run = dict(fresh_db.execute("select run_key, count(*) from events group by 1").fetchall())
    assert per_run == {killed.name: EVENTS_PER_RUN - 2, rows[1]["run_key"]: EVENTS_PER_RUN}


def test_truncated_ledger_with_a_verdict_stays_graded_but_not_complete(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    truncate_ledger(make_run(seed=1))
    stats = ingest(fresh_db, runs_dir)
    assert stats.incomplete == 1
    assert fresh_db.execute("select status, complete from runs").fetchall() == [("graded", False)]


def test_missing_verdict_is_incomplete_and_out_of_denominators(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    make_run(seed=1, verdict=False)
    stats = ingest(fresh_db, runs_dir)
    assert (stats.loaded, stats.incomplete, stats.problems) == (1, 1, [])
    row = fetch_df(fresh_db, "select * from fct_runs").row(0, named=True)
    assert (row["status"], row["complete"], row["in_denominator"]) == ("incomplete", True, False)
    assert (row["passed"], row["f2p_step"], row["f2p_step_bin"]) == (None, None, None)
    assert row["wall_time_s"] == 3.0  # from the ledger's run_end


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda p: p.write_text("{not json"), "spec.json: not valid JSON"),
        (lambda p: p.unlink(), "spec.json: missing"),
        (lambda p: p.write_text("[1, 2]"), "spec.json: not a JSON object"),
        (
            lambda p: _edit_json(p, lambda d: d["spec"]["model"].pop("name")),
            "spec.json: spec.model.name: missing",
        ),
        (
            lambda p: _edit_json(p, lambda d: d["spec"].update(seed="one")),
            "spec.json: spec.seed: expected int",
        ),
    ],
    ids=["bad-json", "missing", "not-object", "missing-field", "wrong-type"],
)
def test_unusable_spec_json_is_reported_and_others_load(
    fresh_db: duckdb.DuckDBPyConnection,
    make_run: MakeRun,
    runs_dir: Path,
    damage: object,
    expected: str,
) -> None:
    bad = make_run(seed=1)
    make_run(seed=2)
    damage(bad / "spec.json")  # type: ignore[operator]

    stats = ingest(fresh_db, runs_dir)

    assert stats.loaded == 1
    assert len(stats.problems) == 1
    assert str(bad) in stats.problems[0]
    assert expected in stats.problems[0]
    assert "(fix: " in stats.problems[0]
    assert "folder skipped" in stats.problems[0]
    assert fresh_db.execute("select seed from runs").fetchall() == [(2,)]


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda p: p.write_text('{"kind": "header", "seq": 0'), "line 1: unreadable header"),
        (lambda p: p.unlink(), "cannot read ledger"),
        (lambda p: p.write_text(""), "line 1: empty ledger"),
    ],
    ids=["bad-header", "missing", "empty"],
)
def test_unreadable_ledger_header_is_reported_and_others_load(
    fresh_db: duckdb.DuckDBPyConnection,
    make_run: MakeRun,
    runs_dir: Path,
    damage: object,
    expected: str,
) -> None:
    bad = make_run(seed=1)
    make_run(seed=2)
    damage(bad / "ledger.jsonl")  # type: ignore[operator]

    stats = ingest(fresh_db, runs_dir)

    assert stats.loaded == 1
    assert len(stats.problems) == 1
    assert f"{bad / 'ledger.jsonl'}: " in stats.problems[0]
    assert expected in stats.problems[0]


def test_ledger_of_another_run_is_reported(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    a, b = make_run(seed=1), make_run(seed=2)
    shutil.copy(b / "ledger.jsonl", a / "ledger.jsonl")
    stats = ingest(fresh_db, runs_dir)
    assert stats.loaded == 1
    assert "line 1: run_key: header says" in stats.problems[0]


def test_unusable_verdict_loads_the_run_as_incomplete(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    bad = make_run(seed=1)
    (bad / "verdict.json").write_text('{"run_key": ')
    stats = ingest(fresh_db, runs_dir)
    assert (stats.loaded, stats.incomplete) == (1, 1)
    assert "verdict.json: unreadable verdict" in stats.problems[0]
    assert fresh_db.execute("select status from runs").fetchall() == [("incomplete",)]


def test_a_copied_run_folder_is_reported_once(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    original = make_run(seed=1)
    shutil.copytree(original, runs_dir / "other-exp" / original.name)
    stats = ingest(fresh_db, runs_dir)
    assert stats.loaded == 1
    assert f"is also the run in {original}" in stats.problems[0]


def test_rows_the_warehouse_rejects_skip_only_their_run(
    fresh_db: duckdb.DuckDBPyConnection,
    make_run: MakeRun,
    runs_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad = make_run(seed=1)
    make_run(seed=2)
    make_run(seed=3)
    real = ingest_module.read_run_folder

    def read_with_a_bad_status(run_dir: Path, *args: object) -> ingest_module.RunRows:
        rows = real(run_dir, *args)  # type: ignore[arg-type]
        if run_dir.name == bad.name:
            rows.run["status"] = "exploded"  # violates the CHECK constraint
        return rows

    monkeypatch.setattr(ingest_module, "read_run_folder", read_with_a_bad_status)
    stats = ingest(fresh_db, runs_dir)

    assert stats.loaded == 2
    assert "rows rejected by the warehouse" in stats.problems[0]
    assert table_counts(fresh_db)["events"] == 2 * EVENTS_PER_RUN


def test_missing_runs_dir_is_an_error(fresh_db: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    with pytest.raises(Exception, match="not a directory"):
        ingest(fresh_db, tmp_path / "nope")


def test_a_thousand_runs_ingest_in_seconds(
    fresh_db: duckdb.DuckDBPyConnection, runs_dir: Path
) -> None:
    template = write_run(runs_dir, experiment="big", seed=0)
    files = {
        name: (template / name).read_text()
        for name in ("spec.json", "ledger.jsonl", "verdict.json")
    }
    for i in range(1, 1000):
        key = f"run{i:05d}".ljust(len(template.name), "x")
        run_dir = template.parent / key
        run_dir.mkdir()
        for name, text in files.items():
            (run_dir / name).write_text(text.replace(template.name, key))

    start = time.perf_counter()
    stats = ingest(fresh_db, runs_dir)
    loaded_in = time.perf_counter() - start
    start = time.perf_counter()
    again = ingest(fresh_db, runs_dir)
    skipped_in = time.perf_counter() - start

    assert (stats.loaded, stats.problems, again.unchanged) == (1000, [], 1000)
    assert table_counts(fresh_db)["events"] == 1000 * EVENTS_PER_RUN
    assert loaded_in < 15, f"1,000 runs took {loaded_in:.1f} s"
    assert skipped_in < 3, f"re-ingesting 1,000 unchanged runs took {skipped_in:.1f} s"


def _edit_json(path: Path, change: object) -> None:
    doc = json.loads(path.read_text())
    change(doc)  # type: ignore[operator]
    path.write_text(json.dumps(doc))


def test_a_deleted_folder_is_removed_and_other_runs_dirs_are_kept(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path, tmp_path: Path
) -> None:
    doomed = make_run(seed=1)
    make_run(seed=2)
    elsewhere = write_run(tmp_path / "other_runs", seed=3)
    ingest(fresh_db, runs_dir)
    ingest(fresh_db, elsewhere.parents[1])
    shutil.rmtree(doomed)
    stats = ingest(fresh_db, runs_dir)
    assert (stats.loaded, stats.unchanged, stats.removed) == (0, 1, 1)
    assert table_counts(fresh_db)["runs"] == 2  # seed 2 here and seed 3 in the other folder
    rows = fresh_db.execute(
        "select count(*) from events where run_key not in (select run_key from runs)"
    ).fetchone()
    assert rows == (0,)


def test_reading_in_worker_processes_loads_exactly_what_one_process_loads(
    runs_dir: Path, tmp_path: Path
) -> None:
    """The pool only changes who parses: same rows, same problems, same order of use."""
    for seed in range(1, 7):
        write_run(runs_dir, seed=seed, passed=seed % 2 == 0, verdict=seed != 3)
    broken = write_run(runs_dir, seed=9)
    (broken / "spec.json").write_text("{not json")
    tables = ("runs", "events", "tool_calls", "rounds", "test_results")
    loaded = {}
    for workers in (1, 2):
        con = connect(tmp_path / f"w{workers}.duckdb")
        stats = ingest(con, runs_dir, workers=workers)
        loaded[workers] = (
            stats.loaded,
            stats.incomplete,
            stats.problems,
            {
                t: con.execute(
                    f"select * exclude (ingested_at) from {t} order by all"
                    if t == "runs"
                    else f"select * from {t} order by all"
                ).fetchall()
                for t in tables
            },
        )
        con.close()
    assert loaded[1][0] == 6 and len(loaded[1][2]) == 1
    assert loaded[2] == loaded[1]
