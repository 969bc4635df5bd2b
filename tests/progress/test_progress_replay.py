"""Progress replay on a real task: its reference applied action by action with a snapshot
after each, planted regressions after it, real sandboxes and pytest on each evaluated snapshot.

One history ``L`` of ``smoke-bugfix-intervals`` (whose trajectory tags each sub-step's edits,
and whose sub-steps each complete at their last tagged edit) is played once and replayed
exhaustively once (the ground truth); the scenarios are prefixes of it:

- scenario 1: the reference, then an edit that undoes s1's last edit (regression), a note;
- scenario 2: scenario 1, notes, the s1 edit redone (restoration), notes;
- the whole of ``L``: scenario 2, notes, a one-snapshot blip of s2 (undone, redone), notes.

The note counts are chosen so that at grid 3 a grid point lies inside scenario 2's regression
window (asserted) and at grid 0 bisection never reaches the blip. (``smoke-feature-todo`` does
not fit the "last tagged edit" rule: every F2P file there also tests the CLI, written by an
untagged action, so all its sub-steps first pass at that action.)
"""

from __future__ import annotations

import json
import shutil
from functools import partial
from pathlib import Path

import pytest
from progress_scenario import Played, last_tagged_step, padding, play, redo, undo

from realcli import __version__
from realcli.catalog import TaskBundle, load_task
from realcli.ledger import LedgerWriter
from realcli.ledger.layout import EXPECTED, LEDGER, PROGRESS, SNAPSHOTS_GIT, VERDICT
from realcli.progress import grid_indices, progress_for_run, replay_progress
from realcli.runner.inventory import expected_tests
from realcli.runner.workspace import sandbox_options
from realcli.sandbox import make_sandbox
from realcli.schema.events import HeaderEvent
from realcli.schema.progress import GoalProgress, ProgressReport, SnapshotOutcome
from realcli.schema.verdict import Verdict, VerdictStatus
from realcli.util.redact import Redactor
from tests.conftest import TASKS, run_realcli

pytestmark = pytest.mark.sandbox

TASK_ID = "smoke-bugfix-intervals"
MAKE_SANDBOX = partial(make_sandbox, "local")
NOTES_BEFORE_RESTORE = 2
NOTES_AFTER_RESTORE = 2
NOTES_BEFORE_BLIP = 1
NOTES_AFTER_BLIP = 3


class History:
    def __init__(self, task: TaskBundle, played: Played, expected: dict[str, list[str]]) -> None:
        self.task, self.played, self.expected = task, played, expected
        self.tmp = played.workspace.parent
        # every replay below evaluates a subset of the same snapshots: each snapshot's tests
        # run once (the exhaustive ground truth, first), bisection picks among them
        self.memo: dict[str, SnapshotOutcome] = {}

    def replay(self, end_label: str | None, **kw: object) -> ProgressReport:
        end = self.played.labels[end_label] if end_label else 10**9
        out = self.tmp / f"progress-{end_label}-{kw}"
        return replay_progress(
            run_key="test",
            task=self.task,
            snapshots=self.played.upto(end),
            git_dir=self.played.git_dir,
            expected=self.expected,
            make_sandbox=MAKE_SANDBOX,
            options_for=lambda ws: sandbox_options(self.task, ws),
            out_dir=out,
            memo=self.memo,
            **kw,  # type: ignore[arg-type]
        )


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> History:
    task = load_task(TASKS / TASK_ID)
    reference = task.reference_actions()
    last = last_tagged_step(reference)
    s1_edit, s2_edit = reference[last["s1"] - 1], reference[last["s2"] - 1]
    notes = iter(range(1, 100))
    actions: list[tuple[str | None, object]] = [(None, a) for a in reference]
    actions += [("regression", undo(s1_edit, "planted: s1's last edit undone"))]
    actions += [("scenario1", padding(next(notes)))]
    actions += [(None, padding(next(notes))) for _ in range(NOTES_BEFORE_RESTORE - 1)]
    actions += [("restoration", redo(s1_edit, "planted: s1's last edit redone"))]
    actions += [(None, padding(next(notes))) for _ in range(NOTES_AFTER_RESTORE - 1)]
    actions += [("scenario2", padding(next(notes)))]
    actions += [(None, padding(next(notes))) for _ in range(NOTES_BEFORE_BLIP)]
    actions += [("blip", undo(s2_edit, "planted: s2 broken for one tool call"))]
    actions += [("blip_end", redo(s2_edit, "planted: s2 fixed again"))]
    actions += [(None, padding(next(notes))) for _ in range(NOTES_AFTER_BLIP)]
    tmp = tmp_path_factory.mktemp("progress-history")
    played = play(task, actions, tmp, MAKE_SANDBOX)  # type: ignore[arg-type]
    expected = expected_tests(task, MAKE_SANDBOX, cache_dir / "inventory")
    return History(task, played, expected)


@pytest.fixture(scope="module")
def truth(history: History) -> ProgressReport:
    """Every snapshot of the whole history evaluated."""
    return history.replay(None, exhaustive=True)


def _upto(goal: GoalProgress, step: int) -> dict[str, object]:
    """What an exhaustive replay of the history cut at ``step`` says about ``goal``."""
    transitions = tuple((s, holds) for s, holds in goal.transitions if s <= step)
    passes = tuple(s for s, holds in transitions if holds)
    return {
        "initial": goal.initial,
        "first_pass_step": 0 if goal.initial else (passes[0] if passes else None),
        "broke_at": tuple(s for s, holds in transitions if not holds),
        "restored_at": passes if goal.initial else passes[1:],
        "final": transitions[-1][1] if transitions else goal.initial,
        "transitions": transitions,
    }


def _summary(goal: GoalProgress) -> dict[str, object]:
    keys = ("initial", "first_pass_step", "broke_at", "restored_at", "final", "transitions")
    return {k: getattr(goal, k) for k in keys}


def _goal(report: ProgressReport, goal: str) -> GoalProgress:
    return next(g for g in report.goals if g.goal == goal)


def test_exhaustive_first_passes_are_the_last_tagged_steps_in_reference_order(
    history: History, truth: ProgressReport
) -> None:
    tagged = last_tagged_step(history.task.reference_actions())  # independent of the replay
    substeps = [g for g in truth.goals if g.kind == "substep"]
    assert {g.goal: g.first_pass_step for g in substeps} == tagged
    by_order = sorted(substeps, key=lambda g: g.reference_order or 0)
    firsts = [g.first_pass_step or 0 for g in by_order]
    assert firsts == sorted(firsts) and [g.goal for g in by_order] == ["s1", "s2", "s3", "s4"]
    assert all(not g.initial for g in substeps)
    p2p = [g for g in truth.goals if g.kind == "p2p"]
    assert len(p2p) == len(history.expected["p2p"]) and all(g.initial and g.final for g in p2p)
    assert len(truth.evaluations) == len(history.played.snapshots) == truth.n_snapshots
    assert truth.method == "exhaustive" and "Every snapshot evaluated" in truth.resolution_note
    labels = history.played.labels
    s1, s2 = _goal(truth, "s1"), _goal(truth, "s2")
    assert s1.broke_at == (labels["regression"],) and s1.restored_at == (labels["restoration"],)
    assert s2.broke_at == (labels["blip"],) and s2.restored_at == (labels["blip_end"],)
    out = history.tmp / "progress-None-{'exhaustive': True}"
    assert (out / "step-0.f2p.xml").is_file()
    log = (out / "step-0.p2p.log").read_text()
    assert log.startswith(">>>>> realcli test set p2p step 0 start")


@pytest.mark.parametrize(("scenario", "grid"), [("scenario1", 2), ("scenario2", 3)])
def test_bisection_agrees_with_exhaustive_and_sees_the_regression(
    history: History, truth: ProgressReport, scenario: str, grid: int
) -> None:
    labels = history.played.labels
    end = labels[scenario]
    snapshots = history.played.upto(end)
    if scenario == "scenario2":  # by design a grid point lies inside the regression window
        window = [i for i, s in enumerate(snapshots)
                  if labels["regression"] <= s.step < labels["restoration"]]  # fmt: skip
        assert set(window) & set(grid_indices(len(snapshots), grid))
    report = history.replay(scenario, grid=grid)
    assert report.method == "bisection" and report.n_snapshots == len(snapshots)
    assert len(report.evaluations) < len(snapshots)  # cheaper than exhaustive
    assert set(report.evaluations) <= set(truth.evaluations)  # each snapshot's tests ran once
    for goal in report.goals:
        assert _summary(goal) == _upto(_goal(truth, goal.goal), end), goal.goal
    tagged = last_tagged_step(history.task.reference_actions())
    assert {g: _goal(report, g).first_pass_step for g in tagged} == tagged
    s1 = _goal(report, "s1")
    assert s1.broke_at == (labels["regression"],)
    if scenario == "scenario1":
        assert s1.restored_at == () and not s1.final
    else:
        assert s1.restored_at == (labels["restoration"],) and s1.final


def test_a_blip_between_agreeing_evaluations_is_missed_at_grid_0(
    history: History, truth: ProgressReport
) -> None:
    labels = history.played.labels
    report = history.replay(None, grid=0)
    evaluated = {e.step for e in report.evaluations}
    assert labels["blip"] not in evaluated
    s2 = _goal(report, "s2")
    assert s2.broke_at == () and s2.restored_at == () and s2.final
    assert _goal(truth, "s2").broke_at == (labels["blip"],)  # exhaustive sees it
    assert "not seen" in report.resolution_note
    assert len(report.evaluations) < truth.n_snapshots


def test_progress_for_run_and_the_cli(
    history: History, tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    """A run folder as the runner leaves it (ledger with snapshot events, expected tests,
    snapshots.git, verdict): ``progress_for_run`` and ``realcli progress`` write
    progress.json."""
    task = history.task
    run_dir = tmp_path / "runs" / "exp" / "0123456789abcdef"
    (run_dir / "tests").mkdir(parents=True)
    shutil.copytree(history.played.git_dir, run_dir / SNAPSHOTS_GIT)
    (run_dir / "tests" / EXPECTED).write_text(json.dumps(history.expected))
    header = HeaderEvent(
        seq=0,
        realcli_version=__version__,
        git_sha=None,
        run_key=run_dir.name,
        experiment="exp",
        task_id=task.id,
        task_digest=task.digest,
        spec={},
        host={},
    )
    wanted = {0, history.played.labels["scenario1"]}
    with LedgerWriter.create(run_dir / LEDGER, header, Redactor()) as ledger:
        for event in history.played.snapshots:
            if event.step in wanted:  # a short run: two snapshots
                ledger.emit(event)
    report = progress_for_run(run_dir, task, MAKE_SANDBOX, grid=8)
    saved = ProgressReport.model_validate_json((run_dir / PROGRESS).read_text())
    assert saved == report and report.run_key == run_dir.name and report.n_snapshots == 2
    assert not _goal(report, "s1").final and _goal(report, "s2").first_pass_step == max(wanted)
    assert (run_dir / "progress" / f"step-{max(wanted)}.f2p.xml").is_file()

    env = realcli_env
    proc = run_realcli(["progress", "--runs-dir", str(tmp_path / "runs")], env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "skip" in proc.stdout and "not finished" in proc.stdout  # no verdict yet
    verdict = Verdict(
        run_key=run_dir.name, task_id=task.id, status=VerdictStatus.graded, graded_at=header.ts
    )
    (run_dir / VERDICT).write_text(verdict.model_dump_json())
    (run_dir / PROGRESS).unlink()
    proc = run_realcli(
        ["progress", run_dir.name[:6], "--runs-dir", str(tmp_path / "runs"), "--exhaustive"],
        env,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert (run_dir / PROGRESS).is_file()
    lines = proc.stdout.splitlines()
    assert any(line.split()[:2] == ["s2", str(max(wanted))] for line in lines), proc.stdout
    assert any(line.split()[:1] == ["s1"] and line.split()[-1] == "no" for line in lines)
