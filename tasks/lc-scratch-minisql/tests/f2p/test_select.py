"""Section 6: Database, FROM/WHERE, select list, DISTINCT, ORDER BY, LIMIT."""

import pytest

from minisql.csvtable import CSVTableError, parse_csv_table
from minisql.engine import Database, Result
from minisql.errors import SQLError, SQLNameError, SQLSyntaxError

PEOPLE = """\
id,Name,city,age,score
1,Ann,Oslo,34,12.5
2,bob,Bergen,,7
3,Cid,Oslo,29,
4,Dee,,41,7
5,Eve,Bergen,29,3.25
"""


@pytest.fixture
def db():
    d = Database()
    d.add_table(parse_csv_table(PEOPLE, "people"))
    return d


def test_database_from_directory(tmp_path):
    (tmp_path / "Alpha.csv").write_text("x\n1\n", encoding="utf-8")
    (tmp_path / "beta.csv").write_text("y,z\n2,3\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("ignore me", encoding="utf-8")
    d = Database(tmp_path)
    assert d.tables() == ["alpha", "beta"]
    assert d.table("BETA").columns == ["y", "z"]
    with pytest.raises(SQLNameError, match="no such table: gamma"):
        d.table("gamma")
    with pytest.raises(SQLError):
        Database(tmp_path / "missing")
    (tmp_path / "bad.csv").write_text("a,a\n", encoding="utf-8")
    with pytest.raises(CSVTableError):
        Database(tmp_path)


def test_select_star_and_result(db):
    r = db.execute("SELECT * FROM People")
    assert isinstance(r, Result)
    assert r.columns == ["id", "Name", "city", "age", "score"]
    assert r.rows[1] == (2, "bob", "Bergen", None, 7)
    assert len(r.rows) == 5


def test_where_and_column_names(db):
    r = db.execute("SELECT NAME, p.age, age + 1, age * 2 AS dbl FROM people p WHERE city = 'Oslo' AND age > 30")
    assert r.columns == ["NAME", "age", "age + 1", "dbl"]
    assert r.rows == [("Ann", 34, 35, 68)]
    r = db.execute("SELECT id FROM people WHERE age > 30 OR score = 7")
    assert r.rows == [(1,), (2,), (4,)]
    assert db.execute("SELECT id FROM people WHERE age").rows == [(1,), (3,), (4,), (5,)]


def test_select_without_from(db):
    r = db.execute("SELECT 1 + 1, 'x' AS label, NULL")
    assert r.columns == ["1 + 1", "label", "NULL"]
    assert r.rows == [(2, "x", None)]
    with pytest.raises(SQLError):
        db.execute("SELECT *")


def test_order_by_rules(db):
    assert db.execute("SELECT name FROM people ORDER BY age").rows == [("bob",), ("Cid",), ("Eve",), ("Ann",), ("Dee",)]
    assert db.execute("SELECT name FROM people ORDER BY age DESC, name").rows == [
        ("Dee",), ("Ann",), ("Cid",), ("Eve",), ("bob",)
    ]
    assert db.execute("SELECT name, score FROM people ORDER BY 2 DESC, 1 DESC").rows == [
        ("Ann", 12.5), ("bob", 7), ("Dee", 7), ("Eve", 3.25), ("Cid", None)
    ]
    assert db.execute("SELECT name AS who FROM people ORDER BY who").rows == [
        ("Ann",), ("Cid",), ("Dee",), ("Eve",), ("bob",)
    ]
    assert db.execute("SELECT id, -age AS age FROM people ORDER BY age LIMIT 2").rows == [(2, None), (4, -41)]
    assert db.execute("SELECT id FROM people ORDER BY UPPER(name) DESC LIMIT 2").rows == [(5,), (4,)]
    with pytest.raises(SQLError):
        db.execute("SELECT name FROM people ORDER BY 3")


def test_distinct(db):
    assert db.execute("SELECT DISTINCT city FROM people").rows == [("Oslo",), ("Bergen",), (None,)]
    assert db.execute("SELECT DISTINCT score FROM people ORDER BY score").rows == [(None,), (3.25,), (7,), (12.5,)]
    assert db.execute("SELECT DISTINCT city, age FROM people WHERE age = 29").rows == [("Oslo", 29), ("Bergen", 29)]
    with pytest.raises(SQLError):
        db.execute("SELECT DISTINCT city FROM people ORDER BY age")


def test_limit_offset(db):
    assert db.execute("SELECT id FROM people LIMIT 2").rows == [(1,), (2,)]
    assert db.execute("SELECT id FROM people LIMIT 2 OFFSET 3").rows == [(4,), (5,)]
    assert db.execute("SELECT id FROM people LIMIT 10 OFFSET 4").rows == [(5,)]
    assert db.execute("SELECT id FROM people LIMIT 0").rows == []


def test_name_errors(db):
    with pytest.raises(SQLNameError, match="no such table: nobody"):
        db.execute("SELECT * FROM nobody")
    with pytest.raises(SQLNameError, match="no such column: height"):
        db.execute("SELECT height FROM people")
    with pytest.raises(SQLNameError):
        db.execute("SELECT people.id FROM people p")
    with pytest.raises(SQLSyntaxError):
        db.execute("SELECT id FROM people WHERE")


def test_execute_script_and_run(db):
    from minisql.parser import parse

    results = db.execute_script("SELECT id FROM people WHERE 0; SELECT id FROM people WHERE id = 2;")
    assert [r.rows for r in results] == [[], [(2,)]]
    assert db.run(parse("SELECT name FROM people WHERE id = 3")).rows == [("Cid",)]


def test_sample_data_directory():
    r = Database("data").execute("SELECT name, salary FROM employees WHERE salary > 80000 ORDER BY salary DESC")
    assert r.columns == ["name", "salary"]
    assert r.rows == [("Evan Price", 105000), ("Alice Moreau", 98000), ("O'Neil, Hana", 83000)]
