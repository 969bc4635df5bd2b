"""Halt indicators (SPEC §4): when progress stopped, how long the agent went on, and what it
left open when it stopped of its own accord.

From ``fct_run_endings``. With a progress replay: last-progress index = the last step at which
a goal came to hold / the run's last step (0 when no goal ever came to hold after step 0);
idle tail = the steps after it. For every finished run: a voluntary stop is a run whose last
agent session ended by the agent itself (stop reason ``done``), not by a turn, time, cost or
resource budget, a crash or an infra error; its open goals are the goals never satisfied at
any step or round — sub-steps, F2P tests — plus the clauses of the report's primary judge not
satisfied at the end (judge clauses are judged once, on the final state). Per system: means
over runs; open goals per voluntary stop over those stops.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import bar_panels, placeholder
from analysis.systems import SYSTEM_AXES, protocol_rank, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "halt_indicators"
TITLE = "Halt indicators: last progress, idle tail, open goals at a voluntary stop"
CAPTION = (
    "Last-progress index: last step at which a goal came to hold / run length (progress "
    "replay); idle tail: steps after it. Voluntary stop: the agent ended its own session (not "
    "a budget, time-out or crash). Open goals: sub-steps and F2P tests never satisfied, and "
    "the primary judge's clauses not satisfied, at such a stop."
)
POPULATION = (
    "Finished runs of every task kind; the last-progress index and idle tail over those with "
    "a progress replay (progress.json) and at least one step."
)
EMPTY = "no finished runs"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "n_runs": "Finished runs",
    "n_runs_progress": "Runs with progress",
    "last_progress_index_pct": "Last progress (% of run)",
    "idle_tail_steps": "Idle tail (steps)",
    "idle_tail_pct": "Idle tail (% of run)",
    "n_voluntary_stops": "Voluntary stops",
    "n_budget_stops": "Budget stops",
    "n_stops_with_open_goals": "Voluntary stops with open goals",
    "open_goals_per_stop": "Open goals / voluntary stop",
    "run_keys": "Runs",
}

_RUNS = """
select model, harness, mode, protocol, run_key, voluntary_stop, budget_stop,
       last_step, last_progress_index, idle_tail_steps, open_substeps, open_f2p_tests
from fct_run_endings
"""
_OPEN_CLAUSES = """
select run_key, count(*) filter (where status <> 'satisfied') as open_clauses
from clause_results
where judge = ?
group by run_key
"""


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system with a finished run."""
    spec = spec or ReportSpec()
    axes = list(SYSTEM_AXES)
    clauses = fetch_df(con, _OPEN_CLAUSES, [spec.primary_judge])
    runs = (
        fetch_df(con, _RUNS)
        .join(clauses, on="run_key", how="left")
        .with_columns(
            open_goals=pl.col("open_substeps")
            + pl.col("open_f2p_tests")
            + pl.col("open_clauses").fill_null(0),
            measured=pl.col("last_progress_index").is_not_null(),
        )
    )
    stops = pl.col("voluntary_stop")
    table = runs.group_by(axes).agg(
        n_runs=pl.len().cast(pl.Int64),
        n_runs_progress=pl.col("measured").sum().cast(pl.Int64),
        last_progress_index_pct=pl.col("last_progress_index").mean() * 100,
        idle_tail_steps=pl.col("idle_tail_steps")
        .filter(pl.col("measured"))
        .cast(pl.Float64)
        .mean(),
        idle_tail_pct=(pl.col("idle_tail_steps") / pl.col("last_step"))
        .filter(pl.col("measured"))
        .mean()
        * 100,
        n_voluntary_stops=stops.sum().cast(pl.Int64),
        n_budget_stops=pl.col("budget_stop").sum().cast(pl.Int64),
        n_stops_with_open_goals=(stops & (pl.col("open_goals") > 0)).sum().cast(pl.Int64),
        open_goals_per_stop=pl.col("open_goals").filter(stops).cast(pl.Float64).mean(),
        run_keys=pl.col("run_key").sort(),
    )
    table = table.sort([*axes[:3], protocol_rank(), "protocol"])
    return with_system_label(table).select(list(COLUMN_LABELS))


_PANELS: dict[str, tuple[str, list[float] | None]] = {
    "last_progress_index_pct": ("last progress (% of run)", [0.0, 100.0]),
    "idle_tail_steps": ("idle tail (steps)", None),
    "open_goals_per_stop": ("open goals / voluntary stop", None),
}


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """One bar panel per indicator, one bar per system (the idle tail in steps: in % of the
    run it is 100 − the last-progress index)."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    systems = df["system"].to_list()
    source = df.drop("run_keys")
    return bar_panels(
        source,
        systems,
        [(column, title, domain) for column, (title, domain) in _PANELS.items()],
        tooltips=["n_voluntary_stops:Q", "n_runs_progress:Q"],
        color="#72b7b2",
        title=TITLE,
        width=170,
        step=20,
    )
