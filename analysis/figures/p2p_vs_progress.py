"""Progress-conditioned regression avoidance: P2P retention against F2P step (SPEC §4).

Raw P2P pass rewards agents that do little (the paper's DeepSeek-V3.1: best P2P, worst Pass),
so P2P retention is read at the F2P step the run reached. Per finished run with P2P tests: its
P2P retention (P2P tests holding at the end / P2P tests, established at round 0;
``fct_goal_outcomes``) and its final F2P step. Rows ``level = 'run'`` are the runs (the
chart's points); rows ``level = 'bin'`` are per system and LongCLI-Bench F2P-step bin
(``dim_step_bins``: [0,30) … 100) the mean of both, so systems compare at equal progress.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.systems import SYSTEM_AXES, protocol_rank, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = [
    "CAPTION",
    "COLUMN_LABELS",
    "EMPTY",
    "MAX_POINTS",
    "NAME",
    "POPULATION",
    "TITLE",
    "chart",
    "data",
]

NAME = "p2p_vs_progress"
TITLE = "P2P retention against F2P progress"
CAPTION = (
    "P2P retention (P2P tests holding at the end / P2P tests, established at round 0) against "
    "the run's final F2P step. Points: runs; lines: per system, the mean P2P retention of the "
    "runs in each F2P-step bin ([0,30), [30,60), [60,80), [80,100), 100), so a system that "
    "does little is compared with others that did as little."
)
POPULATION = "Finished runs of every task kind that have P2P tests."
EMPTY = "no finished runs with P2P tests"
MAX_POINTS = 4000
"""The chart draws at most this many run points (a fixed-seed sample; the table and the bin
means keep every run), so a 100k-run report stays light (and under Altair's 5,000-row cap on
a chart's inline data, with the bin means beside them)."""
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "level": "Row",
    "f2p_step_bin": "F2P step bin",
    "n_runs": "Runs",
    "f2p_step_pct": "F2P step (%)",
    "p2p_retention_pct": "P2P retention (%)",
    "run_keys": "Runs",
}

_RUNS = """
select r.model, r.harness, r.mode, r.protocol, r.run_key, r.f2p_step_pct, r.f2p_step_bin,
       r.f2p_step_bin_order,
       avg(g.final::int) * 100 as p2p_retention_pct
from fct_runs r
join fct_goal_outcomes g on g.run_key = r.run_key
where g.kind = 'p2p' and g.ever_satisfied
group by all
"""


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """Per system: its bins (``level = 'bin'``, in bin order), then its runs (``'run'``)."""
    axes = list(SYSTEM_AXES)
    runs = fetch_df(con, _RUNS)
    bins = runs.group_by([*axes, "f2p_step_bin", "f2p_step_bin_order"]).agg(
        n_runs=pl.len().cast(pl.Int64),
        f2p_step_pct=pl.col("f2p_step_pct").mean(),
        p2p_retention_pct=pl.col("p2p_retention_pct").mean(),
        run_keys=pl.col("run_key").sort(),
    )
    per_run = runs.sort("run_key").with_columns(
        n_runs=pl.lit(1, dtype=pl.Int64), run_keys=pl.concat_list(pl.col("run_key"))
    )
    columns = [*axes, "level", "f2p_step_bin", "f2p_step_bin_order", *list(COLUMN_LABELS)[7:]]
    table = pl.concat(
        [
            bins.with_columns(level=pl.lit("bin")).select(columns),
            per_run.with_columns(level=pl.lit("run")).select(columns),
        ]
    )
    table = table.sort(
        [*axes[:3], protocol_rank(), "protocol", pl.col("level") == "run", "f2p_step_bin_order"],
        maintain_order=True,
    ).drop("f2p_step_bin_order")
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.LayerChart | alt.FacetChart | alt.Chart:
    """Run points and per-system bin means over F2P step."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    systems = df["system"].unique(maintain_order=True).to_list()
    runs = df.filter(pl.col("level") == "run")
    if runs.height > MAX_POINTS:
        runs = runs.sample(n=MAX_POINTS, seed=0)
    source = pl.concat([df.filter(pl.col("level") == "bin"), runs]).drop("run_keys")
    color = alt.Color(
        "system:N",
        sort=systems,
        legend=alt.Legend(orient="bottom", columns=2, labelLimit=320, symbolOpacity=1),
    )
    x = alt.X("f2p_step_pct:Q", scale=alt.Scale(domain=[0, 100]), title="F2P step (%)")
    y = alt.Y("p2p_retention_pct:Q", scale=alt.Scale(domain=[0, 105]), title="P2P retention (%)")
    points = (
        alt.Chart(source)
        .transform_filter(alt.datum.level == "run")
        .mark_circle(size=40, opacity=0.45)
        .encode(
            x=x, y=y, color=color, tooltip=["system:N", "f2p_step_pct:Q", "p2p_retention_pct:Q"]
        )
    )
    means = (
        alt.Chart(source)
        .transform_filter(alt.datum.level == "bin")
        .mark_line(point=alt.OverlayMarkDef(size=70, filled=True), strokeWidth=2)
        .encode(
            x=x,
            y=y,
            color=color,
            tooltip=[
                "system:N",
                alt.Tooltip("f2p_step_bin:N", title="F2P step bin"),
                alt.Tooltip("p2p_retention_pct:Q", format=".1f"),
                "n_runs:Q",
            ],
        )
    )
    return alt.layer(points, means).properties(width=420, height=280, title=TITLE)
