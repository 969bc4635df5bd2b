"""Section 8: joins."""

import pytest

from minisql.csvtable import parse_csv_table
from minisql.engine import Database
from minisql.errors import SQLNameError

EMP = "id,name,dept_id,boss\n1,Ann,10,\n2,Bob,20,1\n3,Cid,10,1\n4,Dee,,2\n"
DEPT = "id,name\n10,Eng\n20,Sales\n30,Legal\n"


@pytest.fixture
def db():
    d = Database()
    d.add_table(parse_csv_table(EMP, "emp"))
    d.add_table(parse_csv_table(DEPT, "dept"))
    d.add_table(parse_csv_table("c\nx\ny\n", "colors"))
    return d


def rows(db, sql):
    return db.execute(sql).rows


def test_inner_join(db):
    assert rows(db, "SELECT emp.name, dept.name FROM emp JOIN dept ON emp.dept_id = dept.id") == [
        ("Ann", "Eng"),
        ("Bob", "Sales"),
        ("Cid", "Eng"),
    ]
    assert rows(db, "SELECT e.name FROM emp e INNER JOIN dept d ON e.dept_id = d.id AND d.name = 'Eng'") == [
        ("Ann",),
        ("Cid",),
    ]


def test_left_join_pads_with_null(db):
    assert rows(db, "SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id") == [
        ("Ann", "Eng"),
        ("Bob", "Sales"),
        ("Cid", "Eng"),
        ("Dee", None),
    ]
    assert rows(db, "SELECT d.name, e.name FROM dept d LEFT OUTER JOIN emp e ON e.dept_id = d.id WHERE e.id IS NULL") == [
        ("Legal", None)
    ]


def test_cross_joins_and_order(db):
    expected = [(1, "x"), (1, "y"), (2, "x"), (2, "y")]
    assert rows(db, "SELECT e.id, c FROM emp e, colors WHERE e.id <= 2") == expected
    assert rows(db, "SELECT e.id, c FROM emp e CROSS JOIN colors WHERE e.id <= 2") == expected


def test_select_star_over_join(db):
    r = db.execute("SELECT * FROM emp JOIN dept ON dept_id = dept.id WHERE emp.id = 2")
    assert r.columns == ["id", "name", "dept_id", "boss", "id", "name"]
    assert r.rows == [(2, "Bob", 20, 1, 20, "Sales")]
    r = db.execute("SELECT d.*, e.id FROM emp e JOIN dept d ON e.dept_id = d.id WHERE e.id = 1")
    assert r.columns == ["id", "name", "id"]
    assert r.rows == [(10, "Eng", 1)]


def test_self_join_and_three_tables(db):
    assert rows(db, "SELECT e.name, b.name AS boss FROM emp e JOIN emp b ON e.boss = b.id ORDER BY boss, e.name DESC") == [
        ("Cid", "Ann"),
        ("Bob", "Ann"),
        ("Dee", "Bob"),
    ]
    assert rows(
        db,
        "SELECT e.name, d.name, b.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id "
        "LEFT JOIN emp b ON b.id = e.boss ORDER BY e.id",
    ) == [("Ann", "Eng", None), ("Bob", "Sales", "Ann"), ("Cid", "Eng", "Ann"), ("Dee", None, "Bob")]


def test_join_with_aggregates(db):
    assert rows(
        db,
        "SELECT d.name, COUNT(e.id) AS n FROM dept d LEFT JOIN emp e ON e.dept_id = d.id GROUP BY d.name ORDER BY n DESC, d.name",
    ) == [("Eng", 2), ("Sales", 1), ("Legal", 0)]


def test_name_resolution_errors(db):
    with pytest.raises(SQLNameError, match="ambiguous column name: name"):
        db.execute("SELECT name FROM emp JOIN dept ON dept_id = dept.id")
    with pytest.raises(SQLNameError):
        db.execute("SELECT * FROM emp JOIN emp ON 1")
    with pytest.raises(SQLNameError, match="no such column"):
        db.execute("SELECT e.salary FROM emp e JOIN dept d ON 1")
    assert rows(db, "SELECT dept_id, c FROM emp JOIN colors ON c = 'y' WHERE boss = 2") == [(None, "y")]


def test_sample_data_left_join_grouping():
    r = Database("data").execute(
        "SELECT d.name AS dept, COUNT(*) AS n, AVG(e.salary) AS avg_salary FROM employees e "
        "LEFT JOIN departments d ON e.dept_id = d.id GROUP BY d.name ORDER BY n DESC, dept"
    )
    assert r.columns == ["dept", "n", "avg_salary"]
    assert r.rows == [("Sales", 3, 70833.5), ("Engineering", 2, 101500.0), ("Research", 2, 83000.0), (None, 1, 51000.0)]
