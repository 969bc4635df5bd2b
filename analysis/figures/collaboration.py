"""Human collaboration (LongCLI-Bench): each protocol next to the autonomous run of the same agent.

Per model x harness x mode, one row per protocol — autonomous, plan (reference plan in the
prompt), interactive (guidance during the run), plan_interactive, simulated_user (a model
writes the guidance), self_correct (test feedback between rounds), then any other — with Pass,
Pass@k, F2P step and P2P pass (%) of the final round, the interventions the agent received per
run (plan, feedback and guidance events in the ledger), and the change in Pass against the
autonomous protocol of the same model x harness x mode, in points. Denominators as in the main
table: every finished run, infra and task errors as failures.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.passk import DEFAULT_K
from analysis.systems import SYSTEM_AXES, longcli_runs, pass_at_k_by_system, protocol_rank
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "NAME", "TITLE", "chart", "data"]

NAME = "collaboration"
TITLE = "Collaboration protocols: plan, guidance, feedback"
CAPTION = (
    "Per model x harness x mode, one row per protocol. Pass, Pass@k (unbiased, k as in the "
    "main table), F2P step and P2P pass (%) of the final round over finished runs; "
    "interventions per run: plan, feedback and guidance messages the agent received; "
    "Δ Pass: points against the autonomous protocol of the same model x harness x mode."
)
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "setup": "Model · harness · mode",
    "n_runs": "Runs",
    "n_tasks": "Tasks",
    "pass_pct": "Pass (%)",
    "k": "k",
    "pass_at_k_pct": "Pass@k (%)",
    "f2p_step_pct": "F2P step (%)",
    "p2p_pass_pct": "P2P pass (%)",
    "interventions_per_run": "Interventions / run",
    "pass_delta_pts": "Δ Pass vs autonomous (pts)",
    "run_keys": "Runs behind the row",
}

_CHART_METRICS = {
    "pass_pct": "Pass",
    "pass_at_k_pct": "Pass@k",
    "f2p_step_pct": "F2P step",
    "p2p_pass_pct": "P2P pass",
}
_SETUP_AXES = ("model", "harness", "mode")


def data(
    con: duckdb.DuckDBPyConnection, k: int = DEFAULT_K, *, spec: ReportSpec | None = None
) -> pl.DataFrame:
    """One row per system, grouped by model x harness x mode, protocols in the paper's order."""
    axes, setup = list(SYSTEM_AXES), list(_SETUP_AXES)
    runs = longcli_runs(con).filter(pl.col("in_denominator"))

    def pct(column: str) -> pl.Expr:
        return pl.col(column).cast(pl.Float64).mean() * 100

    table = runs.group_by(axes).agg(
        n_runs=pl.len().cast(pl.Int64),
        n_tasks=pl.col("task_id").n_unique().cast(pl.Int64),
        pass_pct=pct("passed"),
        f2p_step_pct=pct("f2p_step"),
        p2p_pass_pct=pct("p2p_pass"),
        interventions_per_run=pl.col("n_interventions").cast(pl.Float64).mean(),
        run_keys=pl.col("run_key").sort(),
    )
    table = table.join(pass_at_k_by_system(runs, k), on=axes, how="left", nulls_equal=True)
    baseline = table.filter(pl.col("protocol") == "autonomous").select(
        *setup, baseline_pct=pl.col("pass_pct")
    )
    table = (
        table.join(baseline, on=setup, how="left", nulls_equal=True)
        .with_columns(pass_delta_pts=pl.col("pass_pct") - pl.col("baseline_pct"))
        .with_columns(setup=_setup_label(table))
        .sort([*setup, protocol_rank(), "protocol"])
    )
    return table.select(list(COLUMN_LABELS))


def _setup_label(table: pl.DataFrame) -> pl.Expr:
    """model · harness, plus mode when it varies."""
    shown = ["model", "harness"]
    if not table.is_empty() and table["mode"].n_unique() > 1:
        shown.append("mode")
    return pl.concat_str([pl.col(a) for a in shown], separator=" · ")


def chart(df: pl.DataFrame) -> alt.FacetChart | alt.Chart:
    """Grouped bars: per model x harness x mode, one bar per protocol, one panel per metric."""
    ks = df["k"].drop_nulls().unique().to_list()
    labels = dict(_CHART_METRICS)
    if len(ks) == 1:
        labels["pass_at_k_pct"] = f"Pass@{ks[0]}"
    long = (
        df.select("setup", "protocol", *labels)
        .unpivot(index=["setup", "protocol"], variable_name="metric", value_name="percent")
        .drop_nulls("percent")
        .with_columns(pl.col("metric").replace_strict(labels))
    )
    if long.is_empty():
        return placeholder(TITLE, "no finished runs")
    protocols = df["protocol"].unique(maintain_order=True).to_list()
    setups = df["setup"].unique(maintain_order=True).to_list()
    base = alt.Chart().encode(
        y=alt.Y("setup:N", sort=setups, title=None, axis=alt.Axis(labelLimit=240)),
        yOffset=alt.YOffset("protocol:N", sort=protocols),
        x=alt.X("percent:Q", scale=alt.Scale(domain=[0, 100]), title="%"),
        color=alt.Color(
            "protocol:N",
            sort=protocols,
            title="protocol",
            legend=alt.Legend(orient="bottom", columns=3),
        ),
        tooltip=[
            alt.Tooltip("setup:N"),
            alt.Tooltip("protocol:N"),
            alt.Tooltip("metric:N"),
            alt.Tooltip("percent:Q", format=".1f"),
        ],
    )
    bars = base.mark_bar()
    text = base.mark_text(align="left", dx=2, fontSize=9).encode(
        text=alt.Text("percent:Q", format=".0f")
    )
    return (
        alt.layer(bars, text, data=long)
        .properties(width=200, height=alt.Step(12))
        .facet(column=alt.Column("metric:N", sort=list(labels.values()), title=None))
        .properties(title=TITLE)
    )
