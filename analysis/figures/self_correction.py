"""Self-correction (LongCLI-Bench): Pass, F2P step and P2P pass per round T1..Tn, and their deltas.

After each round the agent gets the test output and continues; every round is graded. Per
system (a system includes its protocol) and round: the mean over finished LongCLI runs that have
that round (``fct_rounds``). Then the paper's deltas: T1→T2, T2→T3 and T1→T3 (for n rounds:
each consecutive pair and T1→Tn), the mean over runs having both rounds of the per-run change,
in points (``fct_round_deltas``). Only systems with a run of two or more rounds are shown.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.systems import SYSTEM_AXES, longcli_tasks, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "TITLE", "chart", "data"]

NAME = "self_correction"
TITLE = "Self-correction: per-round scores and deltas"
CAPTION = (
    "Per system and round (T1..Tn): Pass, F2P step and P2P pass (%), mean over finished runs "
    "that have that round. Rows Δ Ti→Tj: mean per-run change between the two rounds, in "
    "points, over runs with both rounds (the paper's T1→T2, T2→T3, T1→T3). Systems whose runs "
    "all have one round are left out."
)
EMPTY = "no finished runs with two or more rounds"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "row": "Round / Δ",
    "from_round": "From round",
    "to_round": "Round",
    "n_runs": "Runs",
    "pass_pct": "Pass (% | Δ pts)",
    "f2p_step_pct": "F2P step (% | Δ pts)",
    "p2p_pass_pct": "P2P pass (% | Δ pts)",
    "run_keys": "Runs behind the row",
}

_METRICS = {"pass_pct": "Pass", "f2p_step_pct": "F2P step", "p2p_pass_pct": "P2P pass"}

_ROUNDS = f"""
select r.model, r.harness, r.mode, r.protocol, r.run_key, r.round, r.passed, r.f2p_step,
       r.p2p_pass
from fct_rounds r
join fct_runs f on f.run_key = r.run_key
where {longcli_tasks("f")}
"""

_DELTAS = f"""
select d.model, d.harness, d.mode, d.protocol, d.run_key, d.from_round, d.to_round,
       d.passed_delta, d.f2p_step_delta, d.p2p_pass_delta
from fct_round_deltas d
join fct_runs f on f.run_key = d.run_key
where {longcli_tasks("f")}
"""


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """Per system: one row per round ``T<n>``, then one per delta ``Δ Ti→Tj``."""
    axes = list(SYSTEM_AXES)
    rounds = fetch_df(con, _ROUNDS)
    multi_round = rounds.group_by(axes).agg(last=pl.col("round").max()).filter(pl.col("last") > 1)
    rounds = rounds.join(multi_round.select(axes), on=axes, how="semi", nulls_equal=True)
    per_round = (
        rounds.group_by([*axes, "round"])
        .agg(
            n_runs=pl.len().cast(pl.Int64),
            pass_pct=pl.col("passed").cast(pl.Float64).mean() * 100,
            f2p_step_pct=pl.col("f2p_step").mean() * 100,
            p2p_pass_pct=pl.col("p2p_pass").cast(pl.Float64).mean() * 100,
            run_keys=pl.col("run_key").sort(),
        )
        .with_columns(
            row=pl.format("T{}", pl.col("round")),
            from_round=pl.lit(None, dtype=pl.Int64),
            to_round=pl.col("round").cast(pl.Int64),
        )
    )
    deltas = fetch_df(con, _DELTAS).join(multi_round, on=axes, how="inner", nulls_equal=True)
    shown = (pl.col("to_round") == pl.col("from_round") + 1) | (
        (pl.col("from_round") == 1) & (pl.col("to_round") == pl.col("last"))
    )
    per_pair = (
        deltas.filter(shown)
        .group_by([*axes, "from_round", "to_round"])
        .agg(
            n_runs=pl.len().cast(pl.Int64),
            pass_pct=pl.col("passed_delta").cast(pl.Float64).mean() * 100,
            f2p_step_pct=pl.col("f2p_step_delta").mean() * 100,
            p2p_pass_pct=pl.col("p2p_pass_delta").cast(pl.Float64).mean() * 100,
            run_keys=pl.col("run_key").sort(),
        )
        .with_columns(
            row=pl.format("Δ T{}→T{}", pl.col("from_round"), pl.col("to_round")),
            from_round=pl.col("from_round").cast(pl.Int64),
            to_round=pl.col("to_round").cast(pl.Int64),
        )
    )
    columns = [c for c in COLUMN_LABELS if c != "system"]
    table = pl.concat([per_round.select(columns), per_pair.select(columns)])
    span = pl.col("to_round") - pl.col("from_round").fill_null(pl.col("to_round"))
    table = table.sort([*axes, pl.col("from_round").is_not_null(), span, "to_round"])
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.FacetChart | alt.Chart:
    """Lines over T1..Tn per system, one panel per metric."""
    rounds = df.filter(pl.col("from_round").is_null())
    if rounds.is_empty():
        return placeholder(TITLE, "no runs with two or more rounds")
    order = list(_METRICS.values())
    long = (
        rounds.select("system", "row", "to_round", "n_runs", *_METRICS)
        .unpivot(
            index=["system", "row", "to_round", "n_runs"],
            variable_name="metric",
            value_name="percent",
        )
        .drop_nulls("percent")
        .with_columns(pl.col("metric").replace_strict(_METRICS))
    )
    systems = long["system"].unique(maintain_order=True).to_list()
    rows = long.sort("to_round")["row"].unique(maintain_order=True).to_list()
    base = alt.Chart().encode(
        x=alt.X(
            "row:O",
            sort=rows,
            title="round",
            axis=alt.Axis(labelAngle=0),
            scale=alt.Scale(paddingInner=0.2),
        ),
        xOffset=alt.XOffset("system:N", sort=systems, scale=alt.Scale(paddingOuter=1)),
        y=alt.Y("percent:Q", scale=alt.Scale(domain=[0, 100]), title="%"),
        color=alt.Color(
            "system:N", sort=systems, title=None, legend=alt.Legend(orient="bottom", columns=2)
        ),
        tooltip=[
            alt.Tooltip("system:N"),
            alt.Tooltip("row:N", title="round"),
            alt.Tooltip("metric:N"),
            alt.Tooltip("percent:Q", format=".1f"),
            alt.Tooltip("n_runs:Q", title="runs"),
        ],
    )
    lines = base.mark_line(strokeWidth=2)
    points = base.mark_point(filled=True, size=50)
    return (
        alt.layer(lines, points, data=long)
        .properties(width=220, height=220)
        .facet(column=alt.Column("metric:N", sort=order, title=None))
        .properties(title=TITLE)
    )
