"""Half-open semantics of a single Interval: containment, overlap, intersect."""

from intervals import Interval


def test_end_point_is_not_contained():
    iv = Interval(1, 5)
    assert 4 in iv
    assert 5 not in iv


def test_empty_interval_contains_nothing():
    assert 3 not in Interval(3, 3)


def test_touching_intervals_do_not_overlap():
    a, b = Interval(1, 3), Interval(3, 5)
    assert not a.overlaps(b)
    assert not b.overlaps(a)
    assert a.touches(b)


def test_empty_interval_overlaps_nothing():
    assert not Interval(3, 3).overlaps(Interval(1, 5))
    assert not Interval(1, 5).overlaps(Interval(3, 3))


def test_intersect_of_touching_intervals_is_none():
    assert Interval(1, 3).intersect(Interval(3, 5)) is None
    assert Interval(3, 5).intersect(Interval(1, 3)) is None
    assert Interval(1, 5).intersect(Interval(4, 9)) == Interval(4, 5)
