"""Order statistics for reordering analyses (SPEC §3): Kendall's τ_b and the LIS ratio.

Plain Python on short sequences (a task's sub-steps, a leaderboard's systems): O(n²) pairs,
no scipy. ``kendall_tau_b`` matches ``scipy.stats.kendalltau`` (variant "b"), ties included.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from itertools import combinations

__all__ = ["kendall_tau_b", "lis_ratio"]


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's τ_b of paired observations ``x[i], y[i]``.

    τ_b = (C − D) / sqrt((n0 − n1)(n0 − n2)), with C and D the concordant and discordant
    pairs, n0 = n(n−1)/2, n1 and n2 the pairs tied in ``x`` and in ``y``. None when it is
    undefined: fewer than two observations, or every pair tied in ``x`` or in ``y``.
    """
    if len(x) != len(y):
        raise ValueError(f"x and y differ in length: {len(x)} != {len(y)}")
    concordant = discordant = tied_x = tied_y = 0
    for i, j in combinations(range(len(x)), 2):
        dx = (x[i] > x[j]) - (x[i] < x[j])
        dy = (y[i] > y[j]) - (y[i] < y[j])
        if dx == 0:
            tied_x += 1
        if dy == 0:
            tied_y += 1
        if dx * dy > 0:
            concordant += 1
        elif dx * dy < 0:
            discordant += 1
    n0 = len(x) * (len(x) - 1) // 2
    denominator = math.sqrt((n0 - tied_x) * (n0 - tied_y))
    if denominator == 0:
        return None
    return (concordant - discordant) / denominator


def lis_ratio(reference: Sequence[float], observed: Sequence[float]) -> float | None:
    """Share of items that are in order: the longest run of items whose ``reference`` order
    strictly increases when they are taken in ``observed`` order, over the number of items.

    Items observed at the same time are taken in reference order (a tie is not a
    disorder). 1.0: everything in reference order; None: no items.
    """
    if len(reference) != len(observed):
        raise ValueError(f"lengths differ: {len(reference)} != {len(observed)}")
    if not reference:
        return None
    sequence = [r for _, r in sorted(zip(observed, reference, strict=True))]
    tails: list[float] = []
    for value in sequence:
        at = bisect.bisect_left(tails, value)
        if at == len(tails):
            tails.append(value)
        else:
            tails[at] = value
    return len(tails) / len(sequence)
