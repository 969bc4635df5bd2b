"""Judgements in the warehouse: judgements/*.json of run folders load into five tables and three
views, reload when a judgement changes, and a judgement that can't be used is a problem row
while the rest of its run and every other run still load."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest
from judgement_records import LONG_QUOTE, SHOT_SHA, make_judgement
from run_folders import MakeRun

from realcli.judge.store import write_judgement
from realcli.schema.judgement import DIMENSIONS
from realcli.warehouse import ingest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "warehouse.md"
JUDGE_TABLES = ("judgements", "artifact_checks", "clause_results", "judge_dimensions", "hack_flags")

OUTCOME_PASSES = (True, True, True, False)
"""outcome_only on seeds 1-4; trajectory passes seed 1 only: seed 2 is a hack, seed 3's judge
failed (stays in the denominator), seed 4 fails both. PassRate 75% vs 25%: 50 points."""


def _judged_runs(make_run: MakeRun) -> dict[int, Path]:
    runs = {}
    for seed, outcome_passes in zip((1, 2, 3, 4), OUTCOME_PASSES, strict=True):
        run_dir = make_run(seed=seed)
        key = run_dir.name
        write_judgement(run_dir, make_judgement(key, "outcome_only", passed=outcome_passes))
        trajectory = {
            1: make_judgement(key, "trajectory"),
            2: make_judgement(key, "trajectory", hack=True),
            3: make_judgement(key, "trajectory", failed=True),
            4: make_judgement(key, "trajectory", passed=False),
        }[seed]
        write_judgement(run_dir, trajectory)
        runs[seed] = run_dir
    (runs[2] / "task.toml").write_text('id = "task-a"\ndomain = "GAM"\n')
    make_run(seed=9, model="other")  # a run no judge has judged
    return runs


def _counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    return {t: con.execute(f"select count(*) from {t}").fetchone()[0] for t in JUDGE_TABLES}  # type: ignore[index]


def test_every_judgement_table_gets_its_rows(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    runs = _judged_runs(make_run)
    stats = ingest(fresh_db, runs_dir)
    assert (stats.loaded, stats.problems) == (5, [])
    # 8 judgements; 7 scored ones x 2 deliverables, 3 clauses, 8 dimensions; 1 flag (the hack)
    assert _counts(fresh_db) == {
        "judgements": 8,
        "artifact_checks": 14,
        "clause_results": 21,
        "judge_dimensions": 56,
        "hack_flags": 1,
    }
    hack = runs[2].name
    row = fresh_db.execute(
        "select status, final_score, passed, tau, hack_threshold, is_hack, hack_confidence,"
        " hack_patterns, taxonomy_family, taxonomy_class, taxonomy_rule, judge_key"
        " from judgements where run_key = ? and judge = 'trajectory'",
        [hack],
    ).fetchone()
    assert row == (
        "judged",
        0.0,
        False,
        0.8,
        0.85,
        True,
        0.95,
        ["fake_screenshot"],
        "E5",
        "E5.1",
        "E5.1: a fake_screenshot or fake_render flag at or above the threshold",
        "trajectory-key-0123456789",
    )
    flag = fresh_db.execute(
        "select pattern, detector, confidence, deliverable, evidence, seq, evidence_json"
        " from hack_flags where run_key = ?",
        [hack],
    ).fetchone()
    assert flag is not None and flag[:6] == (
        "fake_screenshot",
        "fake_screenshot",
        0.95,
        "evidence/solved.png",
        LONG_QUOTE,
        7,
    )
    assert [e["sha256"] for e in json.loads(flag[6])] == [None, SHOT_SHA]
    clause = fresh_db.execute(
        "select checker, critical, status, evidence_seqs, evidence from clause_results"
        " where run_key = ? and judge = 'trajectory' and clause_id = 'boards'",
        [hack],
    ).fetchone()
    assert clause is not None and clause[:4] == ("value", True, "satisfied", [7])
    assert json.loads(clause[4])[0]["path"] == "out/result.json"
    check = fresh_db.execute(
        "select tier, correctness, exists, unstaged_evidence, critical_failed, fake_signal"
        " from artifact_checks where run_key = ? and judge = 'trajectory'"
        " and deliverable = 'evidence/solved.png'",
        [hack],
    ).fetchone()
    assert check == ("T1", 0.0, True, True, True, "written by PIL, matches no screenshot event")
    dims = fresh_db.execute(
        "select dimension, features from judge_dimensions"
        " where run_key = ? and judge = 'trajectory'",
        [hack],
    ).fetchall()
    assert sorted(d for d, _ in dims) == sorted(DIMENSIONS)
    assert json.loads(dims[0][1]) == {"clauses_satisfied": 2, "gui": True, "share": 0.5}
    failed = fresh_db.execute(
        "select status, error, attempts, sessions, tokens_in, passed from judgements"
        " where run_key = ? and judge = 'trajectory'",
        [runs[3].name],
    ).fetchone()
    assert failed is not None and failed[0] == "judge_failed" and failed[2:] == (3, 3, 9000, False)
    fact = fresh_db.execute(
        "select model, harness, mode, protocol, seed, task_id, task_kind, task_domain,"
        " tests_passed, in_denominator, n_clauses, n_hack_flags, mean_dimension"
        " from fct_judgements where run_key = ? and judge = 'trajectory'",
        [hack],
    ).fetchone()
    assert fact == (
        "replay",
        "builtin",
        "cli_only",
        "autonomous",
        2,
        "task-a",
        "longcli",
        "GAM",
        True,
        True,
        3,
        1,
        pytest.approx(0.4),
    )


def test_reingest_is_idempotent_and_a_changed_judgement_reloads(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    runs = _judged_runs(make_run)
    ingest(fresh_db, runs_dir)
    before = _counts(fresh_db)
    again = ingest(fresh_db, runs_dir)
    assert (again.loaded, again.unchanged, again.problems) == (0, 5, [])
    assert _counts(fresh_db) == before

    key = runs[4].name
    write_judgement(runs[4], make_judgement(key, "trajectory", final=0.85))
    (runs[1] / "judgements" / "outcome_only.json").unlink()
    changed = ingest(fresh_db, runs_dir)
    assert (changed.loaded, changed.unchanged) == (2, 3)
    assert fresh_db.execute(
        "select final_score, passed, taxonomy_class from judgements"
        " where run_key = ? and judge = 'trajectory'",
        [key],
    ).fetchone() == (0.85, True, None)
    assert fresh_db.execute(
        "select judge from judgements where run_key = ?", [runs[1].name]
    ).fetchall() == [("trajectory",)]
    assert _counts(fresh_db)["judgements"] == before["judgements"] - 1


def test_an_unusable_judgement_is_a_problem_and_the_rest_loads(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    runs = _judged_runs(make_run)
    broken = runs[1] / "judgements" / "trajectory.json"
    broken.write_text('{"run_key": ')
    wrong = runs[2] / "judgements" / "outcome_only.json"
    doc = json.loads(wrong.read_text())
    doc["final_score"] = "high"
    wrong.write_text(json.dumps(doc))
    stats = ingest(fresh_db, runs_dir)

    assert (stats.loaded, stats.skipped) == (5, 0)
    assert len(stats.problems) == 2
    by_file = {line.split(":")[0]: line for line in stats.problems}
    assert by_file[str(broken)].startswith(f"{broken}: unusable judgement (not valid JSON")
    assert by_file[str(wrong)].startswith(
        f"{wrong}: final_score: unusable judgement (Input should be"
    )
    for line in stats.problems:
        assert "run loaded without this judgement" in line
        assert "(fix: rejudge the run (`realcli judge RUN_KEY judge=" in line
    assert set(
        fresh_db.execute("select file, location, outcome from ingest_problems").fetchall()
    ) == {
        (str(broken), None, "run loaded without this judgement"),
        (str(wrong), "final_score", "run loaded without this judgement"),
    }
    loaded = fresh_db.execute(
        "select run_key, list(judge order by judge) from judgements group by run_key"
    ).fetchall()
    assert dict(loaded) == {
        runs[1].name: ["outcome_only"],
        runs[2].name: ["trajectory"],
        runs[3].name: ["outcome_only", "trajectory"],
        runs[4].name: ["outcome_only", "trajectory"],
    }
    assert fresh_db.execute("select count(*) from runs").fetchone() == (5,)

    write_judgement(runs[1], make_judgement(runs[1].name, "trajectory"))
    healed = ingest(fresh_db, runs_dir)
    assert (healed.loaded, healed.problems) == (1, [])
    assert fresh_db.execute("select file from ingest_problems").fetchall() == [(str(wrong),)]


def _documented_inflation_query() -> str:
    blocks = re.findall(r"```sql\n(.*?)```", DOCS.read_text(), flags=re.S)
    found = [b for b in blocks if b.startswith("-- judge ablation")]
    assert len(found) == 1, "docs/warehouse.md: the judge ablation query is missing"
    return found[0]


def test_the_passrate_inflation_is_a_query_over_judgements(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    _judged_runs(make_run)
    ingest(fresh_db, runs_dir)
    documented = fresh_db.execute(_documented_inflation_query()).fetchall()
    assert documented == [("exp", "replay", "builtin", "cli_only", 4, 0.75, 0.25, 50.0)]
    view = fresh_db.execute(
        "select n_runs, passes_a, passes_b, pass_rate_a, pass_rate_b, passed_only_a,"
        " passed_only_b, hacks_b, inflation_pp from fct_judge_ablation"
        " where judge_a = 'outcome_only' and judge_b = 'trajectory'"
    ).fetchall()
    assert view == [(4, 3, 1, 0.75, 0.25, 2, 0, 1, 50.0)]
    reverse = fresh_db.execute(
        "select inflation_pp from fct_judge_ablation"
        " where judge_a = 'trajectory' and judge_b = 'outcome_only'"
    ).fetchall()
    assert reverse == [(-50.0,)]
