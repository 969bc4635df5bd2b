"""Tests for ISO 8601 time intervals and recurring intervals."""

import itertools
from datetime import date, datetime, timedelta

import pytest

from isodate import (
    UTC,
    Duration,
    Interval,
    ISO8601Error,
    RecurringInterval,
    interval_isoformat,
    parse_interval,
    parse_recurring_interval,
    recurring_interval_isoformat,
)

INTERVALS = [
    # text, start, end, form
    (
        "2007-03-01T13:00:00Z/2008-05-11T15:30:00Z",
        datetime(2007, 3, 1, 13, 0, tzinfo=UTC),
        datetime(2008, 5, 11, 15, 30, tzinfo=UTC),
        "start/end",
    ),
    (
        "2007-03-01T13:00:00Z/P1Y2M10DT2H30M",
        datetime(2007, 3, 1, 13, 0, tzinfo=UTC),
        datetime(2008, 5, 11, 15, 30, tzinfo=UTC),
        "start/duration",
    ),
    (
        "P1Y2M10DT2H30M/2008-05-11T15:30:00Z",
        datetime(2007, 3, 1, 13, 0, tzinfo=UTC),
        datetime(2008, 5, 11, 15, 30, tzinfo=UTC),
        "duration/end",
    ),
    ("2008-02-15/2008-03-14", date(2008, 2, 15), date(2008, 3, 14), "start/end"),
]


@pytest.mark.parametrize("text, start, end, form", INTERVALS)
def test_parse_and_format(text, start, end, form):
    interval = parse_interval(text)
    assert (interval.start, interval.end, interval.form) == (start, end, form)
    assert interval_isoformat(interval) == text
    assert str(interval) == text


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2008-02-15/03-14", "2008-02-15/2008-03-14"),
        ("2007-11-13T09:00/15T17:00", "2007-11-13T09:00:00/2007-11-15T17:00:00"),
        ("2007-12-14T13:30+01:00/15:30", "2007-12-14T13:30:00+01:00/2007-12-14T15:30:00+01:00"),
        ("2008-02-15--2008-03-14", "2008-02-15/2008-03-14"),
    ],
)
def test_abbreviations(text, expected):
    assert str(parse_interval(text)) == expected


@pytest.mark.parametrize(
    "text", ["2008-02-15", "P1D/P1D", "2008-03-14/2008-02-15", "20080215/0314", "a/b"]
)
def test_parse_errors(text):
    with pytest.raises(ISO8601Error):
        parse_interval(text)


def test_interval_validation():
    with pytest.raises(ValueError):
        Interval(start=date(2020, 1, 1))
    with pytest.raises(TypeError):
        Interval(start="2020-01-01", duration=timedelta(days=1))
    with pytest.raises(ValueError):
        Interval(start=date(2020, 1, 1), end=datetime(2020, 1, 2))


def test_other_forms():
    interval = parse_interval("2008-02-15/03-14")
    assert interval_isoformat(interval, form="start/duration") == "2008-02-15/P28D"
    assert interval_isoformat(interval, form="duration/end", separator="--") == "P28D--2008-03-14"


def test_recurring():
    rec = parse_recurring_interval("R4/2008-01-31/P1M")
    assert rec.repetitions == 4
    assert [str(i) for i in rec] == [
        "2008-01-31/2008-02-29",
        "2008-02-29/2008-03-31",
        "2008-03-31/2008-04-30",
        "2008-04-30/2008-05-31",
    ]
    assert recurring_interval_isoformat(rec) == "R4/2008-01-31/P1M"
    backwards = parse_recurring_interval("R/P7D/2008-01-31")
    assert [i.start for i in itertools.islice(backwards, 2)] == [
        date(2008, 1, 24),
        date(2008, 1, 17),
    ]
    assert str(backwards) == "R/P7D/2008-01-31"
    with pytest.raises(ValueError):
        RecurringInterval(rec.interval, -1)


def test_queries():
    a = Interval(start=date(2020, 1, 10), end=date(2020, 1, 20))
    b = Interval(start=date(2020, 1, 15), duration=Duration(months=1))
    assert date(2020, 1, 10) in a and date(2020, 1, 20) not in a
    assert a.overlaps(b) and b.overlaps(a)
    assert a.intersection(b) == Interval(start=date(2020, 1, 15), end=date(2020, 1, 20))
    assert a.intersection(Interval(start=date(2020, 1, 20), end=date(2020, 1, 21))) is None
