"""Judge ablation: PassRate@τ under the outcome-only judge and the trajectory-aware judge,
on the same runs, and the inflation the audit removes.

A row is one model · harness · mode · protocol over its **paired** runs: finished weave runs
that both ``outcome_only`` and ``spec.primary_judge`` (default ``trajectory``) judged (status
``judged``). A finished run only one of them judged, or that either failed to judge, is left
out of the pair and counted in ``n_unpaired``; incomplete runs in ``n_incomplete``.
``inflation_pp`` = outcome-only PassRate − audited PassRate, in points; its CI is the paired
task bootstrap of the per-run difference (``spec.bootstrap``; the same task draw for both
judges). ``passed_only_outcome``: runs the outcome-only judge passes and the audited judge
fails (the inflation's runs); ``passed_only_audited``: the reverse; ``n_hacks``: paired runs the
audited judge flagged ``is_hack``. ``fct_judge_ablation`` (judge_a = outcome_only, judge_b =
the primary judge) gives the same counts when every pair is judged, but it also pairs
judge_failed rows, groups by experiment, has no per-run rows to bootstrap and no report
filters; hence this figure reads ``stg_judgements`` itself. Published: GPT-5.5 53.5 → 33.3 and
the 10.3–20.2 pp range over four GPT backbones (:data:`analysis.published.JUDGE_ABLATION`).
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.published import JUDGE_ABLATION, OURS, PAPER_WEAVE
from analysis.systems import SYSTEM_AXES
from analysis.weave import OUTCOME_ONLY, rate_with_ci, run_key_lists, weave_runs
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "judge_ablation"
TITLE = "Judge ablation: outcome-only vs trajectory-aware PassRate@τ"
CAPTION = (
    "Per model x harness x mode x protocol, on the runs both judges judged: PassRate@τ under "
    "the outcome-only judge and under the audited (primary, default trajectory) judge, each "
    "with its 95% paired task bootstrap CI, and the inflation (outcome-only minus audited, "
    "points) with a paired bootstrap CI. Only outcome / only audited: runs one judge passes and "
    "the other fails. Rows with source = the paper are WeaveBench's published numbers."
)
POPULATION = (
    "WeaveBench (kind weave) runs that finished and were judged (status judged) by both "
    "outcome_only and the report's primary judge (default trajectory); finished runs missing "
    "either judgement or failed by either judge are counted in Unpaired; incomplete runs are "
    "excluded and counted."
)
EMPTY = "no finished WeaveBench run is judged by both outcome_only and the primary judge"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "source": "Source",
    "audited_judge": "Audited judge",
    "n_runs": "Paired runs",
    "n_tasks": "Tasks",
    "outcome_only_pct": "Outcome-only PR (%)",
    "outcome_only_ci_low": "OO CI low",
    "outcome_only_ci_high": "OO CI high",
    "audited_pct": "Audited PR (%)",
    "audited_ci_low": "Audited CI low",
    "audited_ci_high": "Audited CI high",
    "inflation_pp": "Inflation (pp)",
    "inflation_ci_low": "Inflation CI low",
    "inflation_ci_high": "Inflation CI high",
    "passed_only_outcome": "Only outcome-only passes",
    "passed_only_audited": "Only audited passes",
    "n_hacks": "Hacks (audited)",
    "note": "Note",
    "n_unpaired": "Unpaired (excluded)",
    "n_incomplete": "Incomplete (excluded)",
    "run_keys": "Runs behind the row",
}


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system with paired runs, then the paper's rows."""
    spec = spec or ReportSpec()
    audited = spec.primary_judge
    axes = list(SYSTEM_AXES)
    if audited == OUTCOME_ONLY:
        return pl.DataFrame(schema=_schema())
    a = weave_runs(con, spec, OUTCOME_ONLY)
    b = weave_runs(con, spec, audited).select(
        "run_key",
        b_status="judge_status",
        b_passed="passed",
        b_hack="is_hack",
    )
    runs = a.join(b, on="run_key", how="left").with_columns(
        paired=pl.col("in_denominator")
        & (pl.col("judge_status") == "judged")
        & (pl.col("b_status") == "judged")
    )
    pairs = runs.filter(pl.col("paired")).with_columns(
        inflation=pl.col("passed").cast(pl.Float64) - pl.col("b_passed").cast(pl.Float64)
    )
    if pairs.is_empty():
        return pl.DataFrame(schema=_schema())
    counts = runs.group_by(axes).agg(
        n_runs=pl.col("paired").sum().cast(pl.Int64),
        n_tasks=pl.col("task_id").filter(pl.col("paired")).n_unique().cast(pl.Int64),
        passed_only_outcome=(pl.col("paired") & pl.col("passed") & ~pl.col("b_passed"))
        .sum()
        .cast(pl.Int64),
        passed_only_audited=(pl.col("paired") & ~pl.col("passed") & pl.col("b_passed"))
        .sum()
        .cast(pl.Int64),
        n_hacks=(pl.col("paired") & pl.col("b_hack")).sum().cast(pl.Int64),
        n_unpaired=(pl.col("in_denominator") & ~pl.col("paired")).sum().cast(pl.Int64),
        n_incomplete=(~pl.col("in_denominator")).sum().cast(pl.Int64),
    )
    table = counts.filter(pl.col("n_runs") > 0)
    for column, prefix in (
        ("passed", "outcome_only"),
        ("b_passed", "audited"),
        ("inflation", "inflation"),
    ):
        rates = rate_with_ci(pairs, axes, column, spec, prefix=prefix)
        if prefix == "inflation":
            rates = rates.rename({"inflation_pct": "inflation_pp"})
        table = table.join(rates, on=axes, how="left", nulls_equal=True)
    table = (
        table.join(run_key_lists(pairs, axes), on=axes, how="left", nulls_equal=True)
        .with_columns(
            source=pl.lit(OURS), audited_judge=pl.lit(audited), note=pl.lit(None, pl.String)
        )
        .sort(axes)
    )
    if spec.published:
        table = pl.concat([table, _published()], how="diagonal_relaxed")
    return table.select(list(COLUMN_LABELS)).cast(_schema())  # type: ignore[arg-type]


def _published() -> pl.DataFrame:
    rows: list[dict[str, object]] = []
    for r in JUDGE_ABLATION["rows"]:  # type: ignore[attr-defined]
        rows.append(
            {
                "model": r["model"],
                "harness": "openclaw",
                "mode": "hybrid",
                "audited_judge": "trajectory",
                "outcome_only_pct": r["outcome_only_pct"],
                "audited_pct": r["trajectory_pct"],
                "inflation_pp": round(r["outcome_only_pct"] - r["trajectory_pct"], 6),
            }
        )
    low, high = JUDGE_ABLATION["inflation_min_pp"], JUDGE_ABLATION["inflation_max_pp"]
    rows.append(
        {
            "audited_judge": "trajectory",
            "note": f"inflation removed on four GPT backbones: {low}–{high} pp",
        }
    )
    return pl.DataFrame(
        [r | {"source": PAPER_WEAVE, "run_keys": []} for r in rows],
        schema_overrides={"run_keys": pl.List(pl.String)},
    )


def _schema() -> dict[str, pl.DataType | type[pl.DataType]]:
    schema: dict[str, pl.DataType | type[pl.DataType]] = {c: pl.Float64 for c in COLUMN_LABELS}
    schema |= {c: pl.String for c in (*SYSTEM_AXES, "source", "audited_judge", "note")}
    ints = ("n_runs", "n_tasks", "passed_only_outcome", "passed_only_audited", "n_hacks")
    schema |= {c: pl.Int64 for c in (*ints, "n_unpaired", "n_incomplete")}
    schema["run_keys"] = pl.List(pl.String)
    return schema


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """Dumbbells (outcome-only → audited PassRate) per system, beside the inflation with its
    CI; the paper's 10.3–20.2 pp range is the shaded band."""
    rows = df.filter(pl.col("outcome_only_pct").is_not_null())
    if rows.filter(pl.col("source") == OURS).is_empty():
        return placeholder(TITLE, EMPTY)
    varying = [a for a in ("harness", "mode", "protocol") if rows[a].drop_nulls().n_unique() > 1]
    label = pl.concat_str(
        [pl.col("model"), *[pl.col(a).fill_null("?") for a in varying]], separator=" · "
    )
    rows = rows.with_columns(
        system=pl.when(pl.col("source") == OURS).then(label).otherwise(label + " (paper)")
    )
    order = rows["system"].to_list()
    points = rows.select(
        "system",
        pl.col("outcome_only_pct").alias("outcome-only"),
        pl.col("audited_pct").alias("audited"),
    ).unpivot(index="system", variable_name="judge", value_name="pass_rate_pct")
    y = alt.Y("system:N", sort=order, title=None, axis=alt.Axis(labelLimit=260))
    line = (
        alt.Chart(rows)
        .mark_rule(color="#999", strokeWidth=2)
        .encode(y=y, x=alt.X("outcome_only_pct:Q"), x2="audited_pct:Q")
    )
    dots = (
        alt.Chart(points)
        .mark_point(filled=True, size=80)
        .encode(
            y=y,
            x=alt.X("pass_rate_pct:Q", title="PassRate (%)", scale=alt.Scale(domain=[0, 100])),
            color=alt.Color("judge:N", title="Judge", legend=alt.Legend(orient="bottom")),
            tooltip=["system:N", "judge:N", alt.Tooltip("pass_rate_pct:Q", format=".1f")],
        )
    )
    left = (line + dots).properties(width=300, height=alt.Step(22), title="PassRate per judge")
    low, high = JUDGE_ABLATION["inflation_min_pp"], JUDGE_ABLATION["inflation_max_pp"]
    band = (
        alt.Chart(pl.DataFrame({"low": [low], "high": [high]}))
        .mark_rect(color="#f3c98b", opacity=0.4)
        .encode(x="low:Q", x2="high:Q")
    )
    infl = rows.select(
        "system",
        "source",
        "inflation_pp",
        "inflation_ci_low",
        "inflation_ci_high",
        text_x=pl.max_horizontal("inflation_pp", "inflation_ci_high"),
    )
    bars = (
        alt.Chart(infl)
        .mark_bar()
        .encode(
            y=y,
            color=alt.Color("source:N", title="Source", legend=alt.Legend(orient="bottom")),
            x=alt.X("inflation_pp:Q", title="Inflation removed by the audit (pp)"),
            tooltip=[
                "system:N",
                alt.Tooltip("inflation_pp:Q", format=".1f"),
                alt.Tooltip("inflation_ci_low:Q", format=".1f"),
                alt.Tooltip("inflation_ci_high:Q", format=".1f"),
            ],
        )
    )
    rules = (
        alt.Chart(infl)
        .mark_rule(color="black")
        .encode(y=y, x="inflation_ci_low:Q", x2="inflation_ci_high:Q")
    )
    values = (
        alt.Chart(infl)
        .mark_text(align="left", dx=4, fontSize=10)
        .encode(y=y, x="text_x:Q", text=alt.Text("inflation_pp:Q", format="+.1f"))
    )
    right = (band + bars + rules + values).properties(
        width=260, height=alt.Step(22), title=f"Inflation (95% CI; band: paper's {low}–{high} pp)"
    )
    return alt.hconcat(left, right).resolve_scale(color="independent").properties(title=TITLE)
