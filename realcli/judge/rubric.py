"""The six-tier rubric (SPEC §2 step 3) and the final score (Eq. 3).

Clause credit: satisfied 1, partial 0.5, false or unjudged 0. A deliverable's raw share is
bounded by its worst clause, so nothing rounds up (the seed: 4/5 clauses lands in T4, not T5):

* any clause false or unjudged: at most the top of T4 (just below 0.80);
* any clause partial: at most the top of T5 (just below 0.95);
* any *critical* clause not satisfied: at most the top of T2 (0.40);
* an abstained (``<path>.SKIPPED.txt``) or missing deliverable: 0.

Tier edges (*realcli choice*): T1 [0, .20), T2 [.20, .40], T3 (.40, .60), T4 [.60, .80),
T5 [.80, .95), T6 [.95, 1].
"""

from __future__ import annotations

from collections.abc import Sequence

from realcli.schema.judgement import ClauseJudgement, Tier

__all__ = [
    "CRITICAL_CAP",
    "FALSE_CAP",
    "PARTIAL_CAP",
    "clause_credit",
    "deliverable_correctness",
    "final_score",
    "tier_of",
]

CRITICAL_CAP = 0.40
FALSE_CAP = 0.79
"""The highest value in T4 realcli stores (two decimals below its open upper edge 0.80)."""
PARTIAL_CAP = 0.94
"""The highest value in T5 realcli stores (below 0.95)."""

_CREDIT = {"satisfied": 1.0, "partial": 0.5, "false": 0.0, "unjudged": 0.0}


def clause_credit(status: str) -> float:
    return _CREDIT[status]


def tier_of(c: float) -> Tier:
    if c < 0.20:
        return "T1"
    if c <= 0.40:
        return "T2"
    if c < 0.60:
        return "T3"
    if c < 0.80:
        return "T4"
    if c < 0.95:
        return "T5"
    return "T6"


def deliverable_correctness(
    clauses: Sequence[ClauseJudgement], *, exists: bool, abstained: bool
) -> tuple[float, Tier, bool]:
    """(correctness, tier, a critical clause failed) of one deliverable."""
    critical_failed = any(c.critical and c.status != "satisfied" for c in clauses)
    if abstained or not exists or not clauses:
        c = 0.0 if (abstained or not exists) else 1.0
        return c, tier_of(c), critical_failed
    share = sum(clause_credit(c.status) for c in clauses) / len(clauses)
    if any(c.status in ("false", "unjudged") for c in clauses):
        share = min(share, FALSE_CAP)
    elif any(c.status == "partial" for c in clauses):
        share = min(share, PARTIAL_CAP)
    if critical_failed:
        share = min(share, CRITICAL_CAP)
    share = round(share, 4)
    return share, tier_of(share), critical_failed


def final_score(deliverable_c: float, dimensions: Sequence[float], is_hack: bool) -> float:
    """Eq. 3 (realcli reading): 0 if is_hack, else min(deliverable correctness, mean of the
    dimensions)."""
    if is_hack:
        return 0.0
    mean = sum(dimensions) / len(dimensions) if dimensions else deliverable_c
    return round(min(deliverable_c, mean), 4)
