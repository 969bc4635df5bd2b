"""Functions built on merge(): total_length, intersection, gaps."""

from intervals import Interval, gaps, intersection, total_length


def test_total_length_counts_overlap_once():
    assert total_length([Interval(0, 5), Interval(3, 8)]) == 8


def test_total_length_unsorted_and_contained():
    assert total_length([Interval(2, 3), Interval(0, 10), Interval(4, 6)]) == 10


def test_intersection_finds_every_piece():
    a = [Interval(0, 10)]
    b = [Interval(1, 2), Interval(3, 4)]
    assert intersection(a, b) == [Interval(1, 2), Interval(3, 4)]
    assert intersection(b, a) == [Interval(1, 2), Interval(3, 4)]


def test_intersection_of_touching_collections_is_empty():
    assert intersection([Interval(0, 3)], [Interval(3, 6)]) == []


def test_intersection_with_empty_collection():
    assert intersection([], [Interval(0, 3)]) == []


def test_gaps_include_trailing_gap():
    assert gaps([Interval(2, 4)], Interval(0, 10)) == [Interval(0, 2), Interval(4, 10)]


def test_gaps_of_nothing_is_the_whole_range():
    assert gaps([], Interval(0, 5)) == [Interval(0, 5)]
