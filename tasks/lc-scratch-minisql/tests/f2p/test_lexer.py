"""Section 3: tokens and SQL errors."""

import pytest

from minisql.errors import SQLError, SQLNameError, SQLSyntaxError, SQLTypeError
from minisql.lexer import KEYWORDS, Token, tokenize


def kinds_values(sql):
    return [(t.kind, t.value) for t in tokenize(sql)]


def test_keywords_identifiers_and_positions():
    toks = tokenize("select Name from People")
    assert toks == [
        Token("KEYWORD", "SELECT", 0),
        Token("IDENT", "Name", 7),
        Token("KEYWORD", "FROM", 12),
        Token("IDENT", "People", 17),
        Token("EOF", None, 23),
    ]
    assert toks[0].kind == "KEYWORD" and toks[0].value == "SELECT" and toks[0].pos == 0


def test_keyword_set():
    for word in ["SELECT", "DISTINCT", "LEFT", "OUTER", "CROSS", "BETWEEN", "LIKE", "TRUE", "FALSE", "OFFSET"]:
        assert word in KEYWORDS
    for word in ["COUNT", "UPPER", "SUM"]:
        assert word not in KEYWORDS
    assert kinds_values("count(x)")[:2] == [("IDENT", "count"), ("OP", "(")]
    assert kinds_values("_tmp1 Distinct")[:2] == [("IDENT", "_tmp1"), ("KEYWORD", "DISTINCT")]


def test_numbers():
    toks = tokenize("42 1.5 2. .5 1e3 2.5E-2")
    values = [t.value for t in toks[:-1]]
    assert values == [42, 1.5, 2.0, 0.5, 1000.0, 0.025]
    assert [type(v) for v in values] == [int, float, float, float, float, float]
    assert all(t.kind == "NUMBER" for t in toks[:-1])
    assert kinds_values("-5") == [("OP", "-"), ("NUMBER", 5), ("EOF", None)]


def test_strings_and_quoted_identifiers():
    assert kinds_values("'it''s' \"order\" \"a \"\"b\"\"\"") == [
        ("STRING", "it's"),
        ("IDENT", "order"),
        ("IDENT", 'a "b"'),
        ("EOF", None),
    ]
    assert kinds_values("''") == [("STRING", ""), ("EOF", None)]


def test_operators_longest_match():
    ops = "<= >= <> != == || = < > + - * / % ( ) , . ;"
    assert [t.value for t in tokenize(ops)[:-1]] == ops.split()
    assert all(t.kind == "OP" for t in tokenize(ops)[:-1])
    assert [t.value for t in tokenize("a<=b")] == ["a", "<=", "b", None]
    assert [t.value for t in tokenize("t.x")] == ["t", ".", "x", None]


def test_comments_and_whitespace():
    toks = tokenize("SELECT 1 -- the answer\n\t, 2 --trailing")
    assert [(t.kind, t.value, t.pos) for t in toks] == [
        ("KEYWORD", "SELECT", 0),
        ("NUMBER", 1, 7),
        ("OP", ",", 24),
        ("NUMBER", 2, 26),
        ("EOF", None, 38),
    ]
    assert tokenize("") == [Token("EOF", None, 0)]


@pytest.mark.parametrize(
    ("sql", "pos"),
    [("SELECT 'abc", 7), ("SELECT a # b", 9), ("SELECT 12abc", 7), ('SELECT ""', 7), ("SELECT \"abc", 7), ("x ? y", 2)],
)
def test_errors_carry_position(sql, pos):
    with pytest.raises(SQLSyntaxError) as info:
        tokenize(sql)
    assert info.value.pos == pos
    assert str(info.value) == f"{info.value.message} at position {pos}"


def test_error_hierarchy():
    for cls in (SQLSyntaxError, SQLNameError, SQLTypeError):
        assert issubclass(cls, SQLError)
    assert issubclass(SQLError, Exception)
    err = SQLSyntaxError("boom", 3)
    assert (err.message, err.pos, str(err)) == ("boom", 3, "boom at position 3")
    assert str(SQLNameError("no such table: x")) == "no such table: x"
