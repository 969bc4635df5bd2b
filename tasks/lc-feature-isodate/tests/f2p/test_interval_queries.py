"""Interval queries: membership, overlaps and intersection."""

from datetime import date, datetime, timedelta, timezone

import pytest

from isodate import Interval


def d(day):
    return date(2020, 1, day)


def test_membership_is_half_open():
    iv = Interval(start=d(10), end=d(20))
    assert d(10) in iv
    assert d(15) in iv
    assert d(19) in iv
    assert d(20) not in iv
    assert d(9) not in iv


def test_membership_with_datetimes_and_durations():
    iv = Interval(start=datetime(2020, 1, 1, 9, tzinfo=timezone.utc), duration=timedelta(hours=8))
    assert datetime(2020, 1, 1, 16, 59, tzinfo=timezone.utc) in iv
    assert datetime(2020, 1, 1, 17, tzinfo=timezone.utc) not in iv
    assert datetime(2020, 1, 1, 11, tzinfo=timezone(timedelta(hours=2))) in iv


def test_membership_of_wrong_kind_raises_type_error():
    iv = Interval(start=datetime(2020, 1, 1, 9), end=datetime(2020, 1, 1, 17))
    assert datetime(2020, 1, 1, 12) in iv
    with pytest.raises(TypeError):
        date(2020, 1, 1) in iv


def test_overlaps():
    a = Interval(start=d(10), end=d(20))
    assert a.overlaps(Interval(start=d(15), end=d(25)))
    assert Interval(start=d(15), end=d(25)).overlaps(a)
    assert a.overlaps(Interval(start=d(12), end=d(13)))
    assert a.overlaps(Interval(start=d(1), end=d(30)))
    assert a.overlaps(a)


def test_touching_or_disjoint_do_not_overlap():
    a = Interval(start=d(10), end=d(20))
    assert not a.overlaps(Interval(start=d(20), end=d(25)))
    assert not a.overlaps(Interval(start=d(1), end=d(10)))
    assert not a.overlaps(Interval(start=d(21), end=d(25)))


def test_intersection():
    a = Interval(start=d(10), end=d(20))
    b = Interval(start=d(15), duration=timedelta(days=10))
    got = a.intersection(b)
    assert isinstance(got, Interval)
    assert got.form == "start/end"
    assert (got.start, got.end) == (d(15), d(20))
    assert b.intersection(a) == got
    inner = Interval(start=d(12), end=d(13))
    assert a.intersection(inner) == inner


def test_intersection_none_when_not_overlapping():
    a = Interval(start=d(10), end=d(20))
    assert a.intersection(Interval(start=d(20), end=d(25))) is None
    assert a.intersection(Interval(duration=timedelta(days=3), end=d(5))) is None
