"""Section 7: aggregate functions, GROUP BY and HAVING."""

import pytest

from minisql.csvtable import parse_csv_table
from minisql.engine import Database
from minisql.errors import SQLError, SQLTypeError

SALES = """\
id,region,rep,amount,units,note
1,north,ann,100,2,x
2,south,bob,250.5,1,
3,north,cid,,4,y
4,east,ann,40,,abc
5,south,ann,250.5,3,
6,north,bob,60,1,x
"""


@pytest.fixture
def db():
    d = Database()
    d.add_table(parse_csv_table(SALES, "sales"))
    d.add_table(parse_csv_table("id,v\n", "empty"))
    return d


def rows(db, sql):
    return db.execute(sql).rows


def test_whole_table_aggregates(db):
    r = db.execute("SELECT COUNT(*), COUNT(amount), SUM(amount), AVG(units), MIN(amount), MAX(rep) FROM sales")
    assert r.columns == ["COUNT(*)", "COUNT(amount)", "SUM(amount)", "AVG(units)", "MIN(amount)", "MAX(rep)"]
    assert r.rows == [(6, 5, 701.0, 2.2, 40, "cid")]


def test_sum_types_and_empty_input(db):
    (total,) = rows(db, "SELECT SUM(units) FROM sales")[0]
    assert total == 11 and type(total) is int
    (avg,) = rows(db, "SELECT AVG(id) FROM sales WHERE id <= 2")[0]
    assert avg == 1.5 and type(avg) is float
    assert rows(db, "SELECT COUNT(*), SUM(v), AVG(v), MIN(v), COUNT(v) FROM empty") == [(0, None, None, None, 0)]
    assert rows(db, "SELECT COUNT(*) FROM sales WHERE amount > 1000") == [(0,)]


def test_group_by_order_and_expressions(db):
    r = db.execute("SELECT region, COUNT(*) AS n, SUM(amount) * 2 AS twice FROM sales GROUP BY region")
    assert r.columns == ["region", "n", "twice"]
    assert r.rows == [("east", 1, 80), ("north", 3, 320), ("south", 2, 1002.0)]
    assert rows(db, "SELECT rep, MAX(amount) - MIN(amount) FROM sales GROUP BY rep ORDER BY 2 DESC, rep") == [
        ("ann", 210.5),
        ("bob", 190.5),
        ("cid", None),
    ]


def test_group_by_null_key_and_multiple_keys(db):
    assert rows(db, "SELECT note, COUNT(*) FROM sales GROUP BY note") == [(None, 2), ("abc", 1), ("x", 2), ("y", 1)]
    assert rows(db, "SELECT region, rep, COUNT(*) FROM sales GROUP BY region, rep ORDER BY region DESC, rep") == [
        ("south", "ann", 1),
        ("south", "bob", 1),
        ("north", "ann", 1),
        ("north", "bob", 1),
        ("north", "cid", 1),
        ("east", "ann", 1),
    ]


def test_count_distinct_and_distinct_sum(db):
    assert rows(db, "SELECT COUNT(DISTINCT rep), COUNT(DISTINCT amount), SUM(DISTINCT amount) FROM sales") == [(3, 4, 450.5)]


def test_having_and_aliases(db):
    assert rows(db, "SELECT region, SUM(amount) FROM sales GROUP BY region HAVING COUNT(*) > 1") == [
        ("north", 160),
        ("south", 501.0),
    ]
    assert rows(db, "SELECT rep AS who, SUM(units) AS total FROM sales GROUP BY who HAVING total >= 3 ORDER BY total DESC") == [
        ("ann", 5),
        ("cid", 4),
    ]
    assert rows(db, "SELECT COUNT(*) FROM sales HAVING COUNT(*) > 10") == []


def test_bare_columns_take_first_row_of_group(db):
    assert rows(db, "SELECT region, id, COUNT(*) FROM sales GROUP BY region") == [("east", 4, 1), ("north", 1, 3), ("south", 2, 2)]
    assert rows(db, "SELECT id, COUNT(*) FROM empty") == [(None, 0)]


def test_min_max_mixed_types(db):
    assert rows(db, "SELECT MIN(note), MAX(note) FROM sales") == [("abc", "y")]
    d = Database()
    d.add_table(parse_csv_table("v\n5\nabc\n2.5\n\n", "mixed"))
    assert d.execute("SELECT MIN(v), MAX(v), COUNT(v) FROM mixed").rows == [(2.5, "abc", 3)]
    with pytest.raises(SQLTypeError):
        d.execute("SELECT SUM(v) FROM mixed")


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT id FROM sales WHERE COUNT(*) > 1",
        "SELECT id FROM sales HAVING id > 1",
        "SELECT SUM(COUNT(*)) FROM sales",
        "SELECT SUM(*) FROM sales",
        "SELECT COUNT(id, rep) FROM sales",
        "SELECT COUNT(*) FROM sales GROUP BY COUNT(*)",
    ],
)
def test_aggregate_errors(db, sql):
    with pytest.raises(SQLError):
        db.execute(sql)


def test_sample_data_grouping():
    r = Database("data").execute(
        "SELECT customer, SUM(amount) AS total FROM orders WHERE status <> 'cancelled' "
        "GROUP BY customer HAVING total > 500 ORDER BY 2 DESC"
    )
    assert r.columns == ["customer", "total"]
    assert r.rows == [("Umbrella", 2300), ("Acme Corp", pytest.approx(2180.25)), ("Globex", pytest.approx(760.6))]
