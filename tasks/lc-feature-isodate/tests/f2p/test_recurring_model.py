"""RecurringInterval: validation and the occurrences it yields."""

import itertools
from datetime import date, datetime, timedelta

import pytest

import isodate
from isodate import Duration, Interval, RecurringInterval


def test_exported_from_package():
    assert isodate.RecurringInterval is RecurringInterval
    assert "RecurringInterval" in isodate.__all__


def test_attributes_and_count():
    base = Interval(start=date(2020, 1, 1), duration=timedelta(days=7))
    r = RecurringInterval(base, 3)
    assert r.interval == base
    assert r.repetitions == 3
    assert len(list(r)) == 3
    assert RecurringInterval(base).repetitions is None
    assert list(RecurringInterval(base, 0)) == []


def test_forward_from_start_duration():
    base = Interval(start=datetime(2020, 1, 1, 9), duration=timedelta(hours=2))
    got = list(RecurringInterval(base, 3))
    assert all(isinstance(x, Interval) for x in got)
    assert [(x.start, x.end) for x in got] == [
        (datetime(2020, 1, 1, 9), datetime(2020, 1, 1, 11)),
        (datetime(2020, 1, 1, 11), datetime(2020, 1, 1, 13)),
        (datetime(2020, 1, 1, 13), datetime(2020, 1, 1, 15)),
    ]


def test_forward_from_start_end_uses_its_length():
    base = Interval(start=date(2020, 1, 1), end=date(2020, 1, 3))
    got = list(RecurringInterval(base, 2))
    assert got == [base, Interval(start=date(2020, 1, 3), end=date(2020, 1, 5))]


def test_calendar_months_do_not_drift():
    base = Interval(start=date(2008, 1, 31), duration=Duration(months=1))
    starts = [x.start for x in RecurringInterval(base, 4)]
    assert starts == [date(2008, 1, 31), date(2008, 2, 29), date(2008, 3, 31), date(2008, 4, 30)]
    ends = [x.end for x in RecurringInterval(base, 4)]
    assert ends == [date(2008, 2, 29), date(2008, 3, 31), date(2008, 4, 30), date(2008, 5, 31)]


def test_backwards_from_end_latest_first():
    base = Interval(duration=timedelta(days=7), end=date(2008, 1, 31))
    got = list(RecurringInterval(base, 3))
    assert [(x.start, x.end) for x in got] == [
        (date(2008, 1, 24), date(2008, 1, 31)),
        (date(2008, 1, 17), date(2008, 1, 24)),
        (date(2008, 1, 10), date(2008, 1, 17)),
    ]


def test_unbounded_is_endless():
    base = Interval(start=date(2020, 1, 1), duration=timedelta(days=1))
    got = list(itertools.islice(RecurringInterval(base), 100))
    assert len(got) == 100
    assert got[-1].start == date(2020, 4, 9)


def test_validation():
    base = Interval(start=date(2020, 1, 1), duration=timedelta(days=1))
    with pytest.raises(TypeError):
        RecurringInterval("2020-01-01/P1D", 3)
    with pytest.raises(ValueError):
        RecurringInterval(base, -1)
    with pytest.raises(TypeError):
        RecurringInterval(base, 2.5)
    with pytest.raises(TypeError):
        RecurringInterval(base, "3")


def test_equality():
    base = Interval(start=date(2020, 1, 1), duration=timedelta(days=1))
    same = Interval(start=date(2020, 1, 1), end=date(2020, 1, 2))
    assert RecurringInterval(base, 3) == RecurringInterval(same, 3)
    assert RecurringInterval(base, 3) != RecurringInterval(base, 4)
    assert RecurringInterval(base) != RecurringInterval(base, 3)
