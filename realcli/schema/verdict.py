"""Verdict: the graded outcome of one run (``verdict.json``), rebuilt from saved test output."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import Field

from realcli.schema.base import Frozen
from realcli.schema.events import ErrorType

__all__ = [
    "MAX_VERDICT_BYTES",
    "VERDICT_SCHEMA_VERSION",
    "ClauseResult",
    "DeliverableResult",
    "Fidelity",
    "RoundVerdict",
    "SetScore",
    "SubStepResult",
    "TestOutcome",
    "TestResult",
    "Verdict",
    "VerdictStatus",
]

VERDICT_SCHEMA_VERSION = 1
MAX_VERDICT_BYTES = 256 * 1024 * 1024
"""A verdict.json larger than this is not read (a 1,000-test run's is well under 1 MiB)."""


class TestOutcome(StrEnum):
    __test__ = False  # not a pytest class
    passed = "passed"
    failed = "failed"
    error = "error"
    skipped = "skipped"
    missing = "missing"  # expected by the task but absent from the test report


class VerdictStatus(StrEnum):
    graded = "graded"
    infra_error = "infra_error"  # the harness/sandbox failed: labelled, still in denominators
    task_error = "task_error"  # the task itself is broken (tests do not collect, ...)


Fidelity = Literal["ok", "mismatch", "not_applicable"]
"""The run's fidelity check (gateway vs the harness's own log): ``ok`` every session's held,
``mismatch`` one did not, ``not_applicable`` a session never started (no model call)."""


class TestResult(Frozen):
    __test__ = False
    nodeid: str = Field(description="selector relative to tests/, e.g. f2p/test_x.py::test_y")
    test_set: Literal["f2p", "p2p"]
    outcome: TestOutcome
    duration_s: float = 0.0
    message: str = ""
    tampered: bool = Field(
        False,
        description="the test set's grading was tampered with (see realcli.grading.guard): "
        "the outcome is error whatever the report said",
    )
    score: float | None = Field(
        None,
        ge=0,
        le=1,
        description="score_file/text sets (one result per set, nodeid '<set>::<score_file>'): "
        "the set's step score; None for a pytest test",
    )


class SetScore(Frozen):
    total: int = Field(ge=0)
    passed: int = Field(ge=0)
    all_passed: bool
    step_score: float = Field(ge=0, le=1)
    parser: Literal["pytest", "score_file", "text"] = Field(
        "pytest", description="how the set was graded (score_file/text: one scored result)"
    )


class SubStepResult(Frozen):
    id: str
    passed: bool
    weight: float
    tests_passed: int
    tests_total: int


class RoundVerdict(Frozen):
    round: int = Field(ge=1)
    passed: bool = Field(description="every F2P and every P2P test passed")
    f2p: SetScore = Field(
        description="step_score: weighted share of sub-steps passed (no sub-steps: of tests; "
        "score-file sets: (obtained - initial) / (max - initial))"
    )
    p2p: SetScore | None = Field(
        description="step_score: share of P2P tests passed; None: the task has no P2P set"
    )
    f2p_test_share: float = Field(ge=0, le=1, description="share of F2P tests passed")
    substeps: tuple[SubStepResult, ...]
    tests: tuple[TestResult, ...]
    tampered: tuple[str, ...] = Field(
        (), description="why this round's grading cannot be trusted (empty: it can)"
    )


class ClauseResult(Frozen):
    id: str
    critical: bool
    test: str | None = Field(description="the F2P selector that decides it; None: a judge must")
    outcome: Literal["passed", "failed", "unjudged"]


class DeliverableResult(Frozen):
    """One deliverable of a hybrid task after the final round."""

    path: str
    exists: bool
    abstained: bool = Field(description="<path>.SKIPPED.txt was written (honest abstention)")
    evidence: Literal["none", "genuine", "forged", "missing"] = Field(
        "none",
        description="screenshot deliverables: genuine when its sha256 is one of the run's "
        "screenshot events (taken from the real display), forged when it is not",
    )
    clauses: tuple[ClauseResult, ...] = ()
    passed: bool = Field(
        description="not abstained, evidence genuine where required, every critical clause "
        "passed and no clause failed"
    )


class Verdict(Frozen):
    schema_version: int = VERDICT_SCHEMA_VERSION
    run_key: str
    task_id: str
    status: VerdictStatus
    error: str | None = None
    error_type: ErrorType | None = Field(
        None,
        description="the typed reason of an infra_error/task_error status (the ledger "
        "error event's type, e.g. agent_not_started)",
    )
    fidelity: Fidelity | None = Field(
        None, description="None: the harness keeps no native log (no fidelity check)"
    )
    rounds: tuple[RoundVerdict, ...] = ()
    deliverables: tuple[DeliverableResult, ...] = Field(
        (), description="hybrid tasks: each deliverable's clauses after the final round"
    )
    passed: bool = False
    tampered: bool = Field(
        False, description="some round's grading was tampered with: never a pass"
    )
    f2p_pass: bool = False
    f2p_step: float = 0.0
    p2p_pass: bool | None = Field(False, description="None: the task has no P2P set")
    p2p_step: float | None = Field(0.0, description="None: the task has no P2P set")
    wall_time_s: float = 0.0
    agent_time_s: float = 0.0
    tests_time_s: float = 0.0
    graded_at: datetime
