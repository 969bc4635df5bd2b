"""The report's summary: runs per task kind x status, totals equal to the header count.

Guards issue 12's "the report says 22 runs while its tables add up to 20": every run is in one
cell, hybrid (weave) runs included, incomplete runs counted though they enter no rate.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
from warehouse_rows import add_runs, assert_rows, run

from analysis.population import RATED_STATUSES, STATUSES, population_table
from analysis.report import build_report
from realcli.warehouse import connect


def _rows(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        *(run(seed=s) for s in (1, 2, 3)),
        run(status="infra_error"),
        run(status="task_error"),
        run(status="incomplete"),
        run(task_kind=None),  # kind not recorded: a LongCLI run, as in the figures
        run(task_kind="weave", mode="hybrid"),
        run(task_kind="weave", mode="hybrid", status="incomplete"),
        run(task_kind="weave", mode="hybrid", status="infra_error"),
    )


def test_population_table_has_one_row_per_kind_and_totals_that_add_up(
    con: duckdb.DuckDBPyConnection,
) -> None:
    _rows(con)
    table = population_table(con)
    assert_rows(
        table,
        [
            {"kind": "longcli", "graded": 4, "infra_error": 1, "task_error": 1, "incomplete": 1,
             "total": 7},
            {"kind": "weave", "graded": 1, "infra_error": 1, "task_error": 0, "incomplete": 1,
             "total": 3},
            {"kind": "all", "graded": 5, "infra_error": 2, "task_error": 1, "incomplete": 2,
             "total": 10},
        ],
    )  # fmt: skip
    for r in table.iter_rows(named=True):
        assert sum(r[s] for s in STATUSES) == r["total"]
    assert set(RATED_STATUSES) == set(STATUSES) - {"incomplete"}


def test_empty_warehouse_gives_an_all_row_of_zeros(con: duckdb.DuckDBPyConnection) -> None:
    assert population_table(con).rows() == [("all", 0, 0, 0, 0, 0)]


def test_the_header_count_is_the_tables_total(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as con:
        _rows(con)
    html = build_report(tmp_path / "w.duckdb", tmp_path / "out", figures=()).read_text()
    assert "10 runs in 1 experiment(s)" in html
    assert '<td class="text">weave</td><td>1</td><td>1</td><td>0</td><td>1</td><td>3</td>' in html
    assert '<td class="text">all</td><td>5</td><td>2</td><td>1</td><td>2</td><td>10</td>' in html
    assert "incomplete runs (no verdict yet) are counted here and enter no rate" in html
    assert "no filters: every run" in html
