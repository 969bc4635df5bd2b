"""R1: csvstats.reader."""

import importlib

import pytest

SALES = "region,product,price,qty\nnorth,apple,4,1\nsouth,pear,10.5,NA\nnorth,plum,12,2\nsouth,apple,23.5,3\n"


def _reader():
    return importlib.import_module("csvstats.reader")


def test_parse_header_and_rows():
    table = _reader().parse_csv(SALES)
    assert table.columns == ["region", "product", "price", "qty"]
    assert len(table.rows) == 4
    assert table.rows[1] == {"region": "south", "product": "pear", "price": "10.5", "qty": "NA"}


def test_cells_are_stripped_and_quotes_honoured():
    table = _reader().parse_csv(' name , value \n"Smith, J." ,  7 \n')
    assert table.columns == ["name", "value"]
    assert table.rows == [{"name": "Smith, J.", "value": "7"}]


def test_blank_lines_skipped():
    table = _reader().parse_csv("\n\na,b\n1,2\n\n  ,  \n3,4\n\n")
    assert table.columns == ["a", "b"]
    assert [row["a"] for row in table.rows] == ["1", "3"]


def test_custom_delimiter():
    table = _reader().parse_csv("a;b\n1,5;2\n", delimiter=";")
    assert table.rows == [{"a": "1,5", "b": "2"}]


def test_header_only_is_valid():
    table = _reader().parse_csv("a,b\n")
    assert table.columns == ["a", "b"]
    assert table.rows == []


@pytest.mark.parametrize("text", ["", "\n\n", "a,a\n1,2\n", "a,,c\n1,2,3\n"])
def test_invalid_header(text):
    with pytest.raises(ValueError):
        _reader().parse_csv(text)


def test_wrong_field_count_reports_line_number():
    text = "a,b\n1,2\n3,4\n5\n"
    with pytest.raises(ValueError, match="line 4"):
        _reader().parse_csv(text)
    with pytest.raises(ValueError, match="line 3"):
        _reader().parse_csv("a,b\n\n1,2,3\n")


def test_read_csv_file_with_bom(tmp_path):
    path = tmp_path / "data.csv"
    path.write_bytes("\ufeffcity,temp\nOslo,-3.5\nRome,12\n".encode())
    table = _reader().read_csv(path)
    assert table.columns == ["city", "temp"]
    assert table.column("temp") == ["-3.5", "12"]
    tsv = tmp_path / "data.tsv"
    tsv.write_text("x\ty\n1\t2\n", encoding="utf-8")
    assert _reader().read_csv(tsv, delimiter="\t").rows == [{"x": "1", "y": "2"}]


def test_column_access():
    table = _reader().parse_csv(SALES)
    assert table.column("product") == ["apple", "pear", "plum", "apple"]
    with pytest.raises(KeyError):
        table.column("colour")


def test_numeric_skips_missing_values():
    table = _reader().parse_csv(SALES)
    assert table.numeric("price") == [4.0, 10.5, 12.0, 23.5]
    assert table.numeric("qty") == [1.0, 2.0, 3.0]
    with pytest.raises(ValueError):
        table.numeric("product")
    with pytest.raises(KeyError):
        table.numeric("colour")


def test_numeric_columns():
    text = "id,name,score,empty,mixed\n1,ann,3.5,,1\n2,bob,NA,NA,x\n3,cy,4,,2\n"
    assert _reader().parse_csv(text).numeric_columns() == ["id", "score"]
