"""Tests for the provided typed CSV loader (docs/REQUIREMENTS.md, section 2)."""

import pytest

from minisql.csvtable import CSVTableError, Table, convert_cell, load_table, parse_csv_table


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("", None),
        ("   ", None),
        ("42", 42),
        (" -7 ", -7),
        ("+3", 3),
        ("007", 7),
        ("1.5", 1.5),
        (".5", 0.5),
        ("2.", 2.0),
        ("1e3", 1000.0),
        ("-2.5E-1", -0.25),
        ("NULL", "NULL"),
        ("nan", "nan"),
        ("inf", "inf"),
        ("12kg", "12kg"),
        (" Alice ", "Alice"),
        ("2015-03-01", "2015-03-01"),
    ],
)
def test_convert_cell(text, value):
    got = convert_cell(text)
    assert got == value
    assert type(got) is type(value)


def test_parse_table():
    t = parse_csv_table('id, Name ,score\n\n1,"Smith, J.",2.5\n2,,\n', "people")
    assert isinstance(t, Table)
    assert t.name == "people"
    assert t.columns == ["id", "Name", "score"]
    assert t.rows == [(1, "Smith, J.", 2.5), (2, None, None)]
    assert t.column_index("name") == 1
    with pytest.raises(KeyError):
        t.column_index("missing")


@pytest.mark.parametrize(
    "text",
    ["", "\n\n", "a,A\n1,2\n", "a,,c\n", "a,1b\n", "a,b c\n", "a,b\n1,2,3\n"],
)
def test_parse_table_errors(text):
    with pytest.raises(CSVTableError):
        parse_csv_table(text, "t")


def test_field_count_error_names_line():
    with pytest.raises(CSVTableError, match="line 3"):
        parse_csv_table("a,b\n1,2\n3\n", "t")


def test_load_table(tmp_path):
    path = tmp_path / "Scores.csv"
    path.write_bytes("\ufeffid,score\n1,9.5\n".encode("utf-8"))
    t = load_table(path)
    assert t.name == "scores"
    assert t.columns == ["id", "score"]
    assert t.rows == [(1, 9.5)]
