"""Build a Verdict from saved test output and the ledger: pure, re-runnable without an agent."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from realcli.grading.deliverables import grade_deliverables
from realcli.grading.score import grade_round
from realcli.ledger import LedgerContents
from realcli.schema.events import INFRA_ERRORS, ErrorType, utc_now
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import Fidelity, TestResult, Verdict, VerdictStatus

__all__ = ["RunLabels", "RunTimings", "build_verdict", "labels_from_ledger", "outcome_from_ledger"]


@dataclass(frozen=True)
class RunLabels:
    """What the ledger says about a run beside its tests: the typed reason of its status and
    its fidelity check."""

    error_type: ErrorType | None = None
    fidelity: Fidelity | None = None


@dataclass(frozen=True)
class RunTimings:
    wall_time_s: float = 0.0
    agent_time_s: float = 0.0
    tests_time_s: float = 0.0


def build_verdict(
    *,
    task: TaskSpec,
    run_key: str,
    rounds: Mapping[int, Sequence[TestResult]],
    status: VerdictStatus = VerdictStatus.graded,
    error: str | None = None,
    timings: RunTimings = RunTimings(),
    expected: Mapping[str, Sequence[str]] | None = None,
    workspace: Path | None = None,
    screenshots: Collection[str] = (),
    tampered: Mapping[int, Sequence[str]] | None = None,
    labels: RunLabels = RunLabels(),
) -> Verdict:
    """Score every round; the run's headline metrics are the last round's. A hybrid task's
    deliverables are graded on the last round (``workspace``: as the agent left it;
    ``screenshots``: the sha256 of every screenshot the run's GUI service took;
    ``tampered``: per round, why its grading cannot be trusted — such a run never passes)."""
    tampered = tampered or {}
    graded = tuple(
        grade_round(task, n, rounds[n], expected, tampered.get(n, ())) for n in sorted(rounds)
    )
    any_tampered = any(r.tampered for r in graded)
    last = graded[-1] if graded else None
    deliverables = grade_deliverables(
        task, last.tests if last else (), workspace, frozenset(screenshots)
    )
    no_p2p = task.tests.p2p is None
    evidence_ok = all(d.evidence in ("none", "genuine") for d in deliverables)
    return Verdict(
        run_key=run_key,
        task_id=task.id,
        status=status,
        error=error,
        error_type=labels.error_type if status is not VerdictStatus.graded else None,
        fidelity=labels.fidelity,
        rounds=graded,
        deliverables=deliverables,
        passed=bool(
            last
            and last.passed
            and status is VerdictStatus.graded
            and evidence_ok
            and not any_tampered
        ),
        tampered=any_tampered,
        f2p_pass=bool(last and last.f2p.all_passed),
        f2p_step=last.f2p.step_score if last else 0.0,
        p2p_pass=None if no_p2p else bool(last and last.p2p and last.p2p.all_passed),
        p2p_step=None if no_p2p else (last.p2p.step_score if last and last.p2p else 0.0),
        wall_time_s=timings.wall_time_s,
        agent_time_s=timings.agent_time_s,
        tests_time_s=timings.tests_time_s,
        graded_at=utc_now(),
    )


def screenshot_hashes(ledger: LedgerContents) -> frozenset[str]:
    """The sha256 of every screenshot the run's trusted GUI service took."""
    return frozenset(e.sha256 for e in ledger.events if e.kind == "screenshot")


def outcome_from_ledger(ledger: LedgerContents) -> tuple[VerdictStatus, str | None, RunTimings]:
    """Status, first infra/task error message and timings, as the ledger recorded them."""
    status, error = VerdictStatus.graded, None
    agent_s = tests_s = wall_s = 0.0
    for event in ledger.events:
        if event.kind == "error" and status is VerdictStatus.graded:
            if event.error_type in INFRA_ERRORS:
                status, error = VerdictStatus.infra_error, event.message
            elif event.error_type is ErrorType.task_error:
                status, error = VerdictStatus.task_error, event.message
        elif event.kind == "budget":
            agent_s += event.wall_clock_s
        elif event.kind == "grading":
            tests_s += event.duration_s
        elif event.kind == "run_end":
            wall_s = event.wall_time_s
    if not wall_s and ledger.events:
        wall_s = (ledger.events[-1].ts - ledger.header.ts).total_seconds()
    return status, error, RunTimings(wall_s, agent_s, tests_s)


def labels_from_ledger(ledger: LedgerContents) -> RunLabels:
    """The typed reason behind the status :func:`outcome_from_ledger` gives (the first infra
    or task error's type) and the run's fidelity: ``not_applicable`` as soon as one session
    never started, else ``mismatch`` if one check failed, ``ok`` if all held, None without
    any check."""
    error_type: ErrorType | None = None
    checks = []
    for event in ledger.events:
        if event.kind == "error" and error_type is None:
            if event.error_type in INFRA_ERRORS or event.error_type is ErrorType.task_error:
                error_type = event.error_type
        elif event.kind == "fidelity":
            checks.append(event)
    fidelity: Fidelity | None = None
    if any(not f.applicable for f in checks):
        fidelity = "not_applicable"
    elif checks:
        fidelity = "ok" if all(f.ok for f in checks) else "mismatch"
    return RunLabels(error_type, fidelity)
