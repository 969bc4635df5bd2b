"""The unbiased Pass@k estimator against hand-computed values and brute force."""

from __future__ import annotations

import itertools
import math

import pytest

from analysis.passk import pass_at_k, system_pass_at_k


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (5, 2, 3, 0.9),  # 1 - C(3,3)/C(5,3) = 1 - 1/10
        (3, 0, 3, 0.0),
        (3, 3, 3, 1.0),
        (3, 1, 3, 1.0),  # n - c < k: some draw always passes
        (4, 1, 1, 0.25),  # Pass@1 = c/n
        (4, 1, 2, 0.5),  # 1 - C(3,2)/C(4,2) = 1 - 3/6
        (10, 3, 3, 1 - 35 / 120),  # 1 - C(7,3)/C(10,3)
        (1, 0, 1, 0.0),
        (1, 1, 1, 1.0),
    ],
)
def test_pass_at_k_hand_computed(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_k_equals_share_of_k_subsets_with_a_pass() -> None:
    for n in range(1, 7):
        for c in range(n + 1):
            outcomes = [True] * c + [False] * (n - c)
            for k in range(1, n + 1):
                subsets = list(itertools.combinations(outcomes, k))
                share = sum(any(s) for s in subsets) / math.comb(n, k)
                assert pass_at_k(n, c, k) == pytest.approx(share), (n, c, k)


@pytest.mark.parametrize(("n", "c", "k"), [(0, 0, 1), (3, 4, 1), (3, -1, 1), (3, 1, 0), (3, 1, 4)])
def test_pass_at_k_rejects_impossible_inputs(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_system_pass_at_k_averages_over_tasks() -> None:
    assert system_pass_at_k([(5, 2), (3, 0)], k=3) == (pytest.approx(0.45), 3)


def test_system_pass_at_k_lowers_k_to_the_fewest_attempts_and_says_so() -> None:
    # k = 2 for every task: 1 - C(3,2)/C(5,2) = 0.7 and 1 - C(1,2)/C(2,2) = 1.0
    assert system_pass_at_k([(5, 2), (2, 1)], k=3) == (pytest.approx(0.85), 2)


def test_system_pass_at_k_ignores_tasks_without_attempts() -> None:
    assert system_pass_at_k([(0, 0), (3, 0)], k=3) == (0.0, 3)
    assert system_pass_at_k([], k=3) == (None, None)
    assert system_pass_at_k([(0, 0)], k=3) == (None, None)
