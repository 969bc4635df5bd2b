"""Test sets that are not the bundle's pytest files: score files (a generic ``score_file`` and
LongCLI-Bench's ``text`` run-tests.sh convention), the repository's own pytest ids with a test
patch (SWE-bench), and ``p2p = false``: graded, scored, health-gated, regraded, and guarded
against a workspace that plants or forges the score.

The three bundles under ``fixtures/`` are small real tasks: ``sf-scorefile`` (a grader that
writes ``{"obtained", "max"}``, initial score 1 of 4, a pytest P2P set), ``sf-text`` (the
release's layout: run-tests.sh, tests/f2p.py and score_utils.py writing f2p_score.json, tests
mounted at /tests, no P2P set) and ``sf-workspace`` (repo-internal ids, its own conftest.py and
pytest.ini, tests/test.patch adding the FAIL_TO_PASS test).
"""

from __future__ import annotations

import json
import shutil
from functools import partial
from pathlib import Path

import duckdb
import pytest

from realcli.catalog import TaskBundle, load_task
from realcli.grading.score import grade_round
from realcli.grading.scoreset import planted_score, score_result
from realcli.grading.sets import active_sets, fixed_expectations, run_set
from realcli.grading.testrun import TestSetRun
from realcli.grading.verdict import build_verdict
from realcli.ledger import read_ledger
from realcli.ledger.layout import LEDGER
from realcli.runner import commands
from realcli.runner import regrade as regrade_cmd
from realcli.runner.execute import execute_run
from realcli.runner.folders import RunOutcome
from realcli.runner.health import TaskHealth, check_task
from realcli.runner.workspace import apply_reference, prepare_workspace, sandbox_options
from realcli.sandbox import make_sandbox
from realcli.schema.task_spec import TestSetSpec
from realcli.schema.verdict import TestOutcome
from tests.conftest import compose_spec

FIXTURES = Path(__file__).with_name("fixtures")
TASK_IDS = ("sf-scorefile", "sf-text", "sf-workspace")
LOCAL = partial(make_sandbox, "local")


# --------------------------------------------------------------------- pure scoring
def _spec(**kw: object) -> TestSetSpec:
    return TestSetSpec.model_validate(
        {"parser": "score_file", "command": "true", "score_file": "s.json", **kw}
    )


def test_score_file_step_is_obtained_over_max_above_the_initial_score() -> None:
    spec = _spec(initial_score=20)
    r = score_result(spec, "f2p", b'{"obtained": 85, "max": 100}', [], 1.0)
    assert r.outcome is TestOutcome.failed and r.score == pytest.approx(65 / 80)
    assert r.nodeid == "f2p::s.json" and "85/100" in r.message
    full = score_result(spec, "f2p", b'{"obtained": 100, "max": 100}', [], 1.0)
    assert full.outcome is TestOutcome.passed and full.score == 1.0
    below = score_result(spec, "f2p", b'{"obtained": 5, "max": 100}', [], 1.0)
    assert below.score == 0.0  # clipped: worse than the initial state
    from_spec = score_result(_spec(max_score=4), "f2p", b'{"obtained": 2}', [], 0.0)
    assert from_spec.score == 0.5
    for bad in (b"{}", b"[1]", b"not json", b'{"obtained": true, "max": 3}'):
        assert score_result(spec, "f2p", bad, [], 0.0).outcome is TestOutcome.error
    assert score_result(spec, "f2p", None, [], 0.0).outcome is TestOutcome.error


def test_text_score_takes_is_pass_and_the_tasks_own_step_score() -> None:
    spec = _spec(parser="text")
    r = score_result(spec, "f2p", b'{"is_pass": 0, "step_score": 0.6}', [], 0.0)
    assert (r.outcome, r.score) == (TestOutcome.failed, 0.6)
    ok = score_result(spec, "p2p", b'{"is_pass": 1, "step_score": 1.0}', [], 0.0)
    assert ok.outcome is TestOutcome.passed and ok.test_set == "p2p"
    bad = score_result(spec, "f2p", b'{"is_pass": 2, "step_score": 1}', [], 0.0)
    assert bad.outcome is TestOutcome.error and "is_pass" in bad.message
    forged = score_result(spec, "f2p", b'{"is_pass": 1, "step_score": 1}', ["planted"], 0.0)
    assert forged.outcome is TestOutcome.error and forged.tampered and forged.score == 0.0


def test_set_spec_rejects_mounts_and_fields_that_do_not_fit() -> None:
    for bad in ("/usr/tests", "/app/tests", "tests", "/run/realcli/x", "/"):
        with pytest.raises(ValueError, match="tests_mount"):
            _spec(tests_mount=bad)
    with pytest.raises(ValueError, match="patch"):
        TestSetSpec(patch="test.patch")
    with pytest.raises(ValueError, match="pytest test sets only"):
        _spec(location="workspace", ids=("a::b",))


def test_no_p2p_set_is_neutral_in_the_round_and_the_verdict() -> None:
    task = load_task(FIXTURES / "sf-text").spec
    result = score_result(task.tests.f2p, "f2p", b'{"is_pass": 1, "step_score": 1}', [], 0.1)
    expected = fixed_expectations(task.tests)
    assert expected == {"f2p": ["f2p::test_output/f2p_score.json"]}
    rnd = grade_round(task, 1, [result], expected)
    assert rnd.passed and rnd.p2p is None and rnd.f2p.step_score == 1.0
    assert rnd.f2p.parser == "text" and rnd.substeps == ()
    missing = grade_round(task, 1, [], expected)  # the score result never came back
    assert not missing.passed and missing.tests[0].outcome is TestOutcome.missing
    verdict = build_verdict(task=task, run_key="k", rounds={1: [result]}, expected=expected)
    assert verdict.passed and verdict.p2p_pass is None and verdict.p2p_step is None


def test_a_planted_score_file_or_a_link_on_its_path_is_found(tmp_path: Path) -> None:
    assert planted_score(tmp_path, "test_output/f2p_score.json") == []
    (tmp_path / "test_output").mkdir()
    assert planted_score(tmp_path, "test_output/f2p_score.json") == []
    (tmp_path / "test_output" / "f2p_score.json").write_text("{}")
    assert "already holds" in planted_score(tmp_path, "test_output/f2p_score.json")[0]
    other = tmp_path / "elsewhere"
    other.mkdir()
    (tmp_path / "out").symlink_to(other)
    assert "symbolic link" in planted_score(tmp_path, "out/f2p_score.json")[0]


# --------------------------------------------------------------------- health gates
@pytest.fixture(scope="module")
def health() -> dict[str, TaskHealth]:
    return {t: check_task(FIXTURES / t, LOCAL) for t in TASK_IDS}


@pytest.mark.sandbox
def test_health_gates_hold_and_record_the_initial_score(health: dict[str, TaskHealth]) -> None:
    for task_id, h in health.items():
        assert h.ok, (task_id, [g for g in h.gates if not g.ok])
    scorefile = {g.name: g for g in health["sf-scorefile"].gates}
    assert health["sf-scorefile"].initial_scores == {"f2p": 1.0}
    assert "score 1/4" in scorefile["f2p on initial"].detail
    assert "score 4/4" in scorefile["f2p on reference"].detail  # the reference reaches max
    assert scorefile["f2p initial score"].ok
    text = health["sf-text"]
    assert any("no P2P set" in w for w in text.warnings) and text.n_p2p == 0
    assert not any(g.name.startswith("p2p") for g in text.gates)
    assert health["sf-workspace"].n_f2p == 1 and health["sf-workspace"].n_p2p == 2


@pytest.mark.sandbox
def test_a_wrong_initial_score_fails_its_gate_with_the_measured_value(tmp_path: Path) -> None:
    root = tmp_path / "sf-scorefile"
    shutil.copytree(FIXTURES / "sf-scorefile", root)
    toml = root / "task.toml"
    toml.write_text(toml.read_text().replace("initial_score = 1\n", ""))
    h = check_task(root, LOCAL)
    gate = next(g for g in h.gates if g.name == "f2p initial score")
    assert not gate.ok and "initial_score = 1" in gate.detail


# --------------------------------------------------------------------- tampering
def _grade(task: TaskBundle, workspace: Path, out: Path, test_set: str = "f2p") -> TestSetRun:
    spec = dict(active_sets(task.spec.tests))[test_set]  # type: ignore[arg-type]
    return run_set(
        spec=spec,
        tests_dir=task.tests_dir,
        test_set=test_set,  # type: ignore[arg-type]
        workspace=workspace,
        out_dir=out,
        round_no=1,
        options=sandbox_options(task, workspace),
        make_sandbox=LOCAL,
        timeout_s=60,
    )


def _workspace(task: TaskBundle, base: Path, reference: bool = False) -> Path:
    ws = base / "ws"
    prepare_workspace(task, ws, LOCAL)
    if reference:
        apply_reference(task, ws, LOCAL)
    return ws


@pytest.mark.sandbox
def test_a_pre_planted_score_file_or_link_is_tampered(tmp_path: Path) -> None:
    task = load_task(FIXTURES / "sf-scorefile")
    ws = _workspace(task, tmp_path / "a")
    (ws / "score.json").write_text('{"obtained": 4, "max": 4}')
    run = _grade(task, ws, tmp_path / "out-a")
    assert run.tampered and "already holds" in run.tampered[0]
    assert run.results[0].outcome is TestOutcome.error and run.results[0].tampered

    text = load_task(FIXTURES / "sf-text")
    ws = _workspace(text, tmp_path / "b")
    target = tmp_path / "agent-made"
    target.mkdir()
    (target / "f2p_score.json").write_text('{"is_pass": 1, "step_score": 1}')
    (ws / "test_output").symlink_to(target)
    run = _grade(text, ws, tmp_path / "out-b")
    assert run.tampered and "symbolic link" in run.tampered[0]
    assert run.results[0].outcome is TestOutcome.error


@pytest.mark.sandbox
def test_code_under_test_that_rewrites_the_score_after_the_parser_is_caught(
    tmp_path: Path,
) -> None:
    """hog.py, imported by the task's grader inside run-tests.sh, leaves a process behind
    that writes over f2p_score.json as soon as tests/f2p.py wrote the real one (until the
    sandbox ends the command): the parser, run again alone over the command's output,
    disagrees."""
    task = load_task(FIXTURES / "sf-text")
    ws = _workspace(task, tmp_path)
    forger = (
        "import os, time\n"
        "if os.fork() == 0:\n"  # detached from the grader's output, so nothing waits for it
        "    null = os.open('/dev/null', os.O_RDWR)\n"
        "    for fd in (0, 1, 2):\n"
        "        os.dup2(null, fd)\n"
        "    path = '/app/test_output/f2p_score.json'\n"
        '    fake = \'{"is_pass": 1, "step_score": 1.0}\'\n'
        "    for _ in range(5000):\n"  # whenever the parser has written, write over it
        "        try:\n"
        "            if open(path).read() != fake:\n"
        "                open(path, 'w').write(fake)\n"
        "        except OSError:\n"
        "            pass\n"
        "        time.sleep(0.001)\n"
        "    os._exit(0)\n"
    )
    hog = ws / "hog" / "hog.py"
    hog.write_text(forger + hog.read_text())
    run = _grade(task, ws, tmp_path / "out")
    assert run.tampered and "parser f2p.py" in run.tampered[0], run.tampered
    assert run.results[0].outcome is TestOutcome.error
    saved = json.loads((tmp_path / "out" / "round-1.f2p.score.json").read_text())
    assert saved == {"is_pass": 1, "step_score": 1.0}  # what was forged is kept as evidence


@pytest.mark.sandbox
def test_a_workspace_conftest_that_rewrites_reports_is_tampered(tmp_path: Path) -> None:
    """The repository's own conftest runs (location=workspace), but through the guard: a
    hook that turns failures into passes is a finding, never a pass."""
    task = load_task(FIXTURES / "sf-workspace")
    ws = _workspace(task, tmp_path)
    (ws / "conftest.py").write_text(
        (ws / "conftest.py").read_text() + "\n\n@pytest.hookimpl(hookwrapper=True)\n"
        "def pytest_runtest_makereport(item, call):\n"
        "    outcome = yield\n"
        "    report = outcome.get_result()\n"
        "    report.outcome = 'passed'\n"
    )
    run = _grade(task, ws, tmp_path / "out")
    assert run.tampered
    assert all(r.outcome is TestOutcome.error for r in run.results)


@pytest.mark.sandbox
def test_the_test_patch_is_applied_and_a_changed_test_file_fails_it(tmp_path: Path) -> None:
    task = load_task(FIXTURES / "sf-workspace")
    ws = _workspace(task, tmp_path / "ok", reference=True)
    run = _grade(task, ws, tmp_path / "out-ok")
    assert [(r.nodeid, r.outcome) for r in run.results] == [
        ("tests/test_clamp.py::test_reversed_bounds", TestOutcome.passed)
    ]
    ws = _workspace(task, tmp_path / "changed", reference=True)
    (ws / "tests" / "test_clamp.py").write_text("def test_inside():\n    pass\n")
    run = _grade(task, ws, tmp_path / "out-changed")
    assert not run.tampered and run.exit_code == 97
    rnd = grade_round(task.spec, 1, list(run.results), fixed_expectations(task.spec.tests))
    f2p = [t for t in rnd.tests if t.test_set == "f2p"]
    assert [t.outcome for t in f2p] == [TestOutcome.missing] and not rnd.passed


# --------------------------------------------------------------------- real runs
@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, RunOutcome]]:
    """One replay run per fixture task and a self-correcting noop run of the text task."""
    base = tmp_path_factory.mktemp("score-sets")
    runs_dir = base / "runs"

    def run(task_id: str, *overrides: str) -> RunOutcome:
        spec = compose_spec(
            base,
            [f"task={task_id}", f"paths.tasks_dir={FIXTURES}", f"paths.runs_dir={runs_dir}",
             "progress.snapshots=false", *overrides],
        )  # fmt: skip
        outcome = execute_run(spec, load_task(FIXTURES / task_id))
        assert outcome.state == "finished" and outcome.verdict is not None, outcome
        return outcome

    out = {t: run(t, "model=replay") for t in TASK_IDS}
    out["noop-text"] = run("sf-text", "model=noop", "protocol=self_correct", "protocol.rounds=2")
    return runs_dir, out


@pytest.mark.sandbox
def test_replay_passes_and_noop_does_not(runs: tuple[Path, dict[str, RunOutcome]]) -> None:
    _, out = runs
    for task_id in TASK_IDS:
        v = out[task_id].verdict
        assert v is not None and v.passed and v.f2p_pass and v.f2p_step == 1.0, (task_id, v)
    assert out["sf-text"].verdict and out["sf-text"].verdict.p2p_pass is None
    assert out["sf-scorefile"].verdict and out["sf-scorefile"].verdict.p2p_step == 1.0
    noop = out["noop-text"].verdict
    assert noop is not None and not noop.passed and noop.f2p_step == 0.0
    assert len(noop.rounds) == 2 and all(r.p2p is None for r in noop.rounds)
    run_dir = out["sf-scorefile"].run_dir
    assert (run_dir / "tests" / "round-1.f2p.score.json").is_file()
    log = (run_dir / "tests" / "round-1.f2p.log").read_text()
    assert "score 4/4" in log and "$ sh -c" in log
    grading = [e for e in read_ledger(run_dir / LEDGER).events if e.kind == "grading"]
    assert [(e.test_set, e.passed) for e in grading] == [("f2p", 1), ("p2p", 2)]


@pytest.mark.sandbox
def test_feedback_gives_the_grading_output_never_the_parser(
    runs: tuple[Path, dict[str, RunOutcome]],
) -> None:
    _, out = runs
    events = read_ledger(out["noop-text"].run_dir / LEDGER).events
    feedback = [e.text for e in events if e.kind == "intervention" and e.type == "feedback"]
    assert len(feedback) == 1
    text = feedback[0]
    assert "Output of the F2P grading command" in text and "Total: 0.0" in text
    assert "the task has no regression tests" in text
    parser = (FIXTURES / "sf-text" / "tests" / "f2p.py").read_text()
    assert "write_score_auto" not in text and parser[:200] not in text


@pytest.mark.sandbox
def test_regrade_reproduces_every_verdict_from_saved_output(
    runs: tuple[Path, dict[str, RunOutcome]], capsys: pytest.CaptureFixture[str]
) -> None:
    runs_dir, out = runs
    for name, outcome in out.items():
        old = outcome.verdict
        assert old is not None
        new = regrade_cmd._regraded(outcome.run_dir, old)
        assert new.model_dump(exclude={"graded_at"}) == old.model_dump(exclude={"graded_at"}), name
    # a tampered score file on disk is seen again by regrade: the saved record is checked
    meta = out["sf-scorefile"].run_dir / "tests" / "round-1.f2p.scoreset.json"
    (out["sf-scorefile"].run_dir / "tests" / "round-1.f2p.score.json").unlink()
    old = out["sf-scorefile"].verdict
    assert old is not None and json.loads(meta.read_text())["score_written"]
    regraded = regrade_cmd._regraded(out["sf-scorefile"].run_dir, old)
    assert not regraded.passed and regraded.tampered
    assert commands.show(runs_dir, out["noop-text"].run_dir.name) == 0
    assert "P2P none (the task has no P2P set)" in capsys.readouterr().out


@pytest.mark.sandbox
def test_ingest_keeps_a_missing_p2p_set_null_not_failed(
    runs: tuple[Path, dict[str, RunOutcome]], tmp_path: Path
) -> None:
    runs_dir, out = runs
    warehouse = tmp_path / "w.duckdb"
    assert commands.ingest(runs_dir, warehouse) == 0
    con = duckdb.connect(str(warehouse), read_only=True)
    key = out["sf-text"].verdict.run_key if out["sf-text"].verdict else ""
    row = con.execute("select p2p_pass, p2p_step from stg_runs where run_key = ?", [key]).fetchone()
    assert row == (None, None)
    rounds = con.execute(
        "select p2p_total, p2p_pass from rounds where run_key = ?", [key]
    ).fetchall()
    assert rounds == [(None, None)]
    other = out["sf-scorefile"].verdict.run_key if out["sf-scorefile"].verdict else ""
    passed = con.execute("select p2p_pass from stg_runs where run_key = ?", [other]).fetchone()
    assert passed == (True,)
