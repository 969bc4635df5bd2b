"""WeaveBench leaderboard: the model sweep on each harness, PassRate@τ and Overall with CIs.

A row is one system (model · harness · mode · protocol) over its finished weave runs, judged
by ``spec.primary_judge``. PassRate@τ = share of those runs with final_score ≥ τ (τ from each
judgement row); Overall = mean final score (× 100). A finished run the judge did not score
(judge_failed, not_applicable, or no judgement at all) is a failure with final 0, in the
denominator and counted in ``n_unjudged``; incomplete runs are left out and counted in
``n_incomplete``. CIs: the paired task bootstrap (``spec.bootstrap``). Per-domain columns are
PassRate over the system's runs in that domain (NULL: none). Rows are grouped by harness (one
table per harness); the paper's OpenClaw sweep (:data:`analysis.published.WEAVE_LEADERBOARD`)
sits in its harness's group with ``source`` = the paper when ``spec.published``.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.published import OURS, PAPER_WEAVE, WEAVE_LEADERBOARD
from analysis.systems import SYSTEM_AXES
from analysis.weave import (
    DOMAINS,
    MODES,
    rate_with_ci,
    run_counts,
    run_key_lists,
    tau_label,
    weave_runs,
)
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "weave_leaderboard"
TITLE = "WeaveBench leaderboard: PassRate@τ and Overall per model, by harness"
CAPTION = (
    "Per model x harness x mode x protocol, grouped by harness. PassRate@τ: share of runs "
    "whose final score reaches τ (τ from the judgement); Overall: mean final score x 100. "
    "95% CIs from the paired task bootstrap. Domain columns: PassRate within the domain. "
    "Rows with source = the paper are WeaveBench's published OpenClaw sweep, not measurements."
)
POPULATION = (
    "WeaveBench (kind weave) runs that finished (graded, infra_error, task_error), judged by "
    "the report's primary judge (default trajectory). A finished run that judge did not score "
    "(judge_failed, not_applicable, or no judgement) counts as a failure with final 0 and is "
    "counted in Unjudged; incomplete runs are excluded and counted in Incomplete."
)
EMPTY = "no finished WeaveBench runs under the report's filters"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "source": "Source",
    "n_runs": "Runs",
    "n_tasks": "Tasks",
    "tau": "τ",
    "pass_rate_pct": "PassRate (%)",
    "pass_rate_ci_low": "PR CI low",
    "pass_rate_ci_high": "PR CI high",
    "overall_pct": "Overall",
    "overall_ci_low": "Overall CI low",
    "overall_ci_high": "Overall CI high",
    **{f"pr_{d.lower()}_pct": f"{d} PR (%)" for d in DOMAINS},
    "n_unjudged": "Unjudged (failures)",
    "n_incomplete": "Incomplete (excluded)",
    "run_keys": "Runs behind the row",
}


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system (and per published row), columns as in :data:`COLUMN_LABELS`."""
    spec = spec or ReportSpec()
    runs = weave_runs(con, spec, spec.primary_judge)
    axes = list(SYSTEM_AXES)
    finished = runs.filter(pl.col("in_denominator"))
    if finished.is_empty():
        return _empty()
    counts = run_counts(runs, axes)
    domains = (
        finished.filter(pl.col("task_domain").is_in(DOMAINS))
        .group_by([*axes, "task_domain"])
        .agg(pct=pl.col("passed").cast(pl.Float64).mean() * 100)
        .with_columns(column=pl.format("pr_{}_pct", pl.col("task_domain").str.to_lowercase()))
        .pivot(on="column", index=axes, values="pct")
    )
    for d in DOMAINS:
        if f"pr_{d.lower()}_pct" not in domains.columns:
            domains = domains.with_columns(pl.lit(None, pl.Float64).alias(f"pr_{d.lower()}_pct"))
    table = (
        counts.filter(pl.col("n_runs") > 0)
        .join(tau_label(finished, axes), on=axes, how="left", nulls_equal=True)
        .join(rate_with_ci(finished, axes, "passed", spec, prefix="pass_rate"), on=axes, how="left")
        .join(
            rate_with_ci(finished, axes, "final_score", spec, prefix="overall"), on=axes, how="left"
        )
        .join(domains, on=axes, how="left", nulls_equal=True)
        .join(run_key_lists(finished, axes), on=axes, how="left", nulls_equal=True)
        .with_columns(source=pl.lit(OURS))
    )
    if spec.published:
        table = pl.concat([table, _published()], how="diagonal_relaxed")
    mode_rank = {m: i for i, m in enumerate(MODES)}
    return (
        table.with_columns(
            _mode=pl.col("mode").replace_strict(
                mode_rank, default=len(MODES), return_dtype=pl.Int64
            ),
            _paper=pl.col("source") != OURS,
        )
        .sort(
            ["harness", "_mode", "mode", "_paper", "protocol", "pass_rate_pct", "model"],
            descending=[False, False, False, False, False, True, False],
            nulls_last=True,
        )
        .select(list(COLUMN_LABELS))
    )


def _published() -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "model": r["model"],
                "harness": r["harness"],
                "mode": "hybrid",
                "source": PAPER_WEAVE,
                "pass_rate_pct": r["pass_rate_pct"],
                "run_keys": [],
            }
            for r in WEAVE_LEADERBOARD
        ],
        schema_overrides={"run_keys": pl.List(pl.String)},
    )


def _empty() -> pl.DataFrame:
    schema: dict[str, pl.DataType | type[pl.DataType]] = {c: pl.Float64 for c in COLUMN_LABELS}
    schema |= {c: pl.String for c in (*SYSTEM_AXES, "source", "tau")}
    schema |= {c: pl.Int64 for c in ("n_runs", "n_tasks", "n_unjudged", "n_incomplete")}
    schema["run_keys"] = pl.List(pl.String)
    return pl.DataFrame(schema=schema)


def _label(df: pl.DataFrame) -> pl.Expr:
    """Row label in the chart: model, plus mode/protocol when they vary, plus '(paper)'."""
    parts = [pl.col("model")]
    for axis in ("mode", "protocol"):
        if df[axis].drop_nulls().n_unique() > 1:
            parts.append(pl.col(axis).fill_null("?"))
    label = pl.concat_str(parts, separator=" · ")
    return pl.when(pl.col("source") == OURS).then(label).otherwise(label + " (paper)")


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """PassRate with its CI per system, one panel per harness, beside a domain heat map."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    rows = df.with_columns(label=_label(df), harness=pl.col("harness").fill_null("?"))
    bars_data = rows.select(
        "label",
        "harness",
        "source",
        "pass_rate_pct",
        "pass_rate_ci_low",
        "pass_rate_ci_high",
        text_x=pl.max_horizontal("pass_rate_pct", "pass_rate_ci_high"),
    )
    y = alt.Y("label:N", sort=None, title=None, axis=alt.Axis(labelLimit=260))
    base = alt.Chart().encode(y=y)
    bars = base.mark_bar().encode(
        x=alt.X("pass_rate_pct:Q", title="PassRate (%)", scale=alt.Scale(domain=[0, 100])),
        color=alt.Color("source:N", title="Source", legend=alt.Legend(orient="bottom")),
        tooltip=[
            alt.Tooltip("label:N", title="System"),
            alt.Tooltip("pass_rate_pct:Q", format=".1f"),
            alt.Tooltip("pass_rate_ci_low:Q", format=".1f"),
            alt.Tooltip("pass_rate_ci_high:Q", format=".1f"),
        ],
    )
    rules = base.mark_rule(color="black").encode(x="pass_rate_ci_low:Q", x2="pass_rate_ci_high:Q")
    text = base.mark_text(align="left", dx=4, fontSize=10).encode(
        x="text_x:Q", text=alt.Text("pass_rate_pct:Q", format=".1f")
    )
    panels = (
        alt.layer(bars, rules, text, data=bars_data)
        .properties(width=320)
        .facet(row=alt.Row("harness:N", title="Harness"))
        .resolve_scale(y="independent")
    )
    domain_cols = [f"pr_{d.lower()}_pct" for d in DOMAINS]
    heat_data = (
        rows.filter(pl.col("source") == OURS)
        .select("label", "harness", *domain_cols)
        .unpivot(index=["label", "harness"], variable_name="domain", value_name="pct")
        .drop_nulls("pct")  # no run in that domain: a blank cell
        .with_columns(
            domain=pl.col("domain").str.slice(3, 3).str.to_uppercase(),
            row=pl.concat_str([pl.col("harness"), pl.col("label")], separator=" · "),
        )
    )
    row_order = heat_data["row"].unique(maintain_order=True).to_list()
    heat_base = alt.Chart(heat_data).encode(
        x=alt.X(
            "domain:N",
            scale=alt.Scale(domain=list(DOMAINS)),
            title="Domain PassRate (%)",
            axis=alt.Axis(labelAngle=0, orient="top"),
        ),
        y=alt.Y("row:N", sort=row_order, title=None, axis=alt.Axis(labelLimit=260)),
    )
    heat = heat_base.mark_rect().encode(
        color=alt.Color("pct:Q", title="PR (%)", scale=alt.Scale(domain=[0, 100], scheme="blues")),
        tooltip=["row:N", "domain:N", alt.Tooltip("pct:Q", format=".1f")],
    )
    labels = heat_base.mark_text(fontSize=9).encode(text=alt.Text("pct:Q", format=".0f"))
    return alt.hconcat(panels, (heat + labels).properties(width=8 * 34)).properties(title=TITLE)
