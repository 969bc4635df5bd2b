"""Text parsing: negative bounds and blank lists."""

import pytest

from intervals import Interval, format_interval, parse_interval, parse_list


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[-3, 4)", Interval(-3, 4)),
        ("[-10, -2)", Interval(-10, -2)),
        ("  [-1,0)  ", Interval(-1, 0)),
    ],
)
def test_parse_negative_bounds(text, expected):
    assert parse_interval(text) == expected


def test_negative_roundtrip():
    iv = Interval(-7, -1)
    assert parse_interval(format_interval(iv)) == iv


@pytest.mark.parametrize("text", ["", "   "])
def test_parse_blank_list(text):
    assert parse_list(text) == []


def test_parse_list_with_negative_bounds():
    assert parse_list("[-5, -1); [2, 3)") == [Interval(-5, -1), Interval(2, 3)]
