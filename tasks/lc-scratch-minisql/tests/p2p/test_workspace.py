"""The provided skeleton, sample tables and requirement document stay intact."""

import re
from pathlib import Path

import pytest

import minisql
from minisql.csvtable import load_table

DATA = Path("data")


def test_version():
    assert minisql.__version__ == "0.1.0"


@pytest.mark.parametrize(
    ("name", "columns", "nrows"),
    [
        ("employees", ["id", "name", "dept_id", "salary", "hired", "manager_id"], 8),
        ("departments", ["id", "name", "floor"], 4),
        ("orders", ["order_id", "employee_id", "customer", "amount", "status"], 7),
    ],
)
def test_sample_tables(name, columns, nrows):
    t = load_table(DATA / f"{name}.csv")
    assert t.name == name
    assert t.columns == columns
    assert len(t.rows) == nrows


def test_sample_values_are_typed():
    employees = load_table(DATA / "employees.csv")
    assert employees.rows[2][3] == 68500.5 and isinstance(employees.rows[2][3], float)
    assert employees.rows[3][3] is None
    assert employees.rows[7][1] == "O'Neil, Hana"
    orders = load_table(DATA / "orders.csv")
    assert [r[3] for r in orders.rows][:3] == [1200.0, 450.5, None]


def test_requirements_document_sections():
    doc = Path("docs/REQUIREMENTS.md").read_text(encoding="utf-8")
    for n in range(1, 11):
        assert re.search(rf"^## {n}\. ", doc, re.MULTILINE), n
    assert len(doc.split()) > 2500
