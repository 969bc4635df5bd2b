"""Progress over time: re-run a task's tests on chosen snapshots of a run's workspace.

Goals are the task's sub-steps (scored by :func:`realcli.grading.score.grade_round`) and its
P2P tests. A snapshot is evaluated exactly as a round is graded: restored into a temporary
folder, then :func:`realcli.grading.testrun.run_test_set` for ``f2p`` and ``p2p`` (a fresh
copy and sandbox each), the results checked against the run's expected-test inventory.

Which snapshots (:func:`choose_snapshots`): the first, the last and ``grid`` evenly spaced
ones in between; then, while two adjacent evaluated snapshots disagree on any goal and are not
neighbours, their midpoint. Every change of every goal between evaluated snapshots is thereby
found at the exact snapshot where it happened; a goal that changes and changes back between
two evaluated snapshots that agree is not seen. ``exhaustive`` evaluates every snapshot.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Literal

from realcli.catalog import TaskBundle
from realcli.grading.score import grade_round
from realcli.grading.sets import active_sets, run_set
from realcli.grading.testrun import TestSetRun
from realcli.progress.snapshots import restore_snapshot
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.events import SnapshotEvent
from realcli.schema.progress import GoalProgress, ProgressReport, SnapshotOutcome
from realcli.schema.verdict import TestOutcome, TestResult
from realcli.util.errors import RealcliError
from realcli.util.redact import Redactor

__all__ = ["choose_snapshots", "grid_indices", "replay_progress"]

Outcomes = Mapping[int, frozenset[str]]


def grid_indices(n: int, grid: int) -> list[int]:
    """The first and last of ``n`` snapshots and ``grid`` evenly spaced ones in between."""
    if n <= 0:
        return []
    points = {0, n - 1}
    points.update(round(i * (n - 1) / (grid + 1)) for i in range(1, grid + 1))
    return sorted(points)


def choose_snapshots(
    n: int, grid: int, outcome_of: Callable[[int], frozenset[str]], *, exhaustive: bool = False
) -> dict[int, frozenset[str]]:
    """Evaluate snapshots ``0..n-1`` by bisection (or all of them); snapshot index -> the
    goals that held there. Midpoints are taken in passes, left to right."""
    outcomes: dict[int, frozenset[str]] = {}
    pending = list(range(n)) if exhaustive else grid_indices(n, grid)
    while pending:
        for index in pending:
            outcomes[index] = outcome_of(index)
        done = sorted(outcomes)
        pending = [
            (a + b) // 2 for a, b in pairwise(done) if b - a > 1 and outcomes[a] != outcomes[b]
        ]
    return outcomes


def _goals(
    task: TaskBundle, expected: Mapping[str, Sequence[str]], seen: Sequence[str]
) -> list[tuple[str, Literal["substep", "p2p"]]]:
    goals: list[tuple[str, Literal["substep", "p2p"]]] = [
        (s.id, "substep") for s in task.spec.substeps
    ]
    p2p = list(dict.fromkeys([*expected.get("p2p", []), *seen]))
    return goals + [(nodeid, "p2p") for nodeid in p2p]


def _goal_progress(
    goal: str,
    kind: Literal["substep", "p2p"],
    task: TaskBundle,
    steps: Sequence[int],
    outcomes: Outcomes,
) -> GoalProgress:
    order = {s.id: i for i, s in enumerate(task.spec.substeps, start=1)}
    deps = {s.id: tuple(s.depends_on) for s in task.spec.substeps}
    first_pass: int | None = None
    broke: list[int] = []
    restored: list[int] = []
    transitions: list[tuple[int, bool]] = []
    held: bool | None = None
    for index in sorted(outcomes):
        holds, step = goal in outcomes[index], steps[index]
        if held is not None and holds != held:
            transitions.append((step, holds))
            if not holds:
                broke.append(step)
            elif first_pass is not None:
                restored.append(step)
        if holds and first_pass is None:
            first_pass = step
        held = holds
    first = outcomes[min(outcomes)]
    return GoalProgress(
        goal=goal,
        kind=kind,
        reference_order=order.get(goal) if kind == "substep" else None,
        depends_on=deps.get(goal, ()) if kind == "substep" else (),
        initial=goal in first,
        first_pass_step=first_pass,
        broke_at=tuple(broke),
        restored_at=tuple(restored),
        final=bool(held),
        transitions=tuple(transitions),
    )


def _resolution_note(steps: Sequence[int], outcomes: Outcomes, exhaustive: bool) -> str:
    limits = (
        "Snapshots are taken after tool calls that change files, so a change and its undo "
        "inside one tool call is never seen; tests are assumed deterministic (a flaky test "
        "shows as a break and a restoration)."
    )
    if exhaustive or len(outcomes) == len(steps):
        return f"Every snapshot evaluated: changes are exact at snapshot resolution. {limits}"
    done = sorted(outcomes)
    gaps = [
        (b - a - 1, a, b) for a, b in pairwise(done) if b - a > 1 and outcomes[a] == outcomes[b]
    ]
    widest = max(gaps, default=(0, 0, 0))
    return (
        f"Bisection: {len(done)} of {len(steps)} snapshots evaluated. Every change between "
        "evaluated snapshots is placed exactly; a goal that changes and changes back entirely "
        "between two adjacent evaluated snapshots whose outcomes agree is not seen (widest such "
        f"gap: {widest[0]} unevaluated snapshots, between steps {steps[widest[1]]} and "
        f"{steps[widest[2]]}); `--exhaustive` evaluates every snapshot. {limits}"
    )


def _keep_logs(run: TestSetRun, out_dir: Path, step: int) -> None:
    """``round-<step>.<set>.*`` as written by run_test_set -> ``step-<step>.<set>.*``, the
    log's marker lines saying ``step`` where they said ``round``."""
    stem = f"step-{step}.{run.test_set}"
    if run.xml_path.is_file():
        run.xml_path.replace(out_dir / f"{stem}.xml")
    log = run.log_path.read_text(encoding="utf-8")
    marker = f"realcli test set {run.test_set} round {step} "
    (out_dir / f"{stem}.log").write_text(
        log.replace(marker, f"realcli test set {run.test_set} step {step} "), encoding="utf-8"
    )
    run.log_path.unlink()


def replay_progress(
    *,
    run_key: str,
    task: TaskBundle,
    snapshots: Sequence[SnapshotEvent],
    git_dir: Path,
    expected: dict[str, list[str]],
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    options_for: Callable[[Path], SandboxOptions],
    grid: int = 8,
    exhaustive: bool = False,
    out_dir: Path,
    redactor: Redactor | None = None,
    memo: dict[str, SnapshotOutcome] | None = None,
) -> ProgressReport:
    """When each goal first held, broke and held again over the run's ``snapshots``; test
    logs go to ``out_dir/step-<N>.<set>.{xml,log}``. See the module docstring.

    ``memo``: evaluations by snapshot commit, consulted before a snapshot's tests are run and
    filled with every new evaluation, so a caller that replays the same snapshots of one task
    several times (several grids, several cut-off points) runs each snapshot's tests once. A
    reused evaluation writes no test logs here (they are where it was first made)."""
    if not snapshots:
        raise RealcliError(
            str(git_dir), None, "no snapshots to replay", "run with progress snapshots enabled"
        )
    if grid < 0:
        raise RealcliError("progress", "grid", f"{grid} is negative", "use 0 or more")
    snaps = sorted(snapshots, key=lambda s: (s.step, s.seq))
    steps = [s.step for s in snaps]
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in [*out_dir.glob("step-*.xml"), *out_dir.glob("step-*.log")]:
        stale.unlink()
    started = time.monotonic()
    evaluations: dict[int, SnapshotOutcome] = {}
    p2p_seen: dict[str, None] = {}
    substep_ids = {s.id for s in task.spec.substeps}

    def outcome_of(index: int) -> frozenset[str]:
        snap, began = snaps[index], time.monotonic()
        if memo is not None and (known := memo.get(snap.commit)) is not None:
            evaluations[index] = known
            for goal in known.passed:
                if goal not in substep_ids:
                    p2p_seen.setdefault(goal)
            return frozenset(known.passed)
        results: list[TestResult] = []
        with tempfile.TemporaryDirectory(prefix="realcli-progress-") as tmp:
            workspace = Path(tmp) / "ws"
            restore_snapshot(git_dir, snap.commit, workspace)
            for test_set, set_spec in active_sets(task.spec.tests):
                run = run_set(
                    spec=set_spec,
                    tests_dir=task.tests_dir,
                    test_set=test_set,
                    workspace=workspace,
                    out_dir=out_dir,
                    round_no=snap.step,
                    options=options_for(workspace),
                    make_sandbox=make_sandbox,
                    timeout_s=task.spec.timeouts.tests_s,
                    redactor=redactor,
                )
                _keep_logs(run, out_dir, snap.step)
                results.extend(run.results)
        verdict = grade_round(task.spec, 1, results, expected)
        passed = {s.id for s in verdict.substeps if s.passed}
        for t in verdict.tests:
            if t.test_set == "p2p":
                p2p_seen.setdefault(t.nodeid)
                if t.outcome is TestOutcome.passed:
                    passed.add(t.nodeid)
        evaluations[index] = SnapshotOutcome(
            step=snap.step,
            round=snap.round,
            commit=snap.commit,
            passed=tuple(sorted(passed)),
            f2p_step=verdict.f2p.step_score,
            p2p_step=verdict.p2p.step_score if verdict.p2p is not None else 1.0,
            seconds=time.monotonic() - began,
        )
        if memo is not None:
            memo[snap.commit] = evaluations[index]
        return frozenset(passed)

    outcomes = choose_snapshots(len(snaps), grid, outcome_of, exhaustive=exhaustive)
    goals = [
        _goal_progress(goal, kind, task, steps, outcomes)
        for goal, kind in _goals(task, expected, list(p2p_seen))
    ]
    return ProgressReport(
        run_key=run_key,
        method="exhaustive" if exhaustive else "bisection",
        grid=grid,
        n_snapshots=len(snaps),
        last_step=steps[-1],
        evaluations=tuple(evaluations[i] for i in sorted(evaluations)),
        seconds=time.monotonic() - started,
        goals=tuple(goals),
        resolution_note=_resolution_note(steps, outcomes, exhaustive),
    )
