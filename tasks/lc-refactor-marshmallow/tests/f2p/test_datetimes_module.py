"""Sub-step 4: date/time helpers live in ``marshmallow.datetimes``."""

import datetime as dt
import importlib
import warnings

import pytest

from marshmallow import Schema, fields, utils
from marshmallow.warnings import RemovedInMarshmallow4Warning

NAMES = [
    "is_aware",
    "from_rfc",
    "rfcformat",
    "get_fixed_timezone",
    "from_iso_datetime",
    "from_iso_time",
    "from_iso_date",
    "isoformat",
    "to_iso_time",
    "to_iso_date",
]

AWARE = dt.datetime(2013, 11, 10, 1, 23, 45, tzinfo=dt.timezone(dt.timedelta(hours=-6)))

CALLS = {
    "is_aware": (AWARE,),
    "from_rfc": ("Sun, 10 Nov 2013 01:23:45 -0000",),
    "rfcformat": (dt.datetime(2013, 11, 10, 1, 23, 45),),
    "get_fixed_timezone": (-300,),
    "from_iso_datetime": ("2013-11-10T01:23:45-06:00",),
    "from_iso_time": ("01:23:45.123",),
    "from_iso_date": ("2013-11-10",),
    "isoformat": (dt.datetime(2013, 11, 10, 1, 23, 45),),
    "to_iso_time": (dt.time(1, 23, 45),),
    "to_iso_date": (dt.date(2013, 11, 10),),
}


def _datetimes():
    return importlib.import_module("marshmallow.datetimes")


def test_module_has_all_helpers():
    mod = _datetimes()
    for name in NAMES:
        assert callable(getattr(mod, name)), name


def test_helpers_keep_their_behaviour():
    mod = _datetimes()
    parsed = mod.from_iso_datetime("2013-11-10T01:23:45-06:00")
    assert parsed == AWARE
    assert parsed.utcoffset() == dt.timedelta(hours=-6)
    assert mod.from_iso_datetime("2013-11-10T01:23:45Z").tzinfo == dt.timezone.utc
    assert mod.from_iso_date("2013-11-10") == dt.date(2013, 11, 10)
    assert mod.from_iso_time("01:23:45.123") == dt.time(1, 23, 45, 123000)
    assert mod.isoformat(dt.datetime(2013, 11, 10, 1, 23, 45)) == "2013-11-10T01:23:45"
    assert mod.to_iso_date(dt.date(2013, 11, 10)) == "2013-11-10"
    assert mod.to_iso_time(dt.time(1, 23, 45)) == "01:23:45"
    assert mod.get_fixed_timezone(-300).utcoffset(None) == dt.timedelta(hours=-5)
    assert mod.is_aware(AWARE) and not mod.is_aware(dt.datetime(2013, 1, 1))
    naive = dt.datetime(2013, 11, 10, 1, 23, 45)
    assert mod.rfcformat(naive) == "Sun, 10 Nov 2013 01:23:45 -0000"
    assert mod.from_rfc("Sun, 10 Nov 2013 01:23:45 -0000") == naive
    with pytest.raises(ValueError):
        mod.from_iso_date("10/11/2013")


@pytest.mark.parametrize("name", NAMES)
def test_utils_aliases_are_deprecated(name):
    mod = _datetimes()
    args = CALLS[name]
    with pytest.warns(RemovedInMarshmallow4Warning) as record:
        result = getattr(utils, name)(*args)
    assert any(f"marshmallow.datetimes.{name}" in str(w.message) for w in record)
    assert result == getattr(mod, name)(*args)


def test_deprecation_is_a_deprecation_warning():
    with pytest.warns(DeprecationWarning):
        utils.from_iso_date("2013-11-10")


def test_fields_do_not_use_deprecated_helpers():
    mod = _datetimes()

    class EventSchema(Schema):
        when = fields.DateTime()
        when_rfc = fields.DateTime(format="rfc")
        naive = fields.NaiveDateTime()
        aware = fields.AwareDateTime(default_timezone=dt.timezone.utc)
        day = fields.Date()
        at = fields.Time()

    obj = {
        "when": AWARE,
        "when_rfc": dt.datetime(2013, 11, 10, 1, 23, 45),
        "naive": dt.datetime(2013, 11, 10, 1, 23, 45),
        "aware": AWARE,
        "day": dt.date(2013, 11, 10),
        "at": dt.time(1, 23, 45),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        dumped = EventSchema().dump(obj)
        loaded = EventSchema().load(dumped)
    assert dumped["when"] == "2013-11-10T01:23:45-06:00"
    assert dumped["when_rfc"] == "Sun, 10 Nov 2013 01:23:45 -0000"
    assert dumped["day"] == "2013-11-10"
    assert dumped["at"] == "01:23:45"
    assert loaded["when"] == AWARE == mod.from_iso_datetime(dumped["when"])
    assert loaded["when_rfc"] == mod.from_rfc(dumped["when_rfc"])
    assert loaded["day"] == dt.date(2013, 11, 10)
    assert loaded["at"] == dt.time(1, 23, 45)
