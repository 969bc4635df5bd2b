"""Tests for the tokenizer, parser, evaluator, engine and CLI (docs/REQUIREMENTS.md, sections 3-9)."""

import subprocess
import sys

import pytest

from minisql.ast import Binary, Column, Literal
from minisql.csvtable import parse_csv_table
from minisql.engine import Database
from minisql.errors import SQLNameError, SQLSyntaxError
from minisql.expr import evaluate
from minisql.lexer import tokenize
from minisql.output import render
from minisql.parser import parse_expression


@pytest.fixture
def db():
    d = Database()
    d.add_table(parse_csv_table("id,name,grp,v\n1,a,x,10\n2,b,y,\n3,c,x,5\n", "t"))
    d.add_table(parse_csv_table("grp,label\nx,Ex\nz,Zed\n", "g"))
    return d


def test_tokens_and_parse():
    assert [t.kind for t in tokenize("SELECT 'a' || x")] == ["KEYWORD", "STRING", "OP", "IDENT", "EOF"]
    assert parse_expression("a + 1 > 2") == Binary(">", Binary("+", Column("a"), Literal(1)), Literal(2))
    with pytest.raises(SQLSyntaxError):
        parse_expression("1 +")


def test_null_logic():
    assert evaluate(parse_expression("NULL OR 1")) == 1
    assert evaluate(parse_expression("3 NOT IN (1, NULL)")) is None


def test_select_group_join(db):
    assert db.execute("SELECT name FROM t WHERE v > 6").rows == [("a",)]
    assert db.execute("SELECT grp, SUM(v) FROM t GROUP BY grp").rows == [("x", 15), ("y", None)]
    assert db.execute("SELECT t.id, g.label FROM t LEFT JOIN g ON g.grp = t.grp ORDER BY 1 DESC").rows == [
        (3, "Ex"),
        (2, None),
        (1, "Ex"),
    ]
    with pytest.raises(SQLNameError):
        db.execute("SELECT grp FROM t JOIN g ON 1")


def test_render():
    assert render(["a"], [(1.0,)]) == "+-----+\n| a   |\n+-----+\n| 1.0 |\n+-----+\n(1 row)\n"


def test_cli_example():
    proc = subprocess.run(
        [sys.executable, "-m", "minisql", "-d", "data", "--format", "csv", "SELECT COUNT(*) FROM employees"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout == "COUNT(*)\n8\n"
