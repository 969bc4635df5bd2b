"""``judge=tests``: the run's F2P/P2P outcome as a judgement (LongCLI-Bench grading).

final_score is 1 when the verdict passed (every F2P and P2P test, genuine evidence where a
deliverable needs it, grading not tampered with) and 0 otherwise; each deliverable's clauses
are the verdict's test-decided ones. No trajectory, no cheat scan, no dimensions.
"""

from __future__ import annotations

from realcli.judge.base import JUDGES, Judge
from realcli.judge.context import RunEvidence
from realcli.judge.rubric import deliverable_correctness
from realcli.schema.judgement import ArtifactCheck, ClauseJudgement, Evidence, Judgement
from realcli.schema.verdict import VerdictStatus

__all__ = ["TestsJudge"]


@JUDGES.register("tests")
class TestsJudge(Judge):
    __test__ = False
    kind = "tests"
    version = "1"

    def judge(self, run: RunEvidence) -> Judgement:
        v = run.verdict
        base = self.base_fields(run)
        if v.status is VerdictStatus.infra_error:
            return Judgement(**base, status="not_applicable", error=v.error or "infra_error")
        texts = {c.id: c.text for d in run.task.deliverables for c in d.clauses}
        checks = []
        for d in v.deliverables:
            clauses = tuple(
                ClauseJudgement(
                    id=c.id,
                    text=texts.get(c.id, c.id),
                    critical=c.critical,
                    checker="test",
                    status={"passed": "satisfied", "failed": "false"}.get(c.outcome, "unjudged"),
                    reason=f"F2P test {c.test}: {c.outcome}" if c.test else "no test decides it",
                    evidence=(Evidence(kind="test", quote=f"{c.test} {c.outcome}"),)
                    if c.test
                    else (),
                )
                for c in d.clauses
            )
            c_value, tier, critical_failed = deliverable_correctness(
                clauses, exists=d.exists, abstained=d.abstained
            )
            checks.append(
                ArtifactCheck(
                    id=d.path,
                    spec_clauses=tuple(c.text for c in clauses),
                    clause_results=clauses,
                    exists=d.exists,
                    format_ok=d.exists,
                    correctness=c_value,
                    tier=tier,
                    evidence_quote="; ".join(e.quote for c in clauses for e in c.evidence)[:300],
                    missing_or_wrong=tuple(
                        f"{c.id}: {c.reason}" for c in clauses if c.status != "satisfied"
                    ),
                    unstaged_evidence=d.evidence == "forged",
                    abstained=d.abstained,
                    critical_failed=critical_failed,
                )
            )
        final = 1.0 if v.passed else 0.0
        dc = sum(c.correctness for c in checks) / len(checks) if checks else final
        return Judgement(
            **base,
            artifact_checks=tuple(checks),
            final_score=final,
            passed=final >= self.spec.tau,
            deliverable_correctness=round(dc, 4),
            summary=(
                f"tests: {'pass' if v.passed else 'fail'} (F2P step {v.f2p_step:.2f},"
                f" P2P step {'none' if v.p2p_step is None else f'{v.p2p_step:.2f}'}"
                f"{', tampered' if v.tampered else ''})"
            ),
        )
