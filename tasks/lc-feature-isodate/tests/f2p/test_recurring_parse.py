"""parse_recurring_interval, recurring_interval_isoformat and str(RecurringInterval)."""

import itertools
from datetime import date, datetime, timedelta, timezone

import pytest

import isodate
from isodate import (
    Duration,
    Interval,
    ISO8601Error,
    RecurringInterval,
    parse_interval,
    parse_recurring_interval,
    recurring_interval_isoformat,
)


def test_exported_from_package():
    for name in ("parse_recurring_interval", "recurring_interval_isoformat"):
        assert name in isodate.__all__
        assert hasattr(isodate, name)


def test_bounded():
    r = parse_recurring_interval("R5/2008-03-01T13:00:00Z/P1Y2M10DT2H30M")
    assert isinstance(r, RecurringInterval)
    assert r.repetitions == 5
    assert r.interval.start == datetime(2008, 3, 1, 13, 0, tzinfo=timezone.utc)
    assert r.interval.duration == Duration(years=1, months=2, days=10, hours=2, minutes=30)
    got = list(r)
    assert len(got) == 5
    assert got[1].start == datetime(2009, 5, 11, 15, 30, tzinfo=timezone.utc)


def test_unbounded_and_multi_digit():
    r = parse_recurring_interval("R/2020-01-01/P1D")
    assert r.repetitions is None
    assert list(itertools.islice(r, 2))[1] == Interval(start=date(2020, 1, 2), end=date(2020, 1, 3))
    assert parse_recurring_interval("R12/2020-01-01/P1M").repetitions == 12
    assert parse_recurring_interval("R0/2020-01-01/P1M").repetitions == 0


def test_interval_part_accepts_everything_parse_interval_does():
    r = parse_recurring_interval("R2/2008-02-15/03-14")
    assert r.interval == parse_interval("2008-02-15/2008-03-14")
    r = parse_recurring_interval("R3/P1W--2008-01-31")
    assert r.interval.form == "duration/end"
    assert [x.end for x in r] == [date(2008, 1, 31), date(2008, 1, 24), date(2008, 1, 17)]


@pytest.mark.parametrize(
    "text",
    [
        "2008-03-01/P1D",
        "5/2008-03-01/P1D",
        "R-1/2008-03-01/P1D",
        "Rx/2008-03-01/P1D",
        "R5",
        "R5/",
        "R5/2008-03-01",
        "R5/P1D/P2D",
        "r5/2008-03-01/P1D",
    ],
)
def test_invalid(text):
    with pytest.raises(ISO8601Error):
        parse_recurring_interval(text)


@pytest.mark.parametrize(
    "text",
    [
        "R5/2008-03-01T13:00:00Z/P1Y2M10DT2H30M",
        "R/2020-01-01/P1D",
        "R2/P7D/2008-01-31",
        "R10/2008-02-15/2008-03-14",
    ],
)
def test_round_trip(text):
    r = parse_recurring_interval(text)
    assert recurring_interval_isoformat(r) == text
    assert str(r) == text
    assert parse_recurring_interval(str(r)) == r


def test_format_options():
    r = RecurringInterval(Interval(start=date(2008, 2, 15), end=date(2008, 3, 14)), 3)
    assert recurring_interval_isoformat(r, form="start/duration") == "R3/2008-02-15/P28D"
    assert recurring_interval_isoformat(r, separator="--") == "R3/2008-02-15--2008-03-14"
    unbounded = RecurringInterval(Interval(start=date(2020, 1, 1), duration=timedelta(days=1)))
    assert str(unbounded) == "R/2020-01-01/P1D"
