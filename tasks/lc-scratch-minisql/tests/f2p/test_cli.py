"""Section 9: output formats and python -m minisql."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from minisql.output import format_value, render, render_csv, render_json, render_table


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "minisql", *map(str, args)],
        cwd=Path.cwd(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def datadir(tmp_path):
    (tmp_path / "pets.csv").write_text("id,name,weight\n1,Rex,12.5\n2,Tom,\n3,\"Bo, Jr\",4\n", encoding="utf-8")
    (tmp_path / "owners.csv").write_text("pet_id,owner\n1,Ann\n3,Cid\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "NULL"), (7, "7"), (-3, "-3"), (3.0, "3.0"), (0.1 + 0.2, "0.3"), (1e20, "1e+20"), (68500.5, "68500.5"), ("a b", "a b")],
)
def test_format_value(value, text):
    assert format_value(value) == text


def test_render_table():
    assert render_table(["id", "name", "score"], [(1, "Ann", 12.5), (10, None, None)]) == (
        "+----+------+-------+\n"
        "| id | name | score |\n"
        "+----+------+-------+\n"
        "|  1 | Ann  |  12.5 |\n"
        "| 10 | NULL | NULL  |\n"
        "+----+------+-------+\n"
    )
    assert render_table(["long_name"], []) == "+-----------+\n| long_name |\n+-----------+\n"


def test_render_csv_json_and_dispatch():
    assert render_csv(["a", "b"], [(1, None), ("x,y", 2.0)]) == 'a,b\n1,\n"x,y",2.0\n'
    doc = json.loads(render_json(["a", "a"], [(1, None), ("x", 2.5)]))
    assert doc == {"columns": ["a", "a"], "rows": [[1, None], ["x", 2.5]]}
    assert render_json(["a"], []).endswith("}\n")
    assert render(["n"], [(1,)]).endswith("+\n(1 row)\n")
    assert render(["n"], []).endswith("(0 rows)\n")
    assert render(["n"], [(1,), (2,)], "table").endswith("(2 rows)\n")
    assert render(["n"], [(1,)], "csv") == "n\n1\n"
    with pytest.raises(ValueError):
        render(["n"], [], "xml")


def test_cli_table_example():
    proc = run("--dir", "data", "SELECT name, salary FROM employees WHERE salary > 80000 ORDER BY salary DESC")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "+--------------+--------+\n"
        "| name         | salary |\n"
        "+--------------+--------+\n"
        "| Evan Price   | 105000 |\n"
        "| Alice Moreau |  98000 |\n"
        "| O'Neil, Hana |  83000 |\n"
        "+--------------+--------+\n"
        "(3 rows)\n"
    )


def test_cli_formats_and_script(datadir):
    proc = run("-d", datadir, "--format", "csv", "SELECT name, weight FROM pets ORDER BY id; SELECT COUNT(*) AS n FROM owners")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == 'name,weight\nRex,12.5\nTom,\n"Bo, Jr",4\n\nn\n2\n'
    proc = run("-d", datadir, "--format", "json", "SELECT p.name, o.owner FROM pets p LEFT JOIN owners o ON o.pet_id = p.id WHERE p.id > 1")
    assert json.loads(proc.stdout) == {"columns": ["name", "owner"], "rows": [["Tom", None], ["Bo, Jr", "Cid"]]}


def test_cli_sql_from_file_and_stdin(datadir, tmp_path):
    sql = tmp_path / "q.sql"
    sql.write_text("-- count pets\nSELECT COUNT(*) FROM pets;\n", encoding="utf-8")
    proc = run("-d", datadir, "--format", "csv", "--file", sql)
    assert (proc.returncode, proc.stdout) == (0, "COUNT(*)\n3\n")
    proc = run("-d", datadir, "--format", "csv", stdin="SELECT MAX(weight) FROM pets")
    assert (proc.returncode, proc.stdout) == (0, "MAX(weight)\n12.5\n")


def test_cli_tables(datadir):
    proc = run("--tables", "--dir", datadir)
    assert (proc.returncode, proc.stdout) == (0, "owners(pet_id, owner)\npets(id, name, weight)\n")
    assert run("-d", "data", "--tables").stdout == (
        "departments(id, name, floor)\n"
        "employees(id, name, dept_id, salary, hired, manager_id)\n"
        "orders(order_id, employee_id, customer, amount, status)\n"
    )


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("SELECT nope FROM pets", "no such column: nope"),
        ("SELECT * FROM nothing", "no such table: nothing"),
        ("SELECT name FROM pets WHERE", "at position 27"),
        ("SELECT 'a' + 1", "cannot convert"),
        ("", ""),
    ],
)
def test_cli_sql_errors(datadir, sql, fragment):
    proc = run("-d", datadir, sql)
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert fragment in lines[0]


def test_cli_partial_output_and_other_errors(datadir, tmp_path):
    proc = run("-d", datadir, "--format", "csv", "SELECT 1 AS one; SELECT x FROM pets; SELECT 2")
    assert proc.returncode == 1
    assert proc.stdout == "one\n1\n"
    assert proc.stderr.startswith("error: no such column: x")
    missing = run("-d", tmp_path / "nowhere", "SELECT 1")
    assert missing.returncode == 1 and missing.stderr.startswith("error: ")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "t.csv").write_text("a,b\n1\n", encoding="utf-8")
    bad = run("-d", tmp_path / "bad", "SELECT 1")
    assert bad.returncode == 1 and bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr
    nofile = run("-d", datadir, "--file", tmp_path / "none.sql")
    assert nofile.returncode == 1 and nofile.stderr.startswith("error: ")


def test_cli_usage_errors(datadir, tmp_path):
    assert run("-d", datadir, "--format", "xml", "SELECT 1").returncode == 2
    assert run("-d", datadir, "--bogus", "SELECT 1").returncode == 2
    sql = tmp_path / "q.sql"
    sql.write_text("SELECT 1", encoding="utf-8")
    assert run("-d", datadir, "--file", sql, "SELECT 2").returncode == 2
