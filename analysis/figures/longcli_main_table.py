"""LongCLI-Bench main table: Pass, Pass@k, F2P/P2P pass and step scores per system.

Denominators (the SWE-bench rule): every finished run counts — graded, ``infra_error`` and
``task_error`` alike, the last two as failures, and they are counted in their own columns.
Runs without a verdict (``incomplete``) are left out and counted in ``n_incomplete``.
Pass@k is the unbiased estimator averaged over tasks; ``k`` says which k (see analysis.passk).

Confidence intervals (``*_ci_low`` / ``*_ci_high``, for Pass, F2P step and P2P pass): the
percentile interval of the paired task bootstrap (:func:`analysis.stats.bootstrap_ci`, B and the
seed from ``spec.bootstrap``) around the mean over tasks of each task's mean over its finished
runs; that equals the run mean in the ``*_pct`` column when every task has the same number of
finished runs. With ``spec.published`` the paper's rows (:data:`analysis.published.LONGCLI_MAIN`)
follow ours (none without a row of ours: an empty warehouse gives an empty table), ``source``
saying which is which; they have no intervals and no runs.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.passk import DEFAULT_K
from analysis.published import LONGCLI_MAIN, OURS, PAPER_LONGCLI
from analysis.stats import bootstrap_ci, per_task_scores
from analysis.systems import SYSTEM_AXES, longcli_runs, pass_at_k_by_system, with_system_label
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "NAME", "TITLE", "chart", "data"]

NAME = "longcli_main_table"
TITLE = "LongCLI-Bench main table"
CAPTION = (
    "Per model x harness x mode x protocol. Pass: every F2P and P2P test passes. "
    "Pass@k: unbiased estimator 1 - C(n-c,k)/C(n,k) averaged over tasks (n seeds per task); "
    f"k = {DEFAULT_K} unless some task has fewer finished seeds, then k = that number (column k). "
    "Infra and task errors count as failures; incomplete runs are excluded and counted. "
    "[low, high]: percentile interval of a paired task bootstrap (tasks resampled, the same "
    "draw for every system) around the mean over tasks. Rows with source LongCLI-Bench (paper) "
    "are the paper's published numbers, not measurements."
)
POPULATION = (
    "LongCLI tasks (kind longcli or not recorded). Rates over finished runs (graded, "
    "infra_error, task_error; the errors count as failures); incomplete runs are excluded and "
    "counted. The paper's rows are quoted, not measured."
)
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "source": "Source",
    "n_runs": "Runs",
    "n_tasks": "Tasks",
    "pass_pct": "Pass (%)",
    "pass_ci_low": "Pass CI low",
    "pass_ci_high": "Pass CI high",
    "k": "k",
    "pass_at_k_pct": "Pass@k (%)",
    "f2p_pass_pct": "F2P Pass (%)",
    "f2p_step_pct": "F2P Step (%)",
    "f2p_step_ci_low": "F2P Step CI low",
    "f2p_step_ci_high": "F2P Step CI high",
    "p2p_pass_pct": "P2P Pass (%)",
    "p2p_pass_ci_low": "P2P Pass CI low",
    "p2p_pass_ci_high": "P2P Pass CI high",
    "p2p_step_pct": "P2P Step (%)",
    "mean_wall_time_s": "Mean wall time (s)",
    "n_infra_errors": "Infra errors",
    "n_task_errors": "Task errors",
    "n_incomplete": "Incomplete (excluded)",
    "run_keys": "Runs behind the row",
}

_CI_METRICS = {"pass": "passed", "f2p_step": "f2p_step", "p2p_pass": "p2p_pass"}
"""Metric (column stem) → fct_runs column of the per-run value bootstrapped."""

_CHART_METRICS = {
    "pass_pct": "Pass",
    "pass_at_k_pct": "Pass@k",
    "f2p_step_pct": "F2P step",
    "p2p_pass_pct": "P2P pass",
}


def data(
    con: duckdb.DuckDBPyConnection, k: int = DEFAULT_K, *, spec: ReportSpec | None = None
) -> pl.DataFrame:
    """One row per system, columns as in :data:`COLUMN_LABELS`, sorted by the system axes; then
    the paper's rows when ``spec.published`` and there is a row of ours to set them beside."""
    spec = spec or ReportSpec()
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
        run_keys=pl.col("run_key").filter(fin).sort(),
    )
    table = table.join(pass_at_k_by_system(runs, k), on=axes, how="left", nulls_equal=True)
    finished = runs.filter(fin)
    for stem, column in _CI_METRICS.items():
        ci = bootstrap_ci(per_task_scores(finished, axes, column), axes, spec.bootstrap, scale=100)
        table = table.join(
            ci.select(
                *axes,
                pl.col("ci_low").alias(f"{stem}_ci_low"),
                pl.col("ci_high").alias(f"{stem}_ci_high"),
            ),
            on=axes,
            how="left",
            nulls_equal=True,
        )
    table = with_system_label(table.sort(axes)).with_columns(source=pl.lit(OURS))
    table = table.select(list(COLUMN_LABELS))
    if spec.published and not table.is_empty():
        table = pl.concat([table, _published(table.schema)], how="vertical")
    return table


def _published(schema: pl.Schema) -> pl.DataFrame:
    """The paper's main table (``LONGCLI_MAIN``) in this table's columns; Pass@k is Pass@3."""
    rows = [
        {
            "model": row["model"],
            "harness": row["harness"],
            "system": f"{row['model']} · {row['harness']} (paper)",
            "source": PAPER_LONGCLI,
            "pass_pct": row.get("pass_pct"),
            "k": 3 if row.get("pass_at_k_pct") is not None else None,
            "pass_at_k_pct": row.get("pass_at_k_pct"),
            "f2p_step_pct": row.get("f2p_step_pct"),
            "p2p_pass_pct": row.get("p2p_pass_pct"),
            "run_keys": [],
        }
        for row in LONGCLI_MAIN
    ]
    return pl.DataFrame(rows, schema={c: schema[c] for c in rows[0]}).select(
        [pl.col(c) if c in rows[0] else pl.lit(None, dtype=t).alias(c) for c, t in schema.items()]
    )


def chart(df: pl.DataFrame) -> alt.LayerChart | alt.Chart:
    """Grouped horizontal bars: Pass, Pass@k, F2P step and P2P pass (%) per system, with the
    bootstrap interval as a black rule where there is one (the paper's rows have none)."""
    ks = df.filter(pl.col("source") == OURS)["k"].drop_nulls().unique().to_list()
    labels = dict(_CHART_METRICS)
    if len(ks) == 1:
        labels["pass_at_k_pct"] = f"Pass@{ks[0]}"
    order = list(labels.values())
    frames = []
    for column, label in labels.items():
        stem = column.removesuffix("_pct")
        has_ci = stem in _CI_METRICS
        frames.append(
            df.select(
                "system",
                pl.lit(label).alias("metric"),
                pl.col(column).alias("percent"),
                (pl.col(f"{stem}_ci_low") if has_ci else pl.lit(None, pl.Float64)).alias("low"),
                (pl.col(f"{stem}_ci_high") if has_ci else pl.lit(None, pl.Float64)).alias("high"),
            )
        )
    long = (
        pl.concat(frames)
        .drop_nulls("percent")
        .with_columns(label_at=pl.max_horizontal("percent", "high"))  # right of the interval
    )
    if long.is_empty():
        return placeholder(TITLE, "no finished runs")
    systems = df["system"].unique(maintain_order=True).to_list()
    systems = [s for s in systems if s in set(long["system"].to_list())]
    y = alt.Y("system:N", sort=systems, title=None, axis=alt.Axis(labelLimit=320))
    y_offset = alt.YOffset("metric:N", sort=order)
    base = alt.Chart(long).encode(
        y=y,
        yOffset=y_offset,
        x=alt.X("percent:Q", scale=alt.Scale(domain=[0, 100]), title="% of runs / mean score"),
        color=alt.Color(
            "metric:N", sort=order, title=None, legend=alt.Legend(orient="bottom", columns=4)
        ),
        tooltip=[
            alt.Tooltip("system:N"),
            alt.Tooltip("metric:N"),
            alt.Tooltip("percent:Q", format=".1f"),
            alt.Tooltip("low:Q", format=".1f", title="CI low"),
            alt.Tooltip("high:Q", format=".1f", title="CI high"),
        ],
    )
    bars = base.mark_bar()
    text = base.mark_text(align="left", dx=3, fontSize=10).encode(
        x="label_at:Q", text=alt.Text("percent:Q", format=".1f")
    )
    intervals = (
        alt.Chart(long.drop_nulls("low"))
        .mark_rule(color="black", strokeWidth=1.2)
        .encode(y=y, yOffset=y_offset, x="low:Q", x2="high:Q")
    )
    return (bars + intervals + text).properties(
        title=TITLE,
        width=480,
        height=alt.Step(14),
    )
