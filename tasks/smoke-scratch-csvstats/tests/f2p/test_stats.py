"""R2: csvstats.stats."""

import importlib
import statistics

import pytest

SALES = "region,product,price,qty\nnorth,apple,4,1\nsouth,pear,10.5,NA\nnorth,plum,12,2\nsouth,apple,23.5,3\n"
KEYS = ["count", "mean", "median", "stdev", "min", "max"]


def _stats():
    return importlib.import_module("csvstats.stats")


def _table(text=SALES):
    return importlib.import_module("csvstats.reader").parse_csv(text)


def test_summarize_odd_count():
    s = _stats().summarize([3, 1, 2])
    assert list(s) == KEYS
    assert s["count"] == 3 and isinstance(s["count"], int)
    assert s["mean"] == pytest.approx(2.0)
    assert s["median"] == pytest.approx(2.0)
    assert s["stdev"] == pytest.approx(1.0)
    assert (s["min"], s["max"]) == (1, 3)


def test_summarize_even_count_median_is_mean_of_middle_values():
    values = [4.0, 10.5, 12.0, 23.5]
    s = _stats().summarize(values)
    assert s["median"] == pytest.approx(11.25)
    assert s["mean"] == pytest.approx(12.5)
    assert s["stdev"] == pytest.approx(statistics.stdev(values))


def test_summarize_single_and_empty():
    one = _stats().summarize([7.5])
    assert one == {"count": 1, "mean": 7.5, "median": 7.5, "stdev": None, "min": 7.5, "max": 7.5}
    none = _stats().summarize([])
    assert none == {"count": 0, "mean": None, "median": None, "stdev": None, "min": None, "max": None}
    assert list(none) == KEYS


def test_summarize_accepts_generators():
    assert _stats().summarize(x for x in (2.0, 4.0))["mean"] == pytest.approx(3.0)


def test_describe_defaults_to_numeric_columns():
    result = _stats().describe(_table())
    assert list(result) == ["price", "qty"]
    assert result["qty"]["count"] == 3
    assert result["price"]["max"] == pytest.approx(23.5)


def test_describe_selected_columns_in_given_order():
    result = _stats().describe(_table(), ["qty", "price"])
    assert list(result) == ["qty", "price"]
    with pytest.raises(KeyError):
        _stats().describe(_table(), ["colour"])
    with pytest.raises(ValueError):
        _stats().describe(_table(), ["product"])


def test_group_by():
    result = _stats().group_by(_table(), "region", "price")
    assert list(result) == ["north", "south"]
    assert result["north"]["count"] == 2
    assert result["north"]["mean"] == pytest.approx(8.0)
    assert result["south"]["median"] == pytest.approx(17.0)
    assert result["south"]["min"] == pytest.approx(10.5)


def test_group_by_missing_keys_and_values():
    text = "team,points\nb,1\na,NA\n,5\nNA,6\nb,3\nc,2\n"
    result = _stats().group_by(_table(text), "team", "points")
    assert list(result) == ["a", "b", "c"]
    assert result["a"]["count"] == 0
    assert result["a"]["mean"] is None
    assert result["b"]["mean"] == pytest.approx(2.0)
    assert sum(s["count"] for s in result.values()) == 3


def test_group_by_errors():
    with pytest.raises(KeyError):
        _stats().group_by(_table(), "colour", "price")
    with pytest.raises(KeyError):
        _stats().group_by(_table(), "region", "weight")
    with pytest.raises(ValueError):
        _stats().group_by(_table(), "region", "product")
