"""Build a Verdict from saved test output and the ledger: pure, re-runnable without an agent."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from realcli.grading.deliverables import grade_deliverables
from realcli.grading.score import grade_round
from realcli.ledger import LedgerContents
from realcli.schema.events import ErrorType, utc_now
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import TestResult, Verdict, VerdictStatus

__all__ = ["RunTimings", "build_verdict", "outcome_from_ledger"]

_INFRA = {ErrorType.sandbox_error, ErrorType.gateway_error, ErrorType.infra_error}


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
    evidence_ok = all(d.evidence in ("none", "genuine") for d in deliverables)
    return Verdict(
        run_key=run_key,
        task_id=task.id,
        status=status,
        error=error,
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
        p2p_pass=bool(last and last.p2p.all_passed),
        p2p_step=last.p2p.step_score if last else 0.0,
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
            if event.error_type in _INFRA:
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
