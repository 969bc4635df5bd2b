"""Early-requirement retention by establishment time (SPEC §4).

Goals followed step by step by the progress replay (``fct_goal_outcomes``, history ``steps``:
sub-steps and P2P tests). A goal's establishment time = the first step at which it held / the
run's last step (0 when it held on the initial workspace); goals fall into quintiles of that
share ([0,20) … [80,100], in %). Retention per system, goal kind and quintile = goals still
holding at the end / goals established in the quintile, pooled over the system's runs. Do
requirements met early survive the rest of the run as well as late ones?
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.goals import QUINTILES, quintile_of
from analysis.systems import SYSTEM_AXES, protocol_rank, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "early_retention"
TITLE = "Retention by establishment time"
CAPTION = (
    "Goals of the progress replay (sub-steps, P2P tests) by when they were first satisfied, "
    "as a share of the run (quintiles; 0 = held on the initial workspace): the share still "
    "satisfied at the end, pooled over each system's runs."
)
POPULATION = (
    "Finished runs of every task kind with a progress replay (progress.json); their goals "
    "ever satisfied, in runs whose last step is after step 0."
)
EMPTY = "no finished runs with a progress replay"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "kind": "Goal kind",
    "quintile": "Established at (% of run)",
    "n_runs": "Runs",
    "n_goals": "Goals established",
    "n_retained": "Held at the end",
    "retention_pct": "Retention (%)",
    "run_keys": "Runs",
}

_GOALS = """
select model, harness, mode, protocol, run_key, kind, established_share, final
from fct_goal_outcomes
where history = 'steps' and ever_satisfied and established_share is not null
"""


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system × goal kind × quintile with a goal established in it."""
    axes = list(SYSTEM_AXES)
    goals = fetch_df(con, _GOALS).with_columns(quintile=quintile_of(pl.col("established_share")))
    table = goals.group_by([*axes, "kind", "quintile"]).agg(
        n_runs=pl.col("run_key").n_unique().cast(pl.Int64),
        n_goals=pl.len().cast(pl.Int64),
        n_retained=pl.col("final").sum().cast(pl.Int64),
        retention_pct=pl.col("final").cast(pl.Float64).mean() * 100,
        run_keys=pl.col("run_key").unique().sort(),
    )
    order = {q: i for i, q in enumerate(QUINTILES)}
    table = table.sort(
        [
            *axes[:3],
            protocol_rank(),
            "protocol",
            "kind",
            pl.col("quintile").replace_strict(order, return_dtype=pl.Int64),
        ]
    )
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.FacetChart | alt.Chart:
    """Retention over the establishment quintiles, a line per system, a panel per goal kind."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    systems = df["system"].unique(maintain_order=True).to_list()
    base = alt.Chart().encode(
        x=alt.X("quintile:O", sort=list(QUINTILES), title="established at (% of the run)"),
        y=alt.Y("retention_pct:Q", scale=alt.Scale(domain=[0, 100]), title="held at the end (%)"),
        color=alt.Color("system:N", sort=systems, legend=alt.Legend(orient="bottom", columns=2)),
        tooltip=[
            "system:N",
            "kind:N",
            "quintile:N",
            alt.Tooltip("retention_pct:Q", format=".1f"),
            "n_goals:Q",
        ],
    )
    return (
        alt.layer(
            base.mark_line(strokeWidth=2),
            base.mark_point(filled=True, size=60),
            data=df.drop("run_keys"),
        )
        .properties(width=240, height=200)
        .facet(column=alt.Column("kind:N", title=None))
        .properties(title=TITLE)
    )
