import pytest

from csvstats.values import is_missing, parse_number


@pytest.mark.parametrize("text", ["", "  ", "NA", "n/a", "null", "None", "-", "NaN"])
def test_missing(text):
    assert is_missing(text)
    assert parse_number(text) is None


@pytest.mark.parametrize(("text", "value"), [("12", 12.0), (" 3.5 ", 3.5), ("-0.25", -0.25), ("1e3", 1000.0)])
def test_numbers(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["abc", "1,5", "inf", "12kg"])
def test_not_numbers(text):
    with pytest.raises(ValueError):
        parse_number(text)
