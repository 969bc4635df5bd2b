"""``demo_runs_per_harness``: runs and passes per harness (a plugin's figure)."""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

NAME = "demo_runs_per_harness"
TITLE = "Demo plugin: runs per harness"
CAPTION = "How many runs each harness did, and how many passed (a figure added by a plugin)."
POPULATION = "every run in the report's population"
COLUMN_LABELS = {"harness": "harness", "runs": "runs", "passed": "passed"}


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    return fetch_df(
        con,
        "select harness, count(*) as runs, count(*) filter (where passed) as passed "
        "from fct_runs group by harness order by harness",
    )


def chart(df: pl.DataFrame) -> alt.TopLevelMixin:
    return alt.Chart(df).mark_bar().encode(x="harness:N", y="runs:Q")
