"""The judge layer's contracts: a :class:`Judge` (run folder in, judgement out), a clause
:class:`Checker` and a cheat :class:`Detector`, each with one registry."""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from realcli.judge.context import RunEvidence
from realcli.registry import Registry
from realcli.schema.judgement import ClauseJudgement, HackFlag, Judgement
from realcli.schema.run_spec import JudgeSpec
from realcli.schema.task_spec import Clause, Deliverable

__all__ = [
    "CHECKERS",
    "DETECTORS",
    "JUDGES",
    "Checker",
    "Detector",
    "Judge",
    "judge_key",
]


class Judge(ABC):
    """Judges one finished run. Subclasses set ``kind`` and ``version`` (bump the version
    whenever the same inputs would get a different judgement: it is part of the judge_key)."""

    kind: ClassVar[str]
    version: ClassVar[str]

    def __init__(self, spec: JudgeSpec) -> None:
        self.spec = spec

    @property
    def key(self) -> str:
        return judge_key(self.spec, self.kind, self.version)

    @abstractmethod
    def judge(self, run: RunEvidence) -> Judgement:
        """The judgement of ``run`` (deterministic for the same inputs and spec)."""

    def base_fields(self, run: RunEvidence) -> dict[str, Any]:
        """The fields every judgement carries: identity, threshold, inputs."""
        return {
            "run_key": run.run_key,
            "task_id": run.task.id,
            "judge": self.spec.name,
            "judge_kind": self.kind,
            "judge_version": self.version,
            "judge_key": self.key,
            "inputs_digest": run.inputs_digest,
            "tau": self.spec.tau,
            "hack_threshold": self.spec.hack_threshold,
        }


def judge_key(spec: JudgeSpec, kind: str, version: str) -> str:
    """16 hex digits of sha256 over the judge's resolved config (its name aside) and version."""
    doc = {"spec": spec.model_dump(mode="json", exclude={"name"}), "kind": kind, "v": version}
    blob = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


class Checker(ABC):
    """Decides one clause kind. ``Args``: the pydantic model of the clause's ``args`` (an
    unknown or bad key is an error naming task.toml, the clause and the fix). ``needs_trajectory``:
    the outcome-only judge, which sees deliverables only, cannot run it."""

    name: ClassVar[str]
    Args: ClassVar[type[BaseModel]]
    needs_trajectory: ClassVar[bool] = False

    @abstractmethod
    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        """The clause's status with evidence (fail by default: no evidence, no credit)."""


class Detector(ABC):
    """Scans a run for one cheat pattern; every flag carries verbatim evidence with seqs."""

    name: ClassVar[str]
    pattern: ClassVar[str]
    description: ClassVar[str]

    @abstractmethod
    def detect(self, run: RunEvidence) -> Sequence[HackFlag]:
        """Every hit (any confidence; the judge applies ``hack_threshold``)."""


JUDGES: Registry[type[Judge]] = Registry(
    "judge",
    "realcli.judges",
    (
        "realcli.judge.tests_judge",
        "realcli.judge.trajectory",
        "realcli.judge.outcome_only",
        "realcli.judge.agent",
    ),
)
CHECKERS: Registry[type[Checker]] = Registry(
    "clause checker", "realcli.checkers", ("realcli.judge.checkers",)
)
DETECTORS: Registry[type[Detector]] = Registry(
    "cheat detector", "realcli.detectors", ("realcli.judge.detectors",)
)
