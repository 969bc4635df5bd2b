"""Deliverables of hybrid tasks: clauses decided by F2P tests, abstention, screenshot evidence.

Pure: the task spec, the final round's test results, the workspace as the agent left it and
the sha256 of every screenshot the trusted GUI service took (the ledger's ``screenshot``
events) in; one :class:`DeliverableResult` per deliverable out. A screenshot deliverable is
*genuine* only if its bytes hash to one of those screenshots: a PNG made any other way (drawn,
copied, edited, or grabbed by the agent's own shell) is *forged*, whatever it shows.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Literal

from realcli.grading.score import selector_matches
from realcli.schema.task_spec import Deliverable, TaskSpec
from realcli.schema.verdict import ClauseResult, DeliverableResult, TestOutcome, TestResult
from realcli.util.hashing import sha256_bytes
from realcli.util.safe_fs import NotARegularFile, lstat_under, read_bytes_under

__all__ = ["SKIPPED_SUFFIX", "grade_deliverables"]

SKIPPED_SUFFIX = ".SKIPPED.txt"


def _clause_outcome(
    test: str | None, results: Sequence[TestResult]
) -> Literal["passed", "failed", "unjudged"]:
    if test is None:
        return "unjudged"
    matched = [r for r in results if selector_matches(test, r.nodeid)]
    if matched and all(r.outcome is TestOutcome.passed for r in matched):
        return "passed"
    return "failed"


def _evidence(
    d: Deliverable, workspace: Path | None, screenshots: Collection[str]
) -> Literal["none", "genuine", "forged", "missing"]:
    if d.evidence != "screenshot":
        return "none"
    if workspace is None:
        return "missing"
    try:  # a link (to a genuine screenshot elsewhere, say) is never followed
        data = read_bytes_under(workspace, d.path)
    except NotARegularFile:
        return "forged"  # a link, FIFO or device stands where the screenshot should be
    except (OSError, ValueError):
        return "missing"
    return "genuine" if sha256_bytes(data) in screenshots else "forged"


def _lstat(workspace: Path | None, rel: str) -> os.stat_result | None:
    return lstat_under(workspace, rel) if workspace is not None else None


def _is_file(workspace: Path | None, rel: str) -> bool:
    st = _lstat(workspace, rel)
    return st is not None and stat.S_ISREG(st.st_mode)


def grade_deliverables(
    task: TaskSpec,
    results: Sequence[TestResult],
    workspace: Path | None,
    screenshots: Collection[str],
) -> tuple[DeliverableResult, ...]:
    """Each deliverable's clauses, abstention and evidence after the final round."""
    out = []
    for d in task.deliverables:
        skipped = d.path + SKIPPED_SUFFIX
        clauses = tuple(
            ClauseResult(
                id=c.id,
                critical=c.critical,
                test=c.test,
                outcome=_clause_outcome(c.test, results),
            )
            for c in d.clauses
        )
        abstained = _is_file(workspace, skipped)
        evidence = _evidence(d, workspace, screenshots)
        passed = (
            not abstained
            and evidence in ("none", "genuine")
            and not any(c.outcome == "failed" for c in clauses)
        )
        out.append(
            DeliverableResult(
                path=d.path,
                exists=_lstat(workspace, d.path) is not None,
                abstained=abstained,
                evidence=evidence,
                clauses=clauses,
                passed=passed,
            )
        )
    return tuple(out)
