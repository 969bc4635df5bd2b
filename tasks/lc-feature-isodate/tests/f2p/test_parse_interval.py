"""parse_interval: the three full ISO 8601 interval forms and their errors."""

from datetime import date, datetime, timedelta, timezone

import pytest

import isodate
from isodate import Duration, Interval, ISO8601Error, parse_interval

UTC_OFFSET = timedelta(0)


def test_exported_from_package():
    assert isodate.parse_interval is parse_interval
    assert "parse_interval" in isodate.__all__


def test_start_end_datetimes():
    iv = parse_interval("2007-03-01T13:00:00Z/2008-05-11T15:30:00Z")
    assert isinstance(iv, Interval)
    assert iv.form == "start/end"
    assert iv.start == datetime(2007, 3, 1, 13, 0, tzinfo=timezone.utc)
    assert iv.end == datetime(2008, 5, 11, 15, 30, tzinfo=timezone.utc)
    assert iv.start.utcoffset() == UTC_OFFSET


def test_start_duration():
    iv = parse_interval("2007-03-01T13:00:00Z/P1Y2M10DT2H30M")
    assert iv.form == "start/duration"
    assert iv.duration == Duration(years=1, months=2, days=10, hours=2, minutes=30)
    assert iv.end == datetime(2008, 5, 11, 15, 30, tzinfo=timezone.utc)


def test_duration_end():
    iv = parse_interval("P1Y2M10DT2H30M/2008-05-11T15:30:00Z")
    assert iv.form == "duration/end"
    assert iv.start == datetime(2007, 3, 1, 13, 0, tzinfo=timezone.utc)
    assert iv == parse_interval("2007-03-01T13:00:00Z/2008-05-11T15:30:00Z")


def test_dates_and_time_only_duration():
    iv = parse_interval("2008-02-15/2008-03-14")
    assert (iv.start, iv.end) == (date(2008, 2, 15), date(2008, 3, 14))
    assert type(iv.start) is date and type(iv.end) is date
    iv2 = parse_interval("2008-02-15T08:00/PT36H")
    assert iv2.end == datetime(2008, 2, 16, 20, 0)


def test_other_date_representations():
    assert parse_interval("20080215/20080314").end == date(2008, 3, 14)
    assert parse_interval("2008-W07-5/P1W").start == date(2008, 2, 15)
    assert parse_interval("2008-046/2008-074") == parse_interval("2008-02-15/2008-03-14")


@pytest.mark.parametrize(
    "text",
    [
        "2008-02-15",
        "2008-02-15/2008-03-14/2008-04-01",
        "/2008-03-14",
        "2008-02-15/",
        "P1D/P2D",
        "garbage/2008-03-14",
        "2008-02-15/P1X",
        "2008-03-14/2008-02-15",
        "2008-02-15/2008-03-14T10:00:00",
        "2008-02-15T10:00:00Z/2008-03-14T10:00:00+01:00x",
    ],
)
def test_invalid_texts_raise_iso8601_error(text):
    with pytest.raises(ISO8601Error):
        parse_interval(text)


def test_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_interval("P1D/P1D")
