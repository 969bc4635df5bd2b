"""``checker = "test"``: the clause's F2P selector against the verdict's final round."""

from __future__ import annotations

from typing import Any

from realcli.grading.score import selector_matches
from realcli.judge.base import CHECKERS
from realcli.judge.checkers.common import ClauseChecker, judgement
from realcli.judge.context import RunEvidence, quote
from realcli.schema.base import Frozen
from realcli.schema.judgement import ClauseJudgement, ClauseStatus, Evidence
from realcli.schema.task_spec import Clause, Deliverable, TaskSpec
from realcli.schema.verdict import TestOutcome

__all__ = ["TestChecker"]


class TestArgs(Frozen):
    """No arguments: the clause's own ``test`` selector names the F2P test(s)."""

    __test__ = False


@CHECKERS.register("test")
class TestChecker(ClauseChecker):
    """Every F2P test the clause's selector matches passed in the final round: satisfied;
    some passed: partial; none (or none matched): false. A round whose grading was tampered
    with never satisfies a clause."""

    __test__ = False
    name = "test"
    Args = TestArgs

    def clause_problems(
        self, task: TaskSpec, deliverable: Deliverable, clause: Clause, args: Any
    ) -> list[tuple[str, str, str]]:
        if clause.test is None:
            return [("test", "a test clause needs an F2P selector", "set test = 'f2p/...'")]
        return []

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        selector = clause.test or ""
        if not run.verdict.rounds:
            return judgement(clause, self.name, "false", "the run has no graded round")
        final = run.verdict.rounds[-1]
        matched = [t for t in final.tests if selector_matches(selector, t.nodeid)]
        if not matched:
            return judgement(
                clause, self.name, "false", f"no test of the final round matches {selector}"
            )
        evidence = [
            Evidence(
                kind="test",
                quote=quote(
                    f"{t.nodeid} {t.outcome.value}" + (f": {t.message}" if t.message else "")
                ),
            )
            for t in matched
        ]
        if final.tampered or any(t.tampered for t in matched):
            why = "; ".join(final.tampered) or "a test result is marked tampered"
            return judgement(
                clause, self.name, "false", f"grading was tampered with ({why})", evidence
            )
        passed = sum(t.outcome is TestOutcome.passed for t in matched)
        status: ClauseStatus = (
            "satisfied" if passed == len(matched) else "partial" if passed else "false"
        )
        return judgement(
            clause,
            self.name,
            status,
            f"{passed}/{len(matched)} F2P tests of {selector} passed (round {final.round})",
            evidence,
        )
