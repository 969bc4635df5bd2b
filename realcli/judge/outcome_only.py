"""``judge=outcome_only``: the judge-ablation baseline. It sees the final deliverables (and the
test outcome run on them) only: no trajectory, no screenshot provenance, no cheat scan. Its
``Judgement.screenshots`` stays empty: provenance needs the run's captures, which this judge
does not read (recording "unbacked" for every image would be a claim it cannot make).

* A clause whose checker does not need the trajectory (``needs_trajectory = False``) is
  decided by that checker, as the trajectory judge does.
* A clause whose checker needs the trajectory is judged on the deliverable alone: a
  screenshot or image deliverable that exists and decodes as an image is satisfied, any
  other deliverable that exists and parses as its format is satisfied; the evidence is the
  file's sha256. This is the outcome-only grader's blind spot (a painted "screenshot"
  passes), which makes the judge-ablation inflation measurable.
* Dimensions: only those computable from the deliverables, each reason saying so —
  task_completion, deliverable_correctness, deliverable_quality, final_state_correctness
  (the P2P step alone) and instruction_following (deliverable paths and abstention alone).
  evidence_authenticity, tool_use_correctness and efficiency_robustness need the
  trajectory and are left out.
* final = min(deliverable_correctness, mean of those dimensions); never a hack; a failure
  gets a taxonomy label from the rules that need no trajectory.
"""

from __future__ import annotations

from realcli.judge.artifacts import (
    IMAGE_FORMATS,
    ResolvedClause,
    build_artifact_check,
    check_format,
    deliverable_format,
    deliverable_state,
    is_screenshot,
    judge_clauses,
    resolve_clauses,
)
from realcli.judge.base import JUDGES, Judge
from realcli.judge.context import RunEvidence
from realcli.judge.deliverable_dimensions import (
    deliverable_dimensions,
    deliverable_facts,
    summarise,
)
from realcli.judge.rubric import final_score
from realcli.judge.taxonomy import classify
from realcli.schema.judgement import ClauseJudgement, Evidence, Judgement
from realcli.schema.task_spec import Deliverable
from realcli.schema.verdict import VerdictStatus
from realcli.util.hashing import sha256_bytes

__all__ = ["OUTCOME_DIMENSIONS", "OutcomeOnlyJudge"]

OUTCOME_DIMENSIONS = (
    "task_completion",
    "deliverable_correctness",
    "deliverable_quality",
    "final_state_correctness",
    "instruction_following",
)
"""The dimensions the outcome-only judge fills (DIMENSIONS order)."""


@JUDGES.register("outcome_only")
class OutcomeOnlyJudge(Judge):
    kind = "outcome_only"
    version = "1"

    def _on_deliverable_alone(
        self, run: RunEvidence, rc: ResolvedClause, d: Deliverable
    ) -> ClauseJudgement:
        if not rc.checker.needs_trajectory:
            return rc.checker.check(run, d, rc.clause, rc.args)
        data = run.read_workspace(d.path) or b""
        image = is_screenshot(d) or deliverable_format(d) in IMAGE_FORMATS
        ok, detail = check_format(run, d)
        what = "decodes as an image" if image else "parses as its format"
        return ClauseJudgement(
            id=rc.clause.id,
            text=rc.clause.text,
            critical=rc.clause.critical,
            checker=rc.name,
            status="satisfied" if ok else "false",
            reason=(
                f"outcome only: checker {rc.name!r} needs the trajectory; judged on the file "
                f"alone: {d.path} {what if ok else 'does not: ' + detail}"
            ),
            evidence=(
                Evidence(
                    kind="file",
                    quote=f"{d.path}: {detail}",
                    path=d.path,
                    sha256=sha256_bytes(data),
                ),
            )
            if ok
            else (),
        )

    def judge(self, run: RunEvidence) -> Judgement:
        base = self.base_fields(run)
        if run.verdict.status is VerdictStatus.infra_error:
            return Judgement(
                **base, status="not_applicable", error=run.verdict.error or "infra_error"
            )
        resolved = resolve_clauses(run)
        states = tuple(deliverable_state(run, d) for d in run.task.deliverables)
        checks = []
        for d, st, rcs in zip(run.task.deliverables, states, resolved, strict=True):
            clauses = judge_clauses(
                run, d, rcs, st, check=lambda rc, dd: self._on_deliverable_alone(run, rc, dd)
            )
            fmt = check_format(run, d) if st.exists and not st.abstained else (False, "absent")
            checks.append(build_artifact_check(d, st, clauses, fmt))
        checks_t = tuple(checks)
        facts = deliverable_facts(run, checks_t, states)
        every = deliverable_dimensions(facts, outcome_only=True)
        dims = {name: every[name] for name in OUTCOME_DIMENSIONS}
        dc = dims["deliverable_correctness"].score
        final = final_score(dc, [x.score for x in dims.values()], False)
        taxonomy = (
            classify(run, checks_t, (), self.spec.hack_threshold, trajectory=False)
            if final < self.spec.tau
            else None
        )
        return Judgement(
            **base,
            artifact_checks=checks_t,
            dimensions=dims,
            final_score=final,
            passed=final >= self.spec.tau,
            deliverable_correctness=dc,
            summary=summarise(
                run,
                checks_t,
                dims,
                final=final,
                tau=self.spec.tau,
                hits=(),
                note=" (outcome only: deliverables alone, no trajectory, no cheat scan)",
            ),
            taxonomy=taxonomy,
        )
