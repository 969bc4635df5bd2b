import json
import subprocess
import sys

import pytest

from csvstats.reader import parse_csv
from csvstats.report import format_report
from csvstats.stats import describe, group_by, summarize

SALES = "region,product,price,qty\nnorth,apple,4,1\nsouth,pear,10.5,NA\nnorth,plum,12,2\nsouth,apple,23.5,3\n"


def test_reader():
    table = parse_csv(SALES)
    assert table.columns == ["region", "product", "price", "qty"]
    assert table.numeric("qty") == [1.0, 2.0, 3.0]
    assert table.numeric_columns() == ["price", "qty"]
    with pytest.raises(ValueError, match="line 3"):
        parse_csv("a,b\n1,2\n3\n")


def test_stats():
    assert summarize([]) == dict.fromkeys(["count", "mean", "median", "stdev", "min", "max"]) | {"count": 0}
    assert summarize([1, 2, 3, 4])["median"] == 2.5
    assert list(describe(parse_csv(SALES))) == ["price", "qty"]
    assert group_by(parse_csv(SALES), "region", "price")["south"]["mean"] == 17.0


def test_report():
    stats = describe(parse_csv(SALES))
    assert format_report(stats).splitlines()[2] == "price      4  12.50   11.25   8.11  4.00  23.50"
    assert format_report(stats, "csv").splitlines()[2] == "qty,3,2.00,2.00,1.00,1.00,3.00"
    assert json.loads(format_report(stats, "json"))["qty"]["max"] == 3.0


def test_cli_stdin():
    proc = subprocess.run(
        [sys.executable, "-m", "csvstats", "-", "--format", "csv", "--columns", "qty"],
        input=SALES,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "name,count,mean,median,stdev,min,max\nqty,3,2.00,2.00,1.00,1.00,3.00\n"
