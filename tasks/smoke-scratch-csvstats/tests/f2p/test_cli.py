"""R4: python -m csvstats."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SALES = "region,product,price,qty\nnorth,apple,4,1\nsouth,pear,10.5,NA\nnorth,plum,12,2\nsouth,apple,23.5,3\n"


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "csvstats", *map(str, args)],
        cwd=Path.cwd(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def sales(tmp_path):
    path = tmp_path / "sales.csv"
    path.write_text(SALES, encoding="utf-8")
    return path


def test_default_table(sales):
    proc = run(sales)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "name   count   mean  median  stdev   min    max\n"
        "-----  -----  -----  ------  -----  ----  -----\n"
        "price      4  12.50   11.25   8.11  4.00  23.50\n"
        "qty        3   2.00    2.00   1.00  1.00   3.00\n"
    )


def test_group_by_csv(sales):
    proc = run(sales, "--group-by", "region", "--columns", "price", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "name,count,mean,median,stdev,min,max\n"
        "north,2,8.00,8.00,5.66,4.00,12.00\n"
        "south,2,17.00,17.00,9.19,10.50,23.50\n"
    )


def test_columns_json_precision_and_stdin():
    proc = run("-", "--columns", "qty, price", "--format", "json", "--precision", "3", stdin=SALES)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert list(doc) == ["qty", "price"]
    assert doc["price"] == {"count": 4, "mean": 12.5, "median": 11.25, "stdev": 8.114, "min": 4.0, "max": 23.5}


def test_delimiter(tmp_path):
    path = tmp_path / "semi.csv"
    path.write_text("k;v\na;1\na;3\n", encoding="utf-8")
    proc = run(path, "--delimiter", ";", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "name,count,mean,median,stdev,min,max\nv,2,2.00,2.00,1.41,1.00,3.00\n"


@pytest.mark.parametrize(
    "args",
    [
        ("--format", "xml"),
        ("--group-by", "region"),
        ("--group-by", "region", "--columns", "price,qty"),
    ],
)
def test_usage_errors_exit_2(sales, args):
    proc = run(sales, *args)
    assert proc.returncode == 2
    assert proc.stdout == ""


@pytest.mark.parametrize(
    ("content", "args"),
    [
        (None, ()),
        (SALES, ("--columns", "weight")),
        (SALES, ("--columns", "product")),
        ("a,b\n1,2\n3\n", ()),
    ],
)
def test_data_errors_exit_1(tmp_path, content, args):
    path = tmp_path / "in.csv"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    proc = run(path, *args)
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")
