"""Round-to-round retention of tests, T_k → T_k' (SPEC §4), from ``fct_round_retention``.

For every finished run with two or more graded rounds, each pair of consecutive rounds and
T1→Tn, per test set (F2P, P2P): retention = tests passing at T_k still passing at T_k' /
tests passing at T_k; regressions (passing at T_k, not at T_k'); new passes (the reverse);
churn = (regressions + new passes) / tests graded. Per system, pair and set the counts are
pooled over the runs (retention and churn are ratios of the pooled counts); regressions per run
is their mean.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.systems import SYSTEM_AXES, protocol_rank, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "round_retention"
TITLE = "Round-to-round retention, regressions and churn"
CAPTION = (
    "Per system, round pair (consecutive rounds and T1→Tn) and test set: retention = tests "
    "passing at T_k still passing at T_k' / tests passing at T_k; regressions, new passes; "
    "churn = (regressions + new passes) / tests graded. Counts pooled over runs."
)
POPULATION = (
    "Finished runs of every task kind with two or more graded rounds (self-correction and "
    "other multi-round protocols) and their graded F2P and P2P tests."
)
EMPTY = "no finished runs with two or more graded rounds"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "round_pair": "Rounds",
    "from_round": "From",
    "to_round": "To",
    "test_set": "Tests",
    "n_runs": "Runs",
    "n_tests": "Tests graded",
    "passed_before": "Passing at T_k",
    "retained": "Retained",
    "regressions": "Regressions",
    "new_passes": "New passes",
    "retention_pct": "Retention (%)",
    "churn_pct": "Churn (%)",
    "regressions_per_run": "Regressions / run",
    "run_keys": "Runs",
}

_PAIRS = """
select model, harness, mode, protocol, run_key, from_round, to_round, round_pair, test_set,
       n_tests, passed_before, retained, regressed, newly_passed
from fct_round_retention
where is_consecutive or is_first_to_last
"""


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system × round pair × test set, sorted by system, span, pair and set."""
    axes = list(SYSTEM_AXES)
    pairs = fetch_df(con, _PAIRS)
    keys = [*axes, "round_pair", "from_round", "to_round", "test_set"]
    table = pairs.group_by(keys).agg(
        n_runs=pl.len().cast(pl.Int64),
        n_tests=pl.col("n_tests").sum().cast(pl.Int64),
        passed_before=pl.col("passed_before").sum().cast(pl.Int64),
        retained=pl.col("retained").sum().cast(pl.Int64),
        regressions=pl.col("regressed").sum().cast(pl.Int64),
        new_passes=pl.col("newly_passed").sum().cast(pl.Int64),
        regressions_per_run=pl.col("regressed").cast(pl.Float64).mean(),
        run_keys=pl.col("run_key").sort(),
    )
    table = table.with_columns(
        retention_pct=pl.when(pl.col("passed_before") > 0).then(
            pl.col("retained") / pl.col("passed_before") * 100
        ),
        churn_pct=pl.when(pl.col("n_tests") > 0).then(
            (pl.col("regressions") + pl.col("new_passes")) / pl.col("n_tests") * 100
        ),
        from_round=pl.col("from_round").cast(pl.Int64),
        to_round=pl.col("to_round").cast(pl.Int64),
    )
    span = pl.col("to_round") - pl.col("from_round")
    table = table.sort([*axes[:3], protocol_rank(), "protocol", span, "from_round", "test_set"])
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.VConcatChart | alt.Chart:
    """Retention and churn per round pair, one column of panels per test set, one bar per
    system."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    systems = df["system"].unique(maintain_order=True).to_list()
    pairs = df["round_pair"].unique(maintain_order=True).to_list()  # consecutive, then T1→Tn
    source = df.drop("run_keys")
    rows = []
    for column, title in (("retention_pct", "retention (%)"), ("churn_pct", "churn (%)")):
        rows.append(
            alt.Chart(source)
            .mark_bar()
            .encode(
                x=alt.X("round_pair:N", sort=pairs, title=None, axis=alt.Axis(labelAngle=0)),
                xOffset=alt.XOffset("system:N", sort=systems),
                y=alt.Y(f"{column}:Q", scale=alt.Scale(domain=[0, 100]), title=title),
                color=alt.Color(
                    "system:N", sort=systems, legend=alt.Legend(orient="bottom", columns=2)
                ),
                tooltip=[
                    "system:N",
                    "round_pair:N",
                    "test_set:N",
                    alt.Tooltip(f"{column}:Q", format=".1f"),
                    "regressions:Q",
                    "new_passes:Q",
                    "n_runs:Q",
                ],
            )
            .properties(width=200, height=160)
            .facet(column=alt.Column("test_set:N", title=None, sort=["f2p", "p2p"]))
        )
    return alt.vconcat(*rows).properties(title=TITLE)
