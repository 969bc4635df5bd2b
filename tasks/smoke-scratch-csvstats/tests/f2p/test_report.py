"""R3: csvstats.report.format_report."""

import importlib
import json

import pytest

STATS = {
    "price": {"count": 4, "mean": 12.5, "median": 11.25, "stdev": 8.113774191303, "min": 4.0, "max": 23.5},
    "qty": {"count": 3, "mean": 2.0, "median": 2.0, "stdev": 1.0, "min": 1.0, "max": 3.0},
}
EMPTY = {"count": 0, "mean": None, "median": None, "stdev": None, "min": None, "max": None}


def _fmt(*args, **kwargs):
    return importlib.import_module("csvstats.report").format_report(*args, **kwargs)


def test_table_is_default_format():
    assert _fmt(STATS) == (
        "name   count   mean  median  stdev   min    max\n"
        "-----  -----  -----  ------  -----  ----  -----\n"
        "price      4  12.50   11.25   8.11  4.00  23.50\n"
        "qty        3   2.00    2.00   1.00  1.00   3.00\n"
    )


def test_table_missing_values_and_long_names():
    b = {**EMPTY, "count": 1, "mean": 1.0, "median": 1.0, "min": 1.0, "max": 1.0}
    stats = {"a_long_column_name": EMPTY, "b": b}
    assert _fmt(stats, "table", precision=1) == (
        "name                count  mean  median  stdev  min  max\n"
        "------------------  -----  ----  ------  -----  ---  ---\n"
        "a_long_column_name      0     -       -      -    -    -\n"
        "b                       1   1.0     1.0      -  1.0  1.0\n"
    )


def test_csv():
    assert _fmt(STATS, "csv") == (
        "name,count,mean,median,stdev,min,max\n"
        "price,4,12.50,11.25,8.11,4.00,23.50\n"
        "qty,3,2.00,2.00,1.00,1.00,3.00\n"
    )


def test_csv_precision_and_missing():
    y = {"count": 2, "mean": 12.4, "median": 11.7, "stdev": 8.1, "min": 4.2, "max": 23.6}
    assert _fmt({"x": EMPTY, "y": y}, "csv", precision=0) == (
        "name,count,mean,median,stdev,min,max\n"
        "x,0,,,,,\n"
        "y,2,12,12,8,4,24\n"
    )


def test_csv_quotes_names_with_delimiter():
    out = _fmt({"Smith, J.": STATS["qty"]}, "csv")
    assert out.splitlines()[1] == '"Smith, J.",3,2.00,2.00,1.00,1.00,3.00'


def test_json():
    out = _fmt({"price": STATS["price"], "none": EMPTY}, "json", precision=3)
    assert out.endswith("\n")
    doc = json.loads(out)
    assert doc == {
        "price": {"count": 4, "mean": 12.5, "median": 11.25, "stdev": 8.114, "min": 4.0, "max": 23.5},
        "none": EMPTY,
    }
    assert list(doc) == ["price", "none"]
    assert list(doc["price"]) == ["count", "mean", "median", "stdev", "min", "max"]
    assert out == json.dumps(doc, indent=2) + "\n"


def test_empty_mapping():
    assert _fmt({}, "csv") == "name,count,mean,median,stdev,min,max\n"
    assert json.loads(_fmt({}, "json")) == {}


@pytest.mark.parametrize(("fmt", "precision"), [("xml", 2), ("table", -1)])
def test_invalid_arguments(fmt, precision):
    with pytest.raises(ValueError):
        _fmt(STATS, fmt, precision=precision)
