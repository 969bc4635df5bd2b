"""Regression tests for the reported bugs."""

from intervals import (
    Interval,
    gaps,
    intersection,
    merge,
    parse_interval,
    parse_list,
    total_length,
)


def test_half_open_semantics():
    assert 5 not in Interval(1, 5)
    assert not Interval(1, 3).overlaps(Interval(3, 5))
    assert not Interval(3, 3).overlaps(Interval(1, 5))
    assert Interval(1, 3).intersect(Interval(3, 5)) is None


def test_merge_edge_cases():
    assert merge([]) == []
    assert merge([Interval(5, 7), Interval(1, 3)]) == [Interval(1, 3), Interval(5, 7)]
    assert merge([Interval(1, 10), Interval(2, 3)]) == [Interval(1, 10)]


def test_measures():
    assert total_length([Interval(0, 5), Interval(3, 8)]) == 8
    assert intersection([Interval(0, 10)], [Interval(1, 2), Interval(3, 4)]) == [
        Interval(1, 2),
        Interval(3, 4),
    ]
    assert gaps([Interval(2, 4)], Interval(0, 10)) == [Interval(0, 2), Interval(4, 10)]


def test_text():
    assert parse_interval("[-3, 4)") == Interval(-3, 4)
    assert parse_list("") == []
