"""The unbiased Pass@k estimator (Chen et al. 2021, as used by LongCLI-Bench).

For one task with ``n`` attempts of which ``c`` passed, the probability that at least one of
``k`` attempts drawn without replacement passes is ``1 - C(n-c, k) / C(n, k)``. A system's Pass@k
is that value averaged over tasks.

When some task has fewer than ``k`` attempts the estimator is undefined for it. realcli then
lowers ``k`` for the whole system to the smallest ``n`` among its tasks and reports the ``k`` it
used (:func:`system_pass_at_k`): every task still counts, and the number is a true Pass@k for the
stated k rather than a mix of different k's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["DEFAULT_K", "pass_at_k", "system_pass_at_k"]

DEFAULT_K = 3
"""LongCLI-Bench reports Pass@3."""


def pass_at_k(n: int, c: int, k: int) -> float:
    """``1 - C(n-c, k) / C(n, k)`` for one task: ``n`` attempts, ``c`` passes, ``1 <= k <= n``."""
    if n < 1 or not 0 <= c <= n:
        raise ValueError(f"need n >= 1 and 0 <= c <= n, got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got k={k}, n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def system_pass_at_k(
    attempts: Iterable[tuple[int, int]], k: int = DEFAULT_K
) -> tuple[float | None, int | None]:
    """Mean Pass@k over tasks given ``(n, c)`` per task, and the k used.

    The k used is ``min(k, smallest n)``; tasks with ``n == 0`` (no finished attempt) are left
    out. Returns ``(None, None)`` when no task has an attempt.
    """
    if k < 1:
        raise ValueError(f"need k >= 1, got {k}")
    tasks = [(n, c) for n, c in attempts if n > 0]
    if not tasks:
        return None, None
    k_used = min(k, min(n for n, _ in tasks))
    return sum(pass_at_k(n, c, k_used) for n, c in tasks) / len(tasks), k_used
