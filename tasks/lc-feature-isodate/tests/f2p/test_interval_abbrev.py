"""parse_interval conveniences: '--' separator, abbreviated ends, time zone inheritance."""

from datetime import date, datetime, timedelta

import pytest

from isodate import FixedOffset, ISO8601Error, parse_interval


def test_double_hyphen_separator():
    assert parse_interval("2008-02-15--2008-03-14") == parse_interval("2008-02-15/2008-03-14")
    iv = parse_interval("2007-03-01T13:00:00Z--P1Y2M10DT2H30M")
    assert iv.form == "start/duration"
    iv = parse_interval("P1D--2008-03-14")
    assert iv.form == "duration/end"
    assert iv.start == date(2008, 3, 13)


def test_double_hyphen_with_negative_offsets():
    iv = parse_interval("2007-03-01T13:00:00-05:00--2007-03-01T15:00:00-05:00")
    assert iv.duration == timedelta(hours=2)


def test_abbreviated_month_day_and_day():
    iv = parse_interval("2008-02-15/03-14")
    assert (iv.start, iv.end) == (date(2008, 2, 15), date(2008, 3, 14))
    assert parse_interval("2007-11-13/15").end == date(2007, 11, 15)


def test_abbreviated_date_with_time():
    iv = parse_interval("2007-11-13T09:00/15T17:00")
    assert iv.start == datetime(2007, 11, 13, 9, 0)
    assert iv.end == datetime(2007, 11, 15, 17, 0)


def test_abbreviated_time_of_day():
    iv = parse_interval("2007-12-14T13:30/15:30")
    assert iv.end == datetime(2007, 12, 14, 15, 30)
    assert iv.duration == timedelta(hours=2)


def test_end_inherits_start_time_zone():
    iv = parse_interval("2007-12-14T13:30+01:00/15:30")
    assert iv.end.utcoffset() == timedelta(hours=1)
    assert iv.end == datetime(2007, 12, 14, 15, 30, tzinfo=FixedOffset(1, 0, "+01:00"))
    iv2 = parse_interval("2007-03-01T13:00:00Z/2008-05-11T15:30:00")
    assert iv2.end.utcoffset() == timedelta(0)
    assert iv2.end.hour == 15


def test_naive_start_with_aware_end_is_an_error():
    with pytest.raises(ISO8601Error):
        parse_interval("2007-12-14T13:30/2007-12-14T15:30Z")


@pytest.mark.parametrize("text", ["20080215/0314", "2008-W07-5/W08-1", "2008-046/074"])
def test_abbreviation_needs_extended_calendar_start(text):
    with pytest.raises(ISO8601Error):
        parse_interval(text)


def test_abbreviated_end_before_start_is_an_error():
    with pytest.raises(ISO8601Error):
        parse_interval("2008-02-15/01-14")
