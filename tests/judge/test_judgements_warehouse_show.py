"""A real judged run folder (the session's replay of weave-gam-lightsout, judged by ``tests`` at
run time) in the warehouse and in ``realcli show``: two more judgements written by the judge
store load beside it, the ablation view compares them, re-ingest is a no-op and ``show`` prints
all three after the verdict. The real trajectory judge's screenshot provenance, the verdict's
deliverables and the run's captures load as migration 009's rows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.judge.base import judge_key
from realcli.judge.store import judge_folder, read_judgement, write_judgement
from realcli.ledger import read_ledger
from realcli.runner.commands import show
from realcli.schema.events import ScreenshotEvent
from realcli.schema.run_spec import JudgeSpec
from realcli.schema.verdict import Verdict
from realcli.warehouse import connect, ingest
from tests.conftest import LIGHTSOUT, TASKS
from tests.warehouse.judgement_records import make_judgement


@pytest.fixture
def judged_copy(lightsout_replay: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "runs" / "default" / lightsout_replay.name
    shutil.copytree(lightsout_replay, dest, symlinks=True)
    assert (dest / "judgements" / "tests.json").is_file()  # `realcli run … judge=tests`
    write_judgement(dest, make_judgement(dest.name, "outcome_only", task_id=LIGHTSOUT))
    write_judgement(dest, make_judgement(dest.name, "trajectory", task_id=LIGHTSOUT, hack=True))
    return dest


def test_a_real_run_with_three_judgements_ingests_and_shows(
    judged_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = judged_copy.parents[1]
    con = connect(tmp_path / "w.duckdb")
    try:
        stats = ingest(con, runs)
        assert (stats.loaded, stats.problems) == (1, [])
        rows = con.execute(
            "select judge, status, passed, task_id, task_kind, task_domain, mode, tests_passed"
            " from fct_judgements order by judge"
        ).fetchall()
        assert rows == [
            ("outcome_only", "judged", True, LIGHTSOUT, "weave", "GAM", "hybrid", True),
            ("tests", "judged", True, LIGHTSOUT, "weave", "GAM", "hybrid", True),
            ("trajectory", "judged", False, LIGHTSOUT, "weave", "GAM", "hybrid", True),
        ]
        # the tests judge: every clause of the task, each F2P-test clause satisfied with its
        # test as evidence (the others, decided by other checkers, are unjudged here)
        clauses = [c for d in load_task(TASKS / LIGHTSOUT).spec.deliverables for c in d.clauses]
        assert con.execute(
            "select count(*), count(*) filter (where status = 'satisfied' and checker = 'test')"
            " from clause_results where judge = 'tests'"
        ).fetchone() == (len(clauses), sum(c.test is not None for c in clauses))
        assert con.execute(
            "select inflation_pp from fct_judge_ablation"
            " where judge_a = 'outcome_only' and judge_b = 'trajectory'"
        ).fetchall() == [(100.0,)]
        again = ingest(con, runs)
        assert (again.loaded, again.unchanged) == (0, 1)
    finally:
        con.close()

    assert show(runs, judged_copy.name[:6]) == 0
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if line.startswith("  judgement  ")]
    assert [h.split()[1] for h in heads] == ["outcome_only", "tests", "trajectory"]
    assert out.index("  verdict    graded") < out.index(heads[0])
    assert "      satisfied boards" in out and "evidence test " in out
    assert "    flags      1: is_hack (fake_screenshot, confidence 0.95)" in out


def _tier(run_dir: Path, judge: str, deliverable: str) -> str:
    j = read_judgement(run_dir / "judgements" / f"{judge}.json")
    (tier,) = [c.tier for c in j.artifact_checks if c.id == deliverable]
    return tier


def test_a_real_trajectory_judgement_loads_deliverables_captures_and_provenance(
    lightsout_replay: Path, tmp_path: Path
) -> None:
    run_dir = tmp_path / "runs" / "default" / lightsout_replay.name
    shutil.copytree(lightsout_replay, run_dir, symlinks=True)
    spec = JudgeSpec(name="trajectory", kind="trajectory")
    out = judge_folder(run_dir, spec, TASKS)
    assert out.status == "judged" and out.judgement is not None, out.error
    judgement = out.judgement
    (check,) = judgement.screenshots  # the task's one screenshot deliverable
    assert (check.deliverable, check.provenance) == ("evidence/solved.png", "captured")
    assert check.capture_seq is not None and check.capture_source == "gui.screenshot"

    # the same judge over the same inputs is skipped; a record from before the field existed
    # (version 1, no screenshots) still reads, and the new version judges the run again
    assert judge_folder(run_dir, spec, TASKS).status == "skipped"
    path = run_dir / "judgements" / "trajectory.json"
    old = json.loads(path.read_text())
    del old["screenshots"]
    old |= {"judge_version": "1", "judge_key": judge_key(spec, "trajectory", "1")}
    path.write_text(json.dumps(old))
    assert read_judgement(path).screenshots == ()
    again = judge_folder(run_dir, spec, TASKS)
    assert again.status == "judged" and again.judgement == judgement

    con = connect(tmp_path / "w.duckdb")
    try:
        stats = ingest(con, run_dir.parents[1])
        assert (stats.loaded, stats.problems) == (1, [])
        verdict = Verdict.model_validate_json((run_dir / "verdict.json").read_text())
        assert con.execute(
            "select deliverable, exists, abstained, evidence, passed, n_clauses"
            " from run_deliverables order by position"
        ).fetchall() == [
            (d.path, d.exists, d.abstained, d.evidence, d.passed, len(d.clauses))
            for d in verdict.deliverables
        ]
        assert con.execute("select count(*) from run_clauses").fetchone() == (
            sum(len(d.clauses) for d in verdict.deliverables),
        )
        shots = [
            e
            for e in read_ledger(run_dir / "ledger.jsonl").events
            if isinstance(e, ScreenshotEvent)
        ]
        assert shots and con.execute(
            "select seq, sha256, source from screenshots order by seq"
        ).fetchall() == [(e.seq, e.sha256, e.source) for e in shots]
        assert con.execute(
            "select judge, deliverable, provenance, capture_seq, sha256 from screenshot_provenance"
        ).fetchall() == [
            ("trajectory", check.deliverable, "captured", check.capture_seq, check.sha256)
        ]
        assert con.execute(
            "select judge, evidence, is_screenshot, provenance, tier from fct_deliverables"
            " where deliverable = 'evidence/solved.png' order by judge"
        ).fetchall() == [
            ("tests", "genuine", True, None, _tier(run_dir, "tests", check.deliverable)),
            (
                "trajectory",
                "genuine",
                True,
                "captured",
                _tier(run_dir, "trajectory", check.deliverable),
            ),
        ]
        assert con.execute(
            "select n_deliverables, n_evidence_genuine, n_evidence_forged, n_screenshots"
            " from fct_runs"
        ).fetchone() == (len(verdict.deliverables), 1, 0, len(shots))
        assert con.execute(
            "select backs_deliverables from fct_screenshots where seq = ?", [check.capture_seq]
        ).fetchone() == (["evidence/solved.png"],)
    finally:
        con.close()
