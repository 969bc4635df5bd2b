"""Section 5: evaluation, NULL semantics and type coercion."""

import math

import pytest

from minisql.errors import SQLError, SQLNameError, SQLTypeError
from minisql.expr import AGGREGATES, compare, contains_aggregate, evaluate, is_true, sort_key, to_number, to_text
from minisql.parser import parse_expression


def ev(text, row=None):
    return evaluate(parse_expression(text), row)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1 + 2 * 3", 7),
        ("7 / 2", 3),
        ("-7 / 2", -3),
        ("7 % 3", 1),
        ("-7 % 3", -1),
        ("7.0 / 2", 3.5),
        ("1 / 0", None),
        ("5 % 0", None),
        ("2 * 1.5", 3.0),
        ("'3' + 4", 7),
        ("' 2.5 ' * 2", 5.0),
        ("-'4'", -4),
        ("1 + NULL", None),
        ("-NULL", None),
    ],
)
def test_arithmetic(text, value):
    got = ev(text)
    assert got == value
    assert type(got) is type(value)


def test_float_remainder_uses_fmod():
    assert ev("-7.5 % 2") == math.fmod(-7.5, 2)


def test_arithmetic_type_errors():
    with pytest.raises(SQLTypeError):
        ev("'abc' + 1")
    with pytest.raises(SQLTypeError):
        ev("-'x'")
    assert issubclass(SQLTypeError, SQLError)


def test_comparison_and_coercion():
    assert ev("1 = 1.0") == 1
    assert ev("'10' > 9") == 1
    assert ev("'abc' > 99999") == 1
    assert ev("'B' < 'a'") == 1
    assert ev("'a' = 'A'") == 0
    assert ev("2 <> 3") == 1
    assert ev("NULL = NULL") is None
    assert ev("1 < NULL") is None
    assert compare(1, 2) == -1 and compare("x", 5) == 1 and compare(5, "5.0") == 0
    assert compare(None, 1) is None


def test_three_valued_logic():
    assert ev("NOT NULL") is None
    assert ev("0 AND NULL") == 0
    assert ev("NULL AND 0") == 0
    assert ev("1 AND NULL") is None
    assert ev("1 OR NULL") == 1
    assert ev("NULL OR 1") == 1
    assert ev("0 OR NULL") is None
    assert ev("NOT 0") == 1 and ev("NOT 5") == 0
    assert ev("1 AND 2") == 1


def test_is_null_in_between():
    assert ev("NULL IS NULL") == 1 and ev("0 IS NULL") == 0 and ev("NULL IS NOT NULL") == 0
    assert ev("2 IN (1, 2, 3)") == 1
    assert ev("4 IN (1, 2, 3)") == 0
    assert ev("4 IN (1, NULL)") is None
    assert ev("1 IN (1, NULL)") == 1
    assert ev("3 NOT IN (1, NULL)") is None
    assert ev("3 NOT IN (1, 2)") == 1
    assert ev("NULL IN (1)") is None
    assert ev("'2' IN (1, 2)") == 1
    assert ev("5 BETWEEN 1 AND 5") == 1
    assert ev("0 BETWEEN 1 AND 5") == 0
    assert ev("0 NOT BETWEEN 1 AND 5") == 1
    assert ev("3 BETWEEN NULL AND 5") is None
    assert ev("9 BETWEEN NULL AND 5") == 0


def test_like_and_concat():
    assert ev("'Alice' LIKE 'a%'") == 1
    assert ev("'Alice' LIKE 'A_ice'") == 1
    assert ev("'Alice' LIKE 'lic'") == 0
    assert ev("'a.c' LIKE 'a.c'") == 1 and ev("'abc' LIKE 'a.c'") == 0
    assert ev("'Alice' NOT LIKE '%z%'") == 1
    assert ev("NULL LIKE '%'") is None
    assert ev("123 LIKE '1%'") == 1
    assert ev("'n=' || 2.0") == "n=2.0"
    assert ev("'a' || 1 || 'b'") == "a1b"
    assert ev("'a' || NULL") is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("UPPER('abc')", "ABC"),
        ("lower('ÀBC')", "àbc"),
        ("LENGTH('hello')", 5),
        ("LENGTH(12.5)", 4),
        ("ABS(-3)", 3),
        ("ABS('-2.5')", 2.5),
        ("ROUND(2.5)", 3.0),
        ("ROUND(-2.5)", -3.0),
        ("ROUND(2.675, 2)", 2.68),
        ("ROUND(7)", 7.0),
        ("COALESCE(NULL, NULL, 'x', 'y')", "x"),
        ("COALESCE(NULL)", None),
        ("NULLIF(3, 3.0)", None),
        ("NULLIF(3, 4)", 3),
        ("UPPER(NULL)", None),
        ("ROUND(NULL)", None),
    ],
)
def test_scalar_functions(text, value):
    got = ev(text)
    assert got == value
    assert type(got) is type(value)


def test_function_errors():
    with pytest.raises(SQLNameError, match="no such function: SUBSTR"):
        ev("substr('abc', 1)")
    with pytest.raises(SQLError):
        ev("UPPER('a', 'b')")
    with pytest.raises(SQLError, match="aggregate"):
        ev("COUNT(x)", {"x": 1})


def test_columns_lookup():
    row = {"name": "Ann", "e.salary": 10}
    assert ev("Name", row) == "Ann"
    assert ev("E.Salary * 2", row) == 20
    with pytest.raises(SQLNameError, match="no such column: missing"):
        ev("missing", row)
    with pytest.raises(SQLNameError, match="no such column: x.name"):
        ev("x.name", row)
    with pytest.raises(SQLNameError):
        ev("name")


def test_helpers():
    values = ["b", 2, None, 1.5, "B", -1]
    assert sorted(values, key=sort_key) == [None, -1, 1.5, 2, "B", "b"]
    assert sort_key(1) == sort_key(1.0)
    assert sort_key(1) != sort_key("1")
    assert [is_true(v) for v in [None, 0, 1, -2.5, 0.0, "abc", "0", "3"]] == [False, False, True, True, False, False, False, True]
    assert to_number("12") == 12 and to_number(" 1e2 ") == 100.0 and to_number(None) is None
    with pytest.raises(SQLTypeError):
        to_number("12kg")
    assert to_text(3.0) == "3.0" and to_text(7) == "7" and to_text(None) is None
    assert AGGREGATES == {"COUNT", "SUM", "AVG", "MIN", "MAX"}
    assert contains_aggregate(parse_expression("1 + max(x)"))
    assert contains_aggregate(parse_expression("x IN (1, COUNT(*))"))
    assert not contains_aggregate(parse_expression("upper(x) || 'count'"))
