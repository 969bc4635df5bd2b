"""Golden tests of migration 009: verdict deliverables and clauses, screenshot captures and the
judges' screenshot provenance, from run folders to raw tables to fct_deliverables,
fct_screenshots and fct_runs; damaged parts cost only themselves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from judgement_records import PAINTED_SHA, SHOT_SHA, make_judgement, solved_provenance
from run_folders import MakeRun, deliverable, shot

from realcli.judge.store import write_judgement
from realcli.warehouse import fetch_df, ingest

WITNESS_SHA = "ef" * 32


def _shot_seqs(run_dir: Path) -> list[int]:
    lines = (run_dir / "ledger.jsonl").read_text().splitlines()
    return [e["seq"] for e in map(json.loads, lines) if e["kind"] == "screenshot"]


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    return fetch_df(con, sql).to_dicts()


@pytest.fixture
def weave_runs(make_run: MakeRun) -> dict[str, Path]:
    """honest: three deliverables (a file, a genuine screenshot, an abstained report), an agent
    capture and a witness capture, judged by trajectory and outcome_only; forged: a painted
    screenshot the grader calls forged and trajectory calls unbacked; cli: a LongCLI run."""
    honest = make_run(
        kind="weave",
        mode="hybrid",
        deliverables=(
            deliverable(
                "out/result.json", clauses=(("boards", True, "passed"), ("code", False, "unjudged"))
            ),
            deliverable(
                "evidence/solved.png",
                evidence="genuine",
                clauses=(("solved-screenshot", True, "passed"),),
            ),
            deliverable(
                "report.md", abstained=True, exists=False, clauses=(("summary", True, "failed"),)
            ),
        ),
        screenshots=(
            shot(SHOT_SHA, call_id="g1", n=1),
            shot(WITNESS_SHA, source="witness", call_id="c1-0", n=2),
        ),
    )
    agent_seq, _ = _shot_seqs(honest)
    key = honest.name
    captured = solved_provenance().model_copy(update={"capture_seq": agent_seq})
    write_judgement(honest, make_judgement(key, "trajectory", screenshots=(captured,)))
    write_judgement(honest, make_judgement(key, "outcome_only"))
    forged = make_run(
        kind="weave",
        mode="hybrid",
        seed=2,
        passed=False,
        deliverables=(
            deliverable(
                "evidence/solved.png",
                evidence="forged",
                clauses=(("solved-screenshot", True, "passed"),),
            ),
        ),
        screenshots=(shot("aa" * 32, call_id="g1", n=1),),
    )
    write_judgement(forged, make_judgement(forged.name, "trajectory", hack=True))
    cli = make_run(seed=3)
    return {"honest": honest, "forged": forged, "cli": cli}


def test_deliverables_clauses_screenshots_and_provenance_load_as_golden_rows(
    fresh_db: duckdb.DuckDBPyConnection, weave_runs: dict[str, Path], runs_dir: Path
) -> None:
    stats = ingest(fresh_db, runs_dir)
    assert (stats.loaded, stats.problems) == (3, [])
    honest, forged = weave_runs["honest"].name, weave_runs["forged"].name
    agent_seq, witness_seq = _shot_seqs(weave_runs["honest"])

    assert _rows(
        fresh_db,
        "select * exclude (run_key) from run_deliverables"
        f" where run_key = '{honest}' order by position",
    ) == [
        {
            "deliverable": "out/result.json",
            "position": 0,
            "exists": True,
            "abstained": False,
            "evidence": "none",
            "passed": True,
            "n_clauses": 2,
            "n_critical": 1,
            "n_clauses_passed": 1,
            "n_clauses_failed": 0,
            "n_clauses_unjudged": 1,
            "n_critical_failed": 0,
        },
        {
            "deliverable": "evidence/solved.png",
            "position": 1,
            "exists": True,
            "abstained": False,
            "evidence": "genuine",
            "passed": True,
            "n_clauses": 1,
            "n_critical": 1,
            "n_clauses_passed": 1,
            "n_clauses_failed": 0,
            "n_clauses_unjudged": 0,
            "n_critical_failed": 0,
        },
        {
            "deliverable": "report.md",
            "position": 2,
            "exists": False,
            "abstained": True,
            "evidence": "none",
            "passed": False,
            "n_clauses": 1,
            "n_critical": 1,
            "n_clauses_passed": 0,
            "n_clauses_failed": 1,
            "n_clauses_unjudged": 0,
            "n_critical_failed": 1,
        },
    ]
    assert fresh_db.execute(
        "select deliverable, clause_id, position, critical, test, outcome from run_clauses"
        f" where run_key = '{honest}' order by deliverable, position"
    ).fetchall() == [
        ("evidence/solved.png", "solved-screenshot", 0, True,
         "f2p/test_solved-screenshot.py::test_it", "passed"),
        ("out/result.json", "boards", 0, True, "f2p/test_boards.py::test_it", "passed"),
        ("out/result.json", "code", 1, False, None, "unjudged"),
        ("report.md", "summary", 0, True, "f2p/test_summary.py::test_it", "failed"),
    ]  # fmt: skip
    assert fresh_db.execute(
        "select seq, sha256, width, height, bytes, path, source, call_id from screenshots"
        f" where run_key = '{honest}' order by seq"
    ).fetchall() == [
        (agent_seq, SHOT_SHA, 1024, 768, 4096, "screenshots/0001.png", "gui.screenshot", "g1"),
        (witness_seq, WITNESS_SHA, 1024, 768, 8192, "screenshots/0002.png", "witness", "c1-0"),
    ]
    assert _rows(
        fresh_db,
        "select * exclude (run_key) from screenshot_provenance order by run_key = "
        f"'{forged}', judge",
    ) == [
        {
            "judge": "trajectory",
            "deliverable": "evidence/solved.png",
            "provenance": "captured",
            "sha256": SHOT_SHA,
            "how": "bytes",
            "capture_seq": agent_seq,
            "capture_source": "gui.screenshot",
            "capture_sha256": SHOT_SHA,
            "similarity": 1.0,
            "changed_share": None,
            "phash_distance": None,
            "box": None,
            "writer_seq": None,
            "writer_tool": None,
            "reason": "evidence/solved.png is the gui.screenshot capture at seq 12",
        },
        {
            "judge": "trajectory",
            "deliverable": "evidence/solved.png",
            "provenance": "unbacked",
            "sha256": PAINTED_SHA,
            "how": None,
            "capture_seq": None,
            "capture_source": None,
            "capture_sha256": None,
            "similarity": None,
            "changed_share": None,
            "phash_distance": None,
            "box": None,
            "writer_seq": 7,
            "writer_tool": "shell",
            "reason": "evidence/solved.png (1024x768) matches none of the run's 1 captures; "
            "written by shell at seq 7",
        },
    ]

    # fct_deliverables: every judge of the run x every deliverable; the verdict's columns
    # beside the judge's (NULL where that judge has no artifact check for it)
    got = fresh_db.execute(
        "select run_key = ? as honest, deliverable, judge, task_kind, mode, evidence,"
        " evidence_forged, abstained, passed, is_screenshot, judged, tier, correctness,"
        " critical_failed, unstaged_evidence, provenance, capture_seq, capture_source"
        " from fct_deliverables order by honest desc, position, judge",
        [honest],
    ).fetchall()
    assert got == [
        (True, "out/result.json", "outcome_only", "weave", "hybrid", "none", False, False,
         True, False, True, "T5", 0.9, False, False, None, None, None),
        (True, "out/result.json", "trajectory", "weave", "hybrid", "none", False, False,
         True, False, True, "T5", 0.9, False, False, None, None, None),
        (True, "evidence/solved.png", "outcome_only", "weave", "hybrid", "genuine", False,
         False, True, True, True, "T6", 1.0, False, False, None, None, None),
        (True, "evidence/solved.png", "trajectory", "weave", "hybrid", "genuine", False,
         False, True, True, True, "T6", 1.0, False, False, "captured", agent_seq,
         "gui.screenshot"),
        (True, "report.md", "outcome_only", "weave", "hybrid", "none", False, True, False,
         False, False, None, None, None, None, None, None, None),
        (True, "report.md", "trajectory", "weave", "hybrid", "none", False, True, False,
         False, False, None, None, None, None, None, None, None),
        (False, "evidence/solved.png", "trajectory", "weave", "hybrid", "forged", True, False,
         False, True, True, "T1", 0.0, True, True, "unbacked", None, None),
        # the judgement's out/result.json, which this run's verdict does not list
        (False, "out/result.json", "trajectory", "weave", "hybrid", None, None, None, None,
         False, True, "T5", 0.4, False, False, None, None, None),
    ]  # fmt: skip

    assert fresh_db.execute(
        "select seq, source, is_witness, tool_name, call_seq is not null, backs_deliverables,"
        " backed_for_judges, backing_provenance from fct_screenshots where run_key = ?"
        " order by seq",
        [honest],
    ).fetchall() == [
        (agent_seq, "gui.screenshot", False, None, False, ["evidence/solved.png"],
         ["trajectory"], ["captured"]),
        (witness_seq, "witness", True, "shell", True, [], [], []),
    ]  # fmt: skip

    assert fresh_db.execute(
        "select task_kind, n_deliverables, n_deliverables_passed, n_abstained,"
        " n_evidence_genuine, n_evidence_forged, n_evidence_missing, n_screenshots,"
        " n_witness_screenshots from fct_runs order by seed"
    ).fetchall() == [
        ("weave", 3, 2, 1, 1, 0, 0, 2, 1),
        ("weave", 1, 0, 0, 0, 1, 0, 1, 0),
        ("longcli", 0, 0, 0, 0, 0, 0, 0, 0),
    ]


def test_a_judgement_without_screenshots_still_loads_and_reloads_when_rewritten(
    fresh_db: duckdb.DuckDBPyConnection, weave_runs: dict[str, Path], runs_dir: Path
) -> None:
    """Judgement files written before the field existed load with no provenance rows; the
    folder digest covers them, so a rewrite reloads the run and nothing else."""
    ingest(fresh_db, runs_dir)
    again = ingest(fresh_db, runs_dir)
    assert (again.loaded, again.unchanged) == (0, 3)
    path = weave_runs["honest"] / "judgements" / "trajectory.json"
    doc = json.loads(path.read_text())
    del doc["screenshots"]
    path.write_text(json.dumps(doc))
    stats = ingest(fresh_db, runs_dir)
    assert (stats.loaded, stats.unchanged, stats.problems) == (1, 2, [])
    assert fresh_db.execute(
        "select count(*) from judgements where run_key = ?", [weave_runs["honest"].name]
    ).fetchone() == (2,)
    assert fresh_db.execute("select run_key from screenshot_provenance").fetchall() == [
        (weave_runs["forged"].name,)
    ]
    assert fresh_db.execute(
        "select provenance from fct_deliverables where run_key = ? and judge = 'trajectory'"
        " and deliverable = 'evidence/solved.png'",
        [weave_runs["honest"].name],
    ).fetchall() == [(None,)]


def test_a_damaged_deliverable_costs_only_the_deliverables(
    fresh_db: duckdb.DuckDBPyConnection, weave_runs: dict[str, Path], runs_dir: Path
) -> None:
    """Guards the run's grading against one bad deliverable entry (e.g. an evidence value a
    newer realcli writes): the verdict loads without deliverables, with one problem."""
    path = weave_runs["honest"] / "verdict.json"
    doc = json.loads(path.read_text())
    doc["deliverables"][1]["evidence"] = "witnessed"
    path.write_text(json.dumps(doc))
    stats = ingest(fresh_db, runs_dir)
    assert stats.loaded == 3
    assert stats.problems == [
        f"{path}: deliverables.1.evidence: unreadable deliverable (Input should be 'none',"
        " 'genuine', 'forged' or 'missing'); run loaded without its deliverables (fix: regrade"
        " the run to rewrite verdict.json, or delete it and rerun)"
    ]
    key = weave_runs["honest"].name
    assert fresh_db.execute(
        "select status, complete, n_rounds, n_deliverables from fct_runs where run_key = ?",
        [key],
    ).fetchone() == ("graded", True, 1, 0)
    assert fresh_db.execute(
        "select count(*) from run_deliverables where run_key = ?", [key]
    ).fetchone() == (0,)
    assert fresh_db.execute("select file, location, outcome from ingest_problems").fetchall() == [
        (str(path), "deliverables.1.evidence", "run loaded without its deliverables")
    ]
    # the other runs and this run's judgements are untouched
    assert fresh_db.execute("select count(*) from run_deliverables").fetchone() == (1,)
    assert fresh_db.execute("select count(*) from screenshot_provenance").fetchone() == (2,)


def test_a_damaged_provenance_entry_costs_only_the_provenance(
    fresh_db: duckdb.DuckDBPyConnection, weave_runs: dict[str, Path], runs_dir: Path
) -> None:
    path = weave_runs["honest"] / "judgements" / "trajectory.json"
    doc = json.loads(path.read_text())
    doc["screenshots"][0]["provenance"] = "drawn"
    path.write_text(json.dumps(doc))
    stats = ingest(fresh_db, runs_dir)
    assert stats.loaded == 3
    assert len(stats.problems) == 1
    assert stats.problems[0].startswith(
        f"{path}: screenshots.0.provenance: unreadable screenshot provenance (Input should be"
        " 'captured', 'witnessed', 'derived', 'unbacked', 'missing' or 'bad_image');"
        " judgement loaded without its screenshot provenance (fix: rejudge the run"
        " (`realcli judge RUN_KEY judge=trajectory --force`))"
    )
    key = weave_runs["honest"].name
    assert fresh_db.execute(
        "select judge, status from judgements where run_key = ? order by judge", [key]
    ).fetchall() == [("outcome_only", "judged"), ("trajectory", "judged")]
    assert fresh_db.execute(
        "select count(*) from artifact_checks where run_key = ? and judge = 'trajectory'", [key]
    ).fetchone() == (2,)
    assert fresh_db.execute("select run_key from screenshot_provenance").fetchall() == [
        (weave_runs["forged"].name,)
    ]


def test_a_deliverable_listed_twice_keeps_its_first_entry(
    fresh_db: duckdb.DuckDBPyConnection, make_run: MakeRun, runs_dir: Path
) -> None:
    run_dir = make_run(
        kind="weave",
        deliverables=(
            deliverable("out/a.json"),
            deliverable("out/a.json", exists=False),
            deliverable("out/b.json", clauses=(("x", True, "passed"), ("x", False, "failed"))),
        ),
    )
    stats = ingest(fresh_db, runs_dir)
    verdict = run_dir / "verdict.json"
    assert stats.problems == [
        f"{verdict}: deliverables.1.path: deliverable 'out/a.json' occurs twice; loaded its"
        " first entry (fix: regrade the run to rewrite verdict.json, or delete it and rerun)",
        f"{verdict}: deliverables.2.clauses.1.id: clause 'x' of 'out/b.json' occurs twice;"
        " loaded its first entry (fix: regrade the run to rewrite verdict.json, or delete it"
        " and rerun)",
    ]
    assert fresh_db.execute(
        "select deliverable, exists, n_clauses, n_clauses_failed from run_deliverables"
        " order by position"
    ).fetchall() == [("out/a.json", True, 1, 0), ("out/b.json", True, 1, 0)]
