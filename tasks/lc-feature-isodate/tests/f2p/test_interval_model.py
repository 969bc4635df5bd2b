"""The Interval data model: construction, derived components, validation, equality."""

from datetime import date, datetime, timedelta, timezone

import pytest

import isodate
from isodate import Duration, Interval


def test_exported_from_package():
    assert isodate.Interval is Interval
    assert "Interval" in isodate.__all__


def test_start_end_form_computes_duration():
    iv = Interval(start=date(2008, 2, 15), end=date(2008, 3, 14))
    assert iv.form == "start/end"
    assert iv.start == date(2008, 2, 15)
    assert iv.end == date(2008, 3, 14)
    assert iv.duration == timedelta(days=28)


def test_start_duration_form_computes_end_with_calendar_arithmetic():
    iv = Interval(start=date(2008, 1, 31), duration=Duration(months=1))
    assert iv.form == "start/duration"
    assert iv.end == date(2008, 2, 29)
    assert iv.duration == Duration(months=1)


def test_duration_end_form_computes_start():
    end = datetime(2008, 5, 11, 15, 30, tzinfo=timezone.utc)
    dur = Duration(years=1, months=2, days=10, hours=2, minutes=30)
    iv = Interval(duration=dur, end=end)
    assert iv.form == "duration/end"
    assert iv.start == datetime(2007, 3, 1, 13, 0, tzinfo=timezone.utc)
    assert iv.end == end


def test_positional_arguments_are_start_end_duration():
    iv = Interval(datetime(2020, 1, 1, 8), datetime(2020, 1, 1, 9, 30))
    assert iv.form == "start/end"
    assert iv.duration == timedelta(hours=1, minutes=30)
    iv2 = Interval(datetime(2020, 1, 1, 8), None, timedelta(hours=2))
    assert iv2.end == datetime(2020, 1, 1, 10)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"start": date(2020, 1, 1)},
        {"duration": timedelta(days=1)},
        {"start": date(2020, 1, 1), "end": date(2020, 1, 2), "duration": timedelta(days=1)},
    ],
)
def test_exactly_two_components_required(kwargs):
    with pytest.raises(ValueError):
        Interval(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": "2020-01-01", "end": date(2020, 1, 2)},
        {"start": date(2020, 1, 1), "end": 20200102},
        {"start": date(2020, 1, 1), "duration": 5},
        {"duration": "P1D", "end": date(2020, 1, 2)},
    ],
)
def test_wrong_component_types_raise_type_error(kwargs):
    with pytest.raises(TypeError):
        Interval(**kwargs)


def test_mixed_kinds_and_awareness_rejected():
    with pytest.raises(ValueError):
        Interval(start=date(2020, 1, 1), end=datetime(2020, 1, 2, 12))
    with pytest.raises(ValueError):
        Interval(start=datetime(2020, 1, 1, 12, tzinfo=timezone.utc), end=datetime(2020, 1, 2, 12))


def test_end_before_start_rejected_zero_length_allowed():
    with pytest.raises(ValueError):
        Interval(start=date(2020, 1, 2), end=date(2020, 1, 1))
    with pytest.raises(ValueError):
        Interval(start=datetime(2020, 1, 2), duration=timedelta(hours=-1))
    iv = Interval(start=date(2020, 1, 1), end=date(2020, 1, 1))
    assert iv.duration == timedelta(0)


def test_equality_ignores_form_and_hash_is_consistent():
    a = Interval(start=date(2008, 2, 15), end=date(2008, 3, 14))
    b = Interval(start=date(2008, 2, 15), duration=timedelta(days=28))
    c = Interval(duration=timedelta(days=28), end=date(2008, 3, 14))
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    assert a != Interval(start=date(2008, 2, 15), end=date(2008, 3, 15))
    assert a != "2008-02-15/2008-03-14"
    assert not (a == None)  # noqa: E711
    assert isinstance(repr(a), str) and repr(c)
