"""WeaveBench cross-harness table: each model's PassRate@τ on every harness it ran on.

A row is one model · harness (· mode · protocol) over its finished weave runs, judged by
``spec.primary_judge``, with the paired task bootstrap CI. Counting as in
:mod:`analysis.figures.weave_leaderboard`: a finished run the judge did not score is a failure
(``n_unjudged``), incomplete runs are excluded (``n_incomplete``). The paper's two backbones ×
four runtimes (:data:`analysis.published.CROSS_HARNESS`) follow as ``source`` = the paper rows.
The chart is a model × harness heat map, ours and the paper's side by side.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.published import CROSS_HARNESS, OURS, PAPER_WEAVE
from analysis.systems import SYSTEM_AXES
from analysis.weave import rate_with_ci, run_counts, run_key_lists, tau_label, weave_runs
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "weave_cross_harness"
TITLE = "WeaveBench across harnesses: PassRate@τ per model x harness"
CAPTION = (
    "Per model x harness (x mode x protocol): PassRate@τ with its 95% paired task bootstrap "
    "CI. Rows with source = the paper are WeaveBench's published cross-harness PassRates "
    "(two backbones x four runtimes), not measurements."
)
POPULATION = (
    "WeaveBench (kind weave) runs that finished, judged by the report's primary judge "
    "(default trajectory); a finished run it did not score (judge_failed, not_applicable, "
    "no judgement) is a failure, counted in Unjudged; incomplete runs are excluded and counted."
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
    "pass_rate_ci_low": "CI low",
    "pass_rate_ci_high": "CI high",
    "n_unjudged": "Unjudged (failures)",
    "n_incomplete": "Incomplete (excluded)",
    "run_keys": "Runs behind the row",
}


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per model · harness · mode · protocol, then the paper's rows."""
    spec = spec or ReportSpec()
    runs = weave_runs(con, spec, spec.primary_judge)
    axes = list(SYSTEM_AXES)
    finished = runs.filter(pl.col("in_denominator"))
    if finished.is_empty():
        return pl.DataFrame(schema=_schema())
    table = (
        run_counts(runs, axes)
        .filter(pl.col("n_runs") > 0)
        .join(tau_label(finished, axes), on=axes, how="left", nulls_equal=True)
        .join(rate_with_ci(finished, axes, "passed", spec, prefix="pass_rate"), on=axes, how="left")
        .join(run_key_lists(finished, axes), on=axes, how="left", nulls_equal=True)
        .with_columns(source=pl.lit(OURS))
        .sort(axes)
    )
    if spec.published:
        paper = pl.DataFrame(
            [
                {
                    "model": r["model"],
                    "harness": r["harness"],
                    "mode": "hybrid",
                    "source": PAPER_WEAVE,
                    "pass_rate_pct": r["pass_rate_pct"],
                    "run_keys": [],
                }
                for r in CROSS_HARNESS
            ],
            schema_overrides={"run_keys": pl.List(pl.String)},
        )
        table = pl.concat([table, paper], how="diagonal_relaxed")
    return table.select(list(COLUMN_LABELS)).cast(_schema())  # type: ignore[arg-type]


def _schema() -> dict[str, pl.DataType | type[pl.DataType]]:
    schema: dict[str, pl.DataType | type[pl.DataType]] = {c: pl.String for c in COLUMN_LABELS}
    schema |= {c: pl.Int64 for c in ("n_runs", "n_tasks", "n_unjudged", "n_incomplete")}
    schema |= {c: pl.Float64 for c in ("pass_rate_pct", "pass_rate_ci_low", "pass_rate_ci_high")}
    schema["run_keys"] = pl.List(pl.String)
    return schema


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """Heat maps model x harness of PassRate with its CI, ours beside the paper's."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    varying = [a for a in ("mode", "protocol") if df[a].drop_nulls().n_unique() > 1]
    rows = df.with_columns(
        row=pl.concat_str(
            [pl.col("model"), *[pl.col(a).fill_null("?") for a in varying]], separator=" · "
        ),
        cell=pl.when(pl.col("pass_rate_ci_low").is_not_null())
        .then(
            pl.format(
                "{} [{}, {}]",
                pl.col("pass_rate_pct").round(1),
                pl.col("pass_rate_ci_low").round(0).cast(pl.Int64),
                pl.col("pass_rate_ci_high").round(0).cast(pl.Int64),
            )
        )
        .otherwise(pl.col("pass_rate_pct").round(1).cast(pl.String)),
    ).select(
        "row", "harness", "source", "pass_rate_pct", "pass_rate_ci_low", "pass_rate_ci_high", "cell"
    )

    def panel(source: str) -> alt.LayerChart:
        part = rows.filter(pl.col("source") == source)
        base = alt.Chart(part).encode(
            x=alt.X("harness:N", title="Harness", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("row:N", title=None, axis=alt.Axis(labelLimit=240)),
        )
        heat = base.mark_rect().encode(
            color=alt.Color(
                "pass_rate_pct:Q",
                title="PassRate (%)",
                scale=alt.Scale(domain=[0, 100], scheme="blues"),
            ),
            tooltip=[
                "row:N",
                "harness:N",
                alt.Tooltip("pass_rate_pct:Q", format=".1f"),
                alt.Tooltip("pass_rate_ci_low:Q", format=".1f"),
                alt.Tooltip("pass_rate_ci_high:Q", format=".1f"),
            ],
        )
        text = base.mark_text(fontSize=10).encode(
            text="cell:N",
            color=alt.condition("datum.pass_rate_pct > 60", alt.value("white"), alt.value("black")),
        )
        title = "PassRate [95% CI], ours" if source == OURS else f"{source}"
        return (heat + text).properties(width=alt.Step(110), height=alt.Step(26), title=title)

    panels = [panel(s) for s in (OURS, PAPER_WEAVE) if s in rows["source"].to_list()]
    return alt.hconcat(*panels).resolve_scale(color="shared").properties(title=TITLE)
