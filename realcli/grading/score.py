"""Pure scoring: test results in, a RoundVerdict out (LongCLI-Bench metrics, SPEC.md §1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from realcli.schema.task_spec import TaskSpec, TestSetSpec
from realcli.schema.verdict import RoundVerdict, SetScore, SubStepResult, TestOutcome, TestResult

__all__ = ["against_inventory", "grade_round", "selector_matches"]


def selector_matches(selector: str, nodeid: str) -> bool:
    """True when ``nodeid`` is the test ``selector`` names, or lies inside it (file or class)."""
    return (
        nodeid == selector
        or nodeid.startswith(selector + "::")
        or ("[" in nodeid and nodeid.split("[", 1)[0] == selector)
    )


def against_inventory(
    results: Sequence[TestResult], expected: Mapping[str, Sequence[str]]
) -> list[TestResult]:
    """Results with every expected test accounted for. A test missing from the report is
    ``missing`` (a failure); one inside a file that failed to collect takes that file's
    ``error``. Reported tests that were not expected are kept."""
    by_id = {r.nodeid: r for r in results}
    file_errors = {r.nodeid: r for r in results if "::" not in r.nodeid}
    out: list[TestResult] = []
    for test_set, ids in expected.items():
        for nodeid in ids:
            if nodeid in by_id:
                out.append(by_id.pop(nodeid))
                continue
            broken = file_errors.get(nodeid.split("::", 1)[0])
            out.append(
                TestResult(
                    nodeid=nodeid,
                    test_set=test_set,
                    outcome=broken.outcome if broken else TestOutcome.missing,
                    message=broken.message if broken else "expected but not in the test report",
                )
            )
    covered = {n.split("::", 1)[0] for ids in expected.values() for n in ids}
    out.extend(r for r in by_id.values() if not (r.nodeid in file_errors and r.nodeid in covered))
    return out


def _set_score(results: Sequence[TestResult], spec: TestSetSpec) -> SetScore:
    """A pytest set: the share of its tests passed. A score-file set: its one result's score
    (a missing or unscored result scores 0)."""
    total = len(results)
    passed = sum(r.outcome is TestOutcome.passed for r in results)
    if spec.parser == "pytest":
        step = passed / total if total else 0.0
    else:
        step = min((r.score if r.score is not None else 0.0) for r in results) if results else 0.0
    return SetScore(
        total=total,
        passed=passed,
        all_passed=total > 0 and passed == total,
        step_score=step,
        parser=spec.parser,
    )


def grade_round(
    task: TaskSpec,
    round_no: int,
    results: Sequence[TestResult],
    expected: Mapping[str, Sequence[str]] | None = None,
    tampered: Sequence[str] = (),
) -> RoundVerdict:
    """Score one round. A sub-step passes when every test its selectors match passed (and at
    least one matched); F2P step is the weighted share of sub-steps passed (a task without
    sub-steps: the F2P set's own step score, see :func:`_set_score`). ``expected`` (test set
    -> node ids) is the task's test inventory: see :func:`against_inventory`. ``tampered``:
    why the round's grading cannot be trusted; then it never passes. A task without a P2P
    set (``p2p = false``) has ``p2p`` None and passes on its F2P set alone."""
    if expected:
        results = against_inventory(results, expected)
    sets = task.tests
    f2p = [r for r in results if r.test_set == "f2p"]
    p2p = [r for r in results if r.test_set == "p2p"]
    substeps: list[SubStepResult] = []
    for sub in task.substeps if sets.f2p.bundle_pytest else ():
        mine = [r for r in f2p if any(selector_matches(s, r.nodeid) for s in sub.tests)]
        ok = sum(r.outcome is TestOutcome.passed for r in mine)
        substeps.append(
            SubStepResult(
                id=sub.id,
                passed=bool(mine) and ok == len(mine),
                weight=sub.weight,
                tests_passed=ok,
                tests_total=len(mine),
            )
        )
    f2p_tests = _set_score(f2p, sets.f2p)
    total_weight = sum(s.weight for s in substeps)
    if total_weight:
        f2p_step = sum(s.weight for s in substeps if s.passed) / total_weight
    else:
        f2p_step = f2p_tests.step_score
    f2p_score = f2p_tests.model_copy(
        update={
            "all_passed": f2p_tests.all_passed and all(s.passed for s in substeps),
            "step_score": f2p_step,
        }
    )
    p2p_score = _set_score(p2p, sets.p2p) if sets.p2p is not None else None
    share = f2p_tests.passed / f2p_tests.total if f2p_tests.total else 0.0
    return RoundVerdict(
        round=round_no,
        passed=f2p_score.all_passed
        and (p2p_score is None or p2p_score.all_passed)
        and not tampered,
        f2p=f2p_score,
        p2p=p2p_score,
        f2p_test_share=share,
        substeps=tuple(substeps),
        tests=tuple(results),
        tampered=tuple(tampered),
    )
