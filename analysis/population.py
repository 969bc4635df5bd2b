"""Which runs the report holds: runs per task kind x status, with totals equal to the header.

Every run in the warehouse (after the report's filters) is in exactly one cell: its task kind
(``longcli``, ``weave``; a kind not recorded counts as ``longcli``, as in the figures) and its
status. The first three statuses are finished runs and enter every rate (infra and task errors
as failures, SWE-bench style); ``incomplete`` runs (no verdict yet) are counted and enter none.
"""

from __future__ import annotations

import duckdb
import polars as pl

from realcli.warehouse import fetch_df

__all__ = ["COLUMN_LABELS", "RATED_STATUSES", "RATES_NOTE", "STATUSES", "population_table"]

STATUSES = ("graded", "infra_error", "task_error", "incomplete")
RATED_STATUSES = ("graded", "infra_error", "task_error")
RATES_NOTE = (
    "Rates count finished runs: graded, infra_error and task_error (the last two as failures); "
    "incomplete runs (no verdict yet) are counted here and enter no rate."
)
COLUMN_LABELS = {
    "kind": "Task kind",
    "graded": "Graded",
    "infra_error": "Infra error",
    "task_error": "Task error",
    "incomplete": "Incomplete (not rated)",
    "total": "Runs",
}
_KIND_ORDER = ("longcli", "weave")

_COUNTS = """
select coalesce(task_kind, 'longcli') as kind, status, count(*) as n
from runs
group by all
"""


def population_table(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """One row per task kind present, then ``all``; a column per status and ``total``."""
    counts = fetch_df(con, _COUNTS)
    kinds = sorted(
        set(counts["kind"].to_list()),
        key=lambda k: (_KIND_ORDER.index(k) if k in _KIND_ORDER else len(_KIND_ORDER), k),
    )
    rows = []
    for kind in [*kinds, "all"]:
        mine = counts if kind == "all" else counts.filter(pl.col("kind") == kind)
        cells = {s: int(mine.filter(pl.col("status") == s)["n"].sum()) for s in STATUSES}
        rows.append({"kind": kind, **cells, "total": int(mine["n"].sum())})
    schema = {"kind": pl.String, **{s: pl.Int64 for s in STATUSES}, "total": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")
