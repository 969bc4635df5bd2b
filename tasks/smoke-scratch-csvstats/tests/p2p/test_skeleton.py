"""The existing skeleton must keep working while the package grows."""

import pytest

import csvstats
from csvstats.values import MISSING, is_missing, parse_number


def test_version():
    assert csvstats.__version__ == "0.1.0"


@pytest.mark.parametrize("text", ["", "   ", "NA", "n/a", "NULL", "none", "-", "nan"])
def test_missing_markers(text):
    assert is_missing(text)
    assert parse_number(text) is None


def test_missing_set_is_unchanged():
    assert {"", "na", "n/a", "nan", "null", "none", "-"} == set(MISSING)


@pytest.mark.parametrize(
    ("text", "value"), [("0", 0.0), ("12", 12.0), (" 3.5 ", 3.5), ("-0.25", -0.25), ("1e3", 1000.0)]
)
def test_numbers(text, value):
    assert parse_number(text) == value
    assert isinstance(parse_number(text), float)


@pytest.mark.parametrize("text", ["abc", "1,5", "inf", "-Infinity", "12kg", "0x10"])
def test_not_numbers(text):
    assert not is_missing(text)
    with pytest.raises(ValueError):
        parse_number(text)
