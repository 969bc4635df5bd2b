"""Section 4: grammar, syntax tree and syntax errors."""

import pytest

from minisql.ast import (
    Between,
    Binary,
    Call,
    Column,
    InList,
    IsNull,
    Join,
    Like,
    Literal,
    OrderItem,
    Select,
    SelectItem,
    Star,
    TableRef,
    Unary,
)
from minisql.errors import SQLSyntaxError
from minisql.parser import parse, parse_expression, parse_script


def test_precedence_arithmetic():
    assert parse_expression("1 + 2 * 3") == Binary("+", Literal(1), Binary("*", Literal(2), Literal(3)))
    assert parse_expression("(1 + 2) * 3") == Binary("*", Binary("+", Literal(1), Literal(2)), Literal(3))
    assert parse_expression("10 - 4 - 3") == Binary("-", Binary("-", Literal(10), Literal(4)), Literal(3))
    assert parse_expression("-a * 2") == Binary("*", Unary("-", Column("a")), Literal(2))
    assert parse_expression("'a' || b + 1") == Binary("+", Binary("||", Literal("a"), Column("b")), Literal(1))


def test_precedence_logic():
    assert parse_expression("a = 1 OR b = 2 AND NOT c") == Binary(
        "OR",
        Binary("=", Column("a"), Literal(1)),
        Binary("AND", Binary("=", Column("b"), Literal(2)), Unary("NOT", Column("c"))),
    )
    assert parse_expression("NOT NOT x") == Unary("NOT", Unary("NOT", Column("x")))


def test_normalisations():
    assert parse_expression("a != b") == Binary("<>", Column("a"), Column("b"))
    assert parse_expression("a == b") == Binary("=", Column("a"), Column("b"))
    assert parse_expression("TRUE") == Literal(1)
    assert parse_expression("false") == Literal(0)
    assert parse_expression("NULL") == Literal(None)
    assert parse_expression("e.Name") == Column("Name", "e")
    assert parse_expression("upper(x)") == Call("UPPER", (Column("x"),))


def test_predicates():
    assert parse_expression("x IS NULL") == IsNull(Column("x"), False)
    assert parse_expression("x IS NOT NULL") == IsNull(Column("x"), True)
    assert parse_expression("x NOT IN (1, 'a', NULL)") == InList(Column("x"), (Literal(1), Literal("a"), Literal(None)), True)
    assert parse_expression("x BETWEEN 1 AND 5 AND y") == Binary(
        "AND", Between(Column("x"), Literal(1), Literal(5), False), Column("y")
    )
    assert parse_expression("x NOT BETWEEN a + 1 AND 9") == Between(
        Column("x"), Binary("+", Column("a"), Literal(1)), Literal(9), True
    )
    assert parse_expression("name LIKE 'A%'") == Like(Column("name"), Literal("A%"), False)
    assert parse_expression("name NOT LIKE 'A%'") == Like(Column("name"), Literal("A%"), True)


def test_function_calls():
    assert parse_expression("COUNT(*)") == Call("COUNT", (), False, True)
    assert parse_expression("count(DISTINCT city)") == Call("COUNT", (Column("city"),), True, False)
    assert parse_expression("coalesce(a, b, 0)") == Call("COALESCE", (Column("a"), Column("b"), Literal(0)))
    assert parse_expression("f()") == Call("F", ())


def test_full_select():
    q = parse(
        "SELECT DISTINCT e.name AS n, salary * 2 doubled, COUNT(*) FROM employees AS e "
        "WHERE salary > 10 GROUP BY e.name, salary HAVING COUNT(*) > 1 "
        "ORDER BY n DESC, 2 LIMIT 5 OFFSET 10;"
    )
    assert isinstance(q, Select)
    assert q.distinct is True
    assert q.items == (
        SelectItem(Column("name", "e"), "n"),
        SelectItem(Binary("*", Column("salary"), Literal(2)), "doubled"),
        SelectItem(Call("COUNT", (), False, True), None),
    )
    assert q.items[1].text == "salary * 2"
    assert q.items[2].text == "COUNT(*)"
    assert q.from_ == TableRef("employees", "e")
    assert q.joins == ()
    assert q.where == Binary(">", Column("salary"), Literal(10))
    assert q.group_by == (Column("name", "e"), Column("salary"))
    assert q.having == Binary(">", Call("COUNT", (), False, True), Literal(1))
    assert q.order_by == (OrderItem(Column("n"), True), OrderItem(Literal(2), False))
    assert (q.limit, q.offset) == (5, 10)


def test_minimal_select_and_stars():
    q = parse("select 1")
    assert q == Select(items=(SelectItem(Literal(1)),))
    assert q.from_ is None and q.where is None and q.limit is None
    q = parse("SELECT *, t.* FROM t")
    assert [i.expr for i in q.items] == [Star(None), Star("t")]
    assert q.items[0].text == "*"


def test_joins():
    q = parse(
        "SELECT * FROM a JOIN b ON a.id = b.a_id INNER JOIN c x ON x.k = b.k "
        "LEFT OUTER JOIN d ON d.id = a.id LEFT JOIN e ON 1 CROSS JOIN f, g"
    )
    assert q.from_ == TableRef("a")
    assert q.joins == (
        Join("INNER", TableRef("b"), Binary("=", Column("id", "a"), Column("a_id", "b"))),
        Join("INNER", TableRef("c", "x"), Binary("=", Column("k", "x"), Column("k", "b"))),
        Join("LEFT", TableRef("d"), Binary("=", Column("id", "d"), Column("id", "a"))),
        Join("LEFT", TableRef("e"), Literal(1)),
        Join("CROSS", TableRef("f")),
        Join("CROSS", TableRef("g")),
    )


def test_parse_script():
    stmts = parse_script("SELECT 1; ;SELECT 'a;b' -- c;\n;")
    assert [s.items[0].expr for s in stmts] == [Literal(1), Literal("a;b")]
    assert parse_script("  -- nothing\n ; ") == []


@pytest.mark.parametrize(
    ("sql", "pos"),
    [
        ("SELECT FROM t", 7),
        ("SELECT a FROM t WHERE", 21),
        ("SELECT a b c FROM t", 11),
        ("SELECT * FROM t LIMIT 1.5", 22),
        ("SELECT * FROM t LIMIT -1", 22),
        ("SELECT (1 + 2 FROM t", 14),
        ("SELECT a FROM t JOIN u", 22),
        ("SELECT 1; SELECT 2", 10),
        ("UPDATE t", 0),
        ("SELECT a FROM t ORDER a", 22),
    ],
)
def test_syntax_error_positions(sql, pos):
    with pytest.raises(SQLSyntaxError) as info:
        parse(sql)
    assert info.value.pos == pos


def test_end_of_input_message_and_expression_errors():
    with pytest.raises(SQLSyntaxError) as info:
        parse("SELECT a FROM")
    assert info.value.message == "unexpected end of input"
    assert info.value.pos == len("SELECT a FROM")
    with pytest.raises(SQLSyntaxError):
        parse_expression("1 + 2 3")
    with pytest.raises(SQLSyntaxError):
        parse_expression("x IN 1")
