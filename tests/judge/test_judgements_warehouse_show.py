"""A real judged run folder (the session's replay of weave-gam-lightsout, judged by ``tests`` at
run time) in the warehouse and in ``realcli show``: two more judgements written by the judge
store load beside it, the ablation view compares them, re-ingest is a no-op and ``show`` prints
all three after the verdict."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.judge.store import write_judgement
from realcli.runner.commands import show
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
