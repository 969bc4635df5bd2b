"""merge(): empty input, unsorted input, contained intervals."""

import itertools
import random

from intervals import Interval, merge


def _points(intervals):
    return {p for iv in intervals for p in range(iv.start, iv.end)}


def test_empty_input():
    assert merge([]) == []


def test_only_empty_intervals():
    assert merge([Interval(2, 2), Interval(4, 4)]) == []


def test_unsorted_disjoint_input_is_sorted():
    assert merge([Interval(5, 7), Interval(1, 3)]) == [Interval(1, 3), Interval(5, 7)]


def test_unsorted_overlapping_input():
    assert merge([Interval(4, 8), Interval(1, 5)]) == [Interval(1, 8)]


def test_contained_interval_does_not_shrink_result():
    assert merge([Interval(1, 10), Interval(2, 3)]) == [Interval(1, 10)]
    assert merge([Interval(0, 4), Interval(1, 2), Interval(4, 6)]) == [Interval(0, 6)]


def test_generator_input():
    assert merge(iv for iv in [Interval(6, 9), Interval(0, 2)]) == [
        Interval(0, 2),
        Interval(6, 9),
    ]


def test_matches_brute_force():
    rng = random.Random(20240501)
    for _ in range(200):
        items = []
        for _ in range(rng.randint(0, 6)):
            start = rng.randint(-10, 10)
            items.append(Interval(start, start + rng.randint(0, 6)))
        result = merge(items)
        assert _points(result) == _points(items)
        assert all(not iv.is_empty() for iv in result)
        for left, right in itertools.pairwise(result):
            assert left.end < right.start
