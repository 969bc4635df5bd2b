"""``checker = "unjudged"``: a clause no program can decide (only ``judge=agent`` can)."""

from __future__ import annotations

from typing import Any

from realcli.judge.base import CHECKERS
from realcli.judge.checkers.common import ClauseChecker, judgement
from realcli.judge.context import RunEvidence
from realcli.schema.base import Frozen
from realcli.schema.judgement import ClauseJudgement
from realcli.schema.task_spec import Clause, Deliverable

__all__ = ["UnjudgedChecker"]

REASON = "no program can decide this clause; only judge=agent can"


class UnjudgedArgs(Frozen):
    """No arguments."""


@CHECKERS.register("unjudged")
class UnjudgedChecker(ClauseChecker):
    """Always ``unjudged`` (no credit): the deterministic judges cannot decide it."""

    name = "unjudged"
    Args = UnjudgedArgs

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        return judgement(clause, self.name, "unjudged", REASON)
