"""Kendall's τ_b and the LIS ratio against hand-computed values (no scipy)."""

from __future__ import annotations

import itertools
import math

import pytest

from analysis.ordering import kendall_tau_b, lis_ratio


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [
        ([1, 2, 3, 4], [10, 20, 30, 40], 1.0),
        ([1, 2, 3, 4], [4, 3, 2, 1], -1.0),
        # pairs (1,2) C, (1,3) C, (2,3) D: (2 - 1) / 3
        ([1, 2, 3], [1, 3, 2], 1 / 3),
        # one pair tied in y: C = 5, D = 0, n0 = 6, n2 = 1 -> 5 / sqrt(6 * 5)
        ([1, 2, 3, 4], [1, 1, 2, 3], 5 / math.sqrt(30)),
        # scipy.stats.kendalltau's doc example: C = 2, D = 6, n1 = 2, n2 = 1 -> -4 / sqrt(8 * 9)
        ([12, 2, 1, 12, 2], [1, 4, 7, 1, 0], -0.47140452079103173),
        # sub-steps 1..4 first held at steps 5, 2, 9, 9: C = 4, D = 1, one tie in y
        ([1, 2, 3, 4], [5, 2, 9, 9], 3 / math.sqrt(6 * 5)),
    ],
)
def test_kendall_tau_b_hand_computed(x: list[float], y: list[float], expected: float) -> None:
    assert kendall_tau_b(x, y) == pytest.approx(expected)
    assert kendall_tau_b(y, x) == pytest.approx(expected)  # symmetric


@pytest.mark.parametrize(
    ("x", "y"), [([], []), ([1], [3]), ([1, 2, 3], [4, 4, 4]), ([2, 2], [1, 5])]
)
def test_kendall_tau_b_is_undefined_without_an_untied_pair(x: list[float], y: list[float]) -> None:
    assert kendall_tau_b(x, y) is None


def test_kendall_tau_b_equals_the_sign_correlation_definition() -> None:
    """τ_b = Σ sgn(dx)·sgn(dy) / sqrt(Σ sgn(dx)² · Σ sgn(dy)²) on every 4-tuple over {0,1,2}."""

    def sign(v: float) -> int:
        return (v > 0) - (v < 0)

    values = range(3)
    for x in itertools.product(values, repeat=4):
        for y in itertools.product(values, repeat=4):
            pairs = list(itertools.combinations(range(4), 2))
            num = sum(sign(x[i] - x[j]) * sign(y[i] - y[j]) for i, j in pairs)
            sx = sum(sign(x[i] - x[j]) ** 2 for i, j in pairs)
            sy = sum(sign(y[i] - y[j]) ** 2 for i, j in pairs)
            expected = num / math.sqrt(sx * sy) if sx and sy else None
            got = kendall_tau_b(x, y)
            assert got == (pytest.approx(expected) if expected is not None else None), (x, y)


def test_kendall_tau_b_rejects_unpaired_input() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        kendall_tau_b([1, 2], [1])


@pytest.mark.parametrize(
    ("reference", "observed", "expected"),
    [
        ([1, 2, 3], [1, 2, 3], 1.0),
        ([1, 2, 3], [3, 2, 1], 1 / 3),
        ([1, 2, 3], [2, 1, 5], 2 / 3),  # done in order 2, 1, 3
        ([1, 2, 3, 4], [7, 7, 7, 7], 1.0),  # all at one step: ties are not disorder
        ([1, 2, 3, 4, 5], [3, 1, 4, 2, 5], 3 / 5),  # order 2, 4, 1, 3, 5: LIS 2, 4, 5
        ([4], [0], 1.0),
    ],
)
def test_lis_ratio(reference: list[int], observed: list[int], expected: float) -> None:
    assert lis_ratio(reference, observed) == pytest.approx(expected)


def test_lis_ratio_of_nothing_is_undefined() -> None:
    assert lis_ratio([], []) is None
