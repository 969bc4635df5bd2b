import pytest

from intervals import Interval, format_interval, merge, parse_interval, total_length


def test_length():
    assert Interval(1, 5).length == 4
    assert Interval(3, 3).is_empty()


def test_end_before_start_rejected():
    with pytest.raises(ValueError):
        Interval(5, 1)


def test_merge_overlapping():
    assert merge([Interval(1, 4), Interval(2, 6)]) == [Interval(1, 6)]


def test_total_length_disjoint():
    assert total_length([Interval(0, 2), Interval(5, 7)]) == 4


def test_text_roundtrip():
    assert parse_interval(format_interval(Interval(2, 9))) == Interval(2, 9)
