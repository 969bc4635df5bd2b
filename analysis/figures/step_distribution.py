"""F2P step-score distribution per system: share of runs in each LongCLI-Bench bin.

Bins come from the warehouse view ``dim_step_bins``: [0,30), [30,60), [60,80), [80,100) and
exactly 100 (a run with F2P step 1.0 is in bin "100"). Every bin appears for every system, with
zero runs where none fell in it. Denominator: finished runs (infra and task errors count, in the
[0,30) bin when they scored nothing); incomplete runs are left out.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.systems import SYSTEM_AXES, longcli_runs, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "NAME", "TITLE", "chart", "data"]

NAME = "step_distribution"
TITLE = "F2P step-score distribution"
CAPTION = (
    "Share of finished runs whose F2P step score (%) falls in each bin; 100 is its own bin. "
    "Incomplete runs are excluded."
)
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "bin": "F2P step bin (%)",
    "bin_order": "Bin #",
    "n_runs_in_bin": "Runs in bin",
    "n_runs": "Runs",
    "share_pct": "Share (%)",
    "run_keys": "Runs behind the row",
}


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system and bin, sorted by the system axes and bin order."""
    axes = list(SYSTEM_AXES)
    runs = longcli_runs(con).filter(pl.col("in_denominator"))
    bins = fetch_df(con, "select bin_order, bin from dim_step_bins")
    totals = runs.group_by(axes).agg(n_runs=pl.len().cast(pl.Int64))
    counts = (
        runs.rename({"f2p_step_bin": "bin"})
        .group_by([*axes, "bin"])
        .agg(n_runs_in_bin=pl.len().cast(pl.Int64), run_keys=pl.col("run_key").sort())
    )
    grid = totals.join(bins, how="cross")
    table = (
        grid.join(counts, on=[*axes, "bin"], how="left", nulls_equal=True)
        .with_columns(
            pl.col("n_runs_in_bin").fill_null(0),
            pl.col("run_keys").fill_null(pl.lit([], dtype=pl.List(pl.String))),
        )
        .with_columns(share_pct=pl.col("n_runs_in_bin") / pl.col("n_runs") * 100)
        .sort([*axes, "bin_order"])
    )
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.LayerChart | alt.Chart:
    """Stacked horizontal bars (100% per system), bins coloured low → high."""
    if df.is_empty():
        return placeholder(TITLE, "no finished runs")
    bins = df.sort("bin_order")["bin"].unique(maintain_order=True).to_list()
    systems = df["system"].unique(maintain_order=True).to_list()
    source = (
        df.select("system", "bin", "bin_order", "n_runs_in_bin", "n_runs", "share_pct")
        .sort("system", "bin_order")
        .with_columns(
            label_at=pl.col("share_pct").cum_sum().over("system") - pl.col("share_pct") / 2
        )
    )
    base = alt.Chart(source).encode(
        y=alt.Y("system:N", sort=systems, title=None, axis=alt.Axis(labelLimit=320)),
        x=alt.X(
            "share_pct:Q",
            stack="zero",
            scale=alt.Scale(domain=[0, 100]),
            title="share of runs (%)",
        ),
        order=alt.Order("bin_order:Q", sort="ascending"),
        tooltip=[
            alt.Tooltip("system:N"),
            alt.Tooltip("bin:N", title="F2P step bin (%)"),
            alt.Tooltip("n_runs_in_bin:Q", title="runs"),
            alt.Tooltip("share_pct:Q", format=".1f", title="share (%)"),
        ],
    )
    bars = base.mark_bar().encode(
        color=alt.Color(
            "bin:N",
            sort=bins,
            scale=alt.Scale(scheme="redyellowgreen"),
            title="F2P step (%)",
            legend=alt.Legend(orient="bottom", direction="horizontal"),
        )
    )
    labels = (
        alt.Chart(source)
        .transform_filter(alt.datum.share_pct >= 8)
        .transform_calculate(share_label="format(datum.share_pct, '.0f') + '%'")
        .mark_text(color="black", fontSize=10)
        .encode(
            y=alt.Y("system:N", sort=systems),
            x=alt.X("label_at:Q"),
            text=alt.Text("share_label:N"),
        )
    )
    return (bars + labels).properties(title=TITLE, width=480, height=alt.Step(22))
