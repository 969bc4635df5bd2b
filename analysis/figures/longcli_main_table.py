"""LongCLI-Bench main table: Pass, Pass@k, F2P/P2P pass and step scores per system.

Denominators (the SWE-bench rule): every finished run counts — graded, ``infra_error`` and
``task_error`` alike, the last two as failures, and they are counted in their own columns.
Runs without a verdict (``incomplete``) are left out and counted in ``n_incomplete``.
Pass@k is the unbiased estimator averaged over tasks; ``k`` says which k (see analysis.passk).
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.passk import DEFAULT_K
from analysis.systems import SYSTEM_AXES, longcli_runs, pass_at_k_by_system, with_system_label
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "longcli_main_table"
TITLE = "LongCLI-Bench main table"
CAPTION = (
    "Per model x harness x mode x protocol. Pass: every F2P and P2P test passes. "
    "Pass@k: unbiased estimator 1 - C(n-c,k)/C(n,k) averaged over tasks (n seeds per task); "
    f"k = {DEFAULT_K} unless some task has fewer finished seeds, then k = that number (column k). "
    "Infra and task errors count as failures; incomplete runs are excluded and counted."
)
POPULATION = (
    "LongCLI tasks (kind longcli, or kind not recorded), finished runs (graded, infra_error, "
    "task_error; the last two count as failures); incomplete runs counted (last column), not "
    "rated; hybrid (weave) runs are in the WeaveBench tables."
)
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "n_runs": "Runs",
    "n_tasks": "Tasks",
    "pass_pct": "Pass (%)",
    "k": "k",
    "pass_at_k_pct": "Pass@k (%)",
    "f2p_pass_pct": "F2P Pass (%)",
    "f2p_step_pct": "F2P Step (%)",
    "p2p_pass_pct": "P2P Pass (%)",
    "p2p_step_pct": "P2P Step (%)",
    "mean_wall_time_s": "Mean wall time (s)",
    "n_infra_errors": "Infra errors",
    "n_task_errors": "Task errors",
    "n_incomplete": "Incomplete (excluded)",
}

_CHART_METRICS = {
    "pass_pct": "Pass",
    "pass_at_k_pct": "Pass@k",
    "f2p_step_pct": "F2P step",
    "p2p_pass_pct": "P2P pass",
}


def data(
    con: duckdb.DuckDBPyConnection, k: int = DEFAULT_K, *, spec: ReportSpec | None = None
) -> pl.DataFrame:
    """One row per system, columns as in :data:`COLUMN_LABELS`, sorted by the system axes."""
    runs = longcli_runs(con)
    axes = list(SYSTEM_AXES)
    fin = pl.col("in_denominator")

    def pct(column: str) -> pl.Expr:
        return pl.col(column).filter(fin).cast(pl.Float64).mean() * 100

    table = runs.group_by(axes).agg(
        n_runs=fin.sum().cast(pl.Int64),
        n_tasks=pl.col("task_id").filter(fin).n_unique().cast(pl.Int64),
        pass_pct=pct("passed"),
        f2p_pass_pct=pct("f2p_pass"),
        f2p_step_pct=pct("f2p_step"),
        p2p_pass_pct=pct("p2p_pass"),
        p2p_step_pct=pct("p2p_step"),
        mean_wall_time_s=pl.col("wall_time_s").filter(fin).mean(),
        n_infra_errors=pl.col("is_infra_error").filter(fin).sum().cast(pl.Int64),
        n_task_errors=pl.col("is_task_error").filter(fin).sum().cast(pl.Int64),
        n_incomplete=(~fin).sum().cast(pl.Int64),
    )
    table = table.join(pass_at_k_by_system(runs, k), on=axes, how="left", nulls_equal=True)
    table = with_system_label(table.sort(axes))
    return table.select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.LayerChart | alt.Chart:
    """Grouped horizontal bars: Pass, Pass@k, F2P step and P2P pass (%) per system."""
    ks = df["k"].drop_nulls().unique().to_list()
    labels = dict(_CHART_METRICS)
    if len(ks) == 1:
        labels["pass_at_k_pct"] = f"Pass@{ks[0]}"
    order = list(labels.values())
    long = (
        df.select("system", *labels)
        .unpivot(index="system", variable_name="metric", value_name="percent")
        .drop_nulls("percent")
        .with_columns(pl.col("metric").replace_strict(labels))
    )
    if long.is_empty():
        return placeholder(TITLE, "no finished runs")
    systems = long["system"].unique(maintain_order=True).to_list()
    base = alt.Chart(long).encode(
        y=alt.Y("system:N", sort=systems, title=None, axis=alt.Axis(labelLimit=320)),
        yOffset=alt.YOffset("metric:N", sort=order),
        x=alt.X("percent:Q", scale=alt.Scale(domain=[0, 100]), title="% of runs / mean score"),
        color=alt.Color(
            "metric:N", sort=order, title=None, legend=alt.Legend(orient="bottom", columns=4)
        ),
        tooltip=[
            alt.Tooltip("system:N"),
            alt.Tooltip("metric:N"),
            alt.Tooltip("percent:Q", format=".1f"),
        ],
    )
    bars = base.mark_bar()
    text = base.mark_text(align="left", dx=3, fontSize=10).encode(
        text=alt.Text("percent:Q", format=".1f")
    )
    return (bars + text).properties(
        title=TITLE,
        width=480,
        height=alt.Step(14),
    )
