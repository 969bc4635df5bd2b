"""Behaviour that already works and must keep working."""

import pytest

from intervals import (
    Interval,
    format_interval,
    gaps,
    intersection,
    merge,
    parse_interval,
    parse_list,
    total_length,
)


def test_construction_and_length():
    assert Interval(1, 5).length == 4
    assert Interval(3, 3).is_empty()
    assert not Interval(3, 4).is_empty()
    with pytest.raises(ValueError):
        Interval(5, 2)


def test_containment_inside_and_before():
    assert 1 in Interval(1, 5)
    assert 3 in Interval(1, 5)
    assert 0 not in Interval(1, 5)


def test_clear_overlap_and_disjoint():
    assert Interval(1, 5).overlaps(Interval(3, 8))
    assert not Interval(1, 3).overlaps(Interval(5, 8))
    assert Interval(1, 5).intersect(Interval(3, 8)) == Interval(3, 5)
    assert Interval(1, 3).intersect(Interval(5, 8)) is None


def test_merge_sorted_input():
    assert merge([Interval(1, 4), Interval(2, 6), Interval(8, 9)]) == [
        Interval(1, 6),
        Interval(8, 9),
    ]


def test_merge_touching_and_dropping_empty():
    assert merge([Interval(1, 3), Interval(3, 5)]) == [Interval(1, 5)]
    assert merge([Interval(1, 3), Interval(4, 4), Interval(5, 6)]) == [
        Interval(1, 3),
        Interval(5, 6),
    ]


def test_total_length_simple():
    assert total_length([Interval(0, 2), Interval(5, 7)]) == 4
    assert total_length([]) == 0


def test_simple_intersection():
    assert intersection([Interval(0, 5)], [Interval(3, 8)]) == [Interval(3, 5)]


def test_gaps_inner_and_clipped():
    assert gaps([Interval(0, 10)], Interval(0, 10)) == []
    assert gaps([Interval(-5, 2), Interval(8, 20)], Interval(0, 10)) == [Interval(2, 8)]
    assert gaps([Interval(3, 5)], Interval(0, 4)) == [Interval(0, 3)]


def test_text_positive_bounds():
    assert parse_interval(" [1, 5) ") == Interval(1, 5)
    assert format_interval(Interval(1, 5)) == "[1, 5)"
    assert str(Interval(2, 3)) == "[2, 3)"
    assert parse_list("[1, 3); [5, 8)") == [Interval(1, 3), Interval(5, 8)]


@pytest.mark.parametrize("text", ["1, 5", "[1, 5]", "[a, 5)", "[5, 1)"])
def test_malformed_text_rejected(text):
    with pytest.raises(ValueError):
        parse_interval(text)
