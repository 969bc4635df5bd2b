"""interval_isoformat and str(Interval)."""

from datetime import date, datetime, timedelta

import pytest

import isodate
from isodate import UTC, Duration, FixedOffset, Interval, interval_isoformat, parse_interval


def test_exported_from_package():
    assert isodate.interval_isoformat is interval_isoformat
    assert "interval_isoformat" in isodate.__all__


def test_dates_in_own_form():
    iv = Interval(start=date(2008, 2, 15), end=date(2008, 3, 14))
    assert interval_isoformat(iv) == "2008-02-15/2008-03-14"
    assert str(iv) == "2008-02-15/2008-03-14"


def test_each_form_written_as_given():
    start = datetime(2007, 3, 1, 13, 0, tzinfo=UTC)
    dur = Duration(years=1, months=2, days=10, hours=2, minutes=30)
    assert str(Interval(start=start, duration=dur)) == "2007-03-01T13:00:00Z/P1Y2M10DT2H30M"
    end = datetime(2008, 5, 11, 15, 30, tzinfo=UTC)
    assert str(Interval(duration=dur, end=end)) == "P1Y2M10DT2H30M/2008-05-11T15:30:00Z"
    assert str(Interval(start=start, end=end)) == "2007-03-01T13:00:00Z/2008-05-11T15:30:00Z"


def test_form_argument_converts():
    iv = parse_interval("2008-02-15/03-14")
    assert interval_isoformat(iv, form="start/duration") == "2008-02-15/P28D"
    assert interval_isoformat(iv, form="duration/end") == "P28D/2008-03-14"
    iv2 = parse_interval("2007-03-01T13:00:00Z/P1Y2M10DT2H30M")
    assert interval_isoformat(iv2, form="start/end") == "2007-03-01T13:00:00Z/2008-05-11T15:30:00Z"


def test_offsets_naive_and_microseconds():
    tz = FixedOffset(1, 0, "+01:00")
    iv = Interval(start=datetime(2007, 3, 1, 13, 0, tzinfo=tz), duration=timedelta(hours=2))
    assert str(iv) == "2007-03-01T13:00:00+01:00/PT2H"
    naive = Interval(start=datetime(2007, 3, 1, 13, 0), end=datetime(2007, 3, 1, 14, 0))
    assert str(naive) == "2007-03-01T13:00:00/2007-03-01T14:00:00"
    micro = Interval(start=datetime(2007, 3, 1, 13, 0, 0, 250000, tzinfo=UTC),
                     end=datetime(2007, 3, 1, 14, 0, tzinfo=UTC))
    assert str(micro) == "2007-03-01T13:00:00.250000Z/2007-03-01T14:00:00Z"


def test_separator_option():
    iv = Interval(start=date(2008, 2, 15), end=date(2008, 3, 14))
    assert interval_isoformat(iv, separator="--") == "2008-02-15--2008-03-14"
    with pytest.raises(ValueError):
        interval_isoformat(iv, separator="|")


def test_unknown_form_rejected():
    iv = Interval(start=date(2008, 2, 15), end=date(2008, 3, 14))
    with pytest.raises(ValueError):
        interval_isoformat(iv, form="end/start")


@pytest.mark.parametrize(
    "text",
    [
        "2007-03-01T13:00:00Z/2008-05-11T15:30:00Z",
        "2007-03-01T13:00:00Z/P1Y2M10DT2H30M",
        "P1Y2M10DT2H30M/2008-05-11T15:30:00Z",
        "2008-02-15/2008-03-14",
        "2007-03-01T13:00:00-05:00/PT1H30M",
    ],
)
def test_round_trip(text):
    iv = parse_interval(text)
    assert interval_isoformat(iv) == text
    assert parse_interval(str(iv)) == iv
