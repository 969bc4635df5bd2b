"""Evidence provenance: the audit table a researcher reads to find forged evidence.

Per system (model · harness · mode · protocol), over the deliverables of its weave runs: how many
there are, how many the grader passed and how many were honestly abstained; then the screenshot
deliverables that were not abstained twice over — by the grader's sha256 check in verdict.json
(genuine / forged / missing) and by one judge's provenance classification
(``Judgement.screenshots``: captured / witnessed / derived / unbacked / missing / bad_image).
A screenshot deliverable the judge has no provenance for (it did not judge the run, failed, is a
judge that does not read the trajectory, or wrote its record before the field existed) is
counted as ``unclassified``, never dropped. ``n_forged_but_backed``: the grader called it forged
(its bytes are no capture's) while the judge traced it to a capture (witnessed, derived) — the
cases where the two disagree and a reader should look.

The judge is :attr:`ReportSpec.primary_judge` (``trajectory`` by default), or the first of
``filters.judges`` when those leave the primary judge out; the other filters select runs.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.systems import SYSTEM_AXES, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = [
    "CAPTION",
    "COLUMN_LABELS",
    "EMPTY",
    "NAME",
    "POPULATION",
    "PROVENANCE_CLASSES",
    "TITLE",
    "chart",
    "data",
    "judge_of",
]

NAME = "evidence_provenance"
TITLE = "Evidence provenance: deliverables, abstentions and where each screenshot came from"
CAPTION = (
    "Per model x harness x mode x protocol (chart: screenshot deliverables stacked by the "
    "judge's provenance class; black diamond: how many the grader called forged). "
    "Deliverables: every deliverable the verdicts list; "
    "Passed and Abstained as the grader decided. Screenshots: screenshot deliverables not "
    "abstained. Genuine / Forged / Missing: the grader's check (its sha256 is, or is not, one "
    "of the run's captures). Captured ... Bad image: the judge's provenance classification "
    "(captured: the bytes of a capture; witnessed: the pixels of the runner's witness capture "
    "after a CLI call; derived: a crop, overlay or recolour of a capture; unbacked: no capture "
    "explains it). Unclassified: no provenance from this judge. Forged but backed: forged by "
    "the grader, traced to a capture by the judge."
)
POPULATION = (
    "Finished weave runs (graded, infra_error or task_error) whose verdict lists at least one "
    "deliverable, after the report's filters; incomplete runs are left out. Provenance columns "
    "from one judge (the Judge column: the report's primary judge, trajectory by default); a "
    "run that judge did not classify stays in and its screenshots count as Unclassified."
)
EMPTY = "No finished weave run lists deliverables in its verdict."
PROVENANCE_CLASSES: tuple[str, ...] = (
    "captured",
    "witnessed",
    "derived",
    "unbacked",
    "missing",
    "bad_image",
)
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "judge": "Judge",
    "n_runs": "Runs",
    "n_deliverables": "Deliverables",
    "n_passed": "Passed",
    "n_abstained": "Abstained",
    "n_screenshots": "Screenshots",
    "n_evidence_genuine": "Genuine (grader)",
    "n_evidence_forged": "Forged (grader)",
    "n_evidence_missing": "Missing (grader)",
    "n_captured": "Captured",
    "n_witnessed": "Witnessed",
    "n_derived": "Derived",
    "n_unbacked": "Unbacked",
    "n_missing": "Missing",
    "n_bad_image": "Bad image",
    "n_unclassified": "Unclassified",
    "n_forged_but_backed": "Forged but backed",
    "run_keys": "Runs (keys)",
}
_COUNTS = [c for c in COLUMN_LABELS if c.startswith("n_")]
_FILTERS: tuple[tuple[str, str], ...] = (
    ("experiments", "experiment"),
    ("tasks", "task_id"),
    ("models", "model"),
    ("harnesses", "harness"),
    ("modes", "mode"),
    ("protocols", "protocol"),
)
_QUERY = """
select run_key, model, harness, mode, protocol, deliverable, abstained, evidence, passed,
       is_screenshot, judge, provenance
from fct_deliverables
where task_kind = 'weave' and in_denominator and in_verdict {filters}
"""
_BACKED = ("witnessed", "derived", "captured")


def judge_of(spec: ReportSpec) -> str:
    """The judge whose provenance the table shows (module docstring)."""
    judges = spec.filters.judges
    return spec.primary_judge if not judges or spec.primary_judge in judges else judges[0]


def _empty() -> pl.DataFrame:
    schema: dict[str, pl.DataType] = {c: pl.String() for c in COLUMN_LABELS}
    schema |= {c: pl.Int64() for c in _COUNTS} | {"run_keys": pl.List(pl.String())}
    return pl.DataFrame(schema=schema)


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    spec = spec or ReportSpec()
    if spec.filters.kinds and "weave" not in spec.filters.kinds:
        return _empty()
    where, params = "", list[object]()
    for field, column in _FILTERS:
        values = getattr(spec.filters, field)
        if values:
            where += f" and list_contains(?, {column})"
            params.append(list(values))
    rows = fetch_df(con, _QUERY.format(filters=where), params)
    if rows.is_empty():
        return _empty()
    judge = judge_of(spec)
    of_judge = pl.col("judge") == judge
    # one row per (run, deliverable): the verdict's columns, the judge's provenance
    per = rows.group_by("run_key", "deliverable").agg(
        *[pl.col(a).first() for a in SYSTEM_AXES],
        pl.col("abstained").first(),
        pl.col("evidence").first(),
        pl.col("passed").first(),
        pl.col("is_screenshot").any(),
        pl.col("provenance").filter(of_judge).drop_nulls().first(),
    )
    shot = pl.col("is_screenshot") & ~pl.col("abstained")

    def count(expr: pl.Expr) -> pl.Expr:
        return expr.sum().cast(pl.Int64)

    table = per.group_by(*SYSTEM_AXES).agg(
        n_runs=pl.col("run_key").n_unique().cast(pl.Int64),
        n_deliverables=pl.len().cast(pl.Int64),
        n_passed=count(pl.col("passed")),
        n_abstained=count(pl.col("abstained")),
        n_screenshots=count(shot),
        n_evidence_genuine=count(shot & (pl.col("evidence") == "genuine")),
        n_evidence_forged=count(shot & (pl.col("evidence") == "forged")),
        n_evidence_missing=count(shot & (pl.col("evidence") == "missing")),
        **{f"n_{c}": count(shot & (pl.col("provenance") == c)) for c in PROVENANCE_CLASSES},
        n_unclassified=count(shot & pl.col("provenance").is_null()),
        n_forged_but_backed=count(
            shot & (pl.col("evidence") == "forged") & pl.col("provenance").is_in(_BACKED)
        ),
        run_keys=pl.col("run_key").unique().sort(),
    )
    return table.with_columns(judge=pl.lit(judge)).sort(*SYSTEM_AXES).select(list(COLUMN_LABELS))


_CLASS_LABELS = {f"n_{c}": c.replace("_", " ") for c in PROVENANCE_CLASSES} | {
    "n_unclassified": "unclassified"
}
_CLASS_COLOURS = ["#1b7837", "#5aae61", "#a6dba0", "#d73027", "#878787", "#4d4d4d", "#d9d9d9"]


def chart(df: pl.DataFrame) -> alt.LayerChart | alt.Chart:
    """Per system: its screenshot deliverables stacked by the judge's provenance class, with a
    black diamond at the number the grader called forged."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    labelled = with_system_label(df)
    long = (
        labelled.select("system", "judge", *_CLASS_LABELS)
        .unpivot(index=["system", "judge"], variable_name="class", value_name="deliverables")
        .with_columns(pl.col("class").replace_strict(_CLASS_LABELS))
    )
    order = list(_CLASS_LABELS.values())
    y = alt.Y("system:N", title=None, axis=alt.Axis(labelLimit=320))
    bars = (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=y,
            x=alt.X("deliverables:Q", title="screenshot deliverables (not abstained)"),
            color=alt.Color(
                "class:N",
                sort=order,
                scale=alt.Scale(domain=order, range=_CLASS_COLOURS),
                title=f"provenance ({df['judge'][0]})",
                legend=alt.Legend(orient="bottom"),
            ),
            order=alt.Order("rank:Q"),
            tooltip=["system", "judge", "class", "deliverables:Q"],
        )
        .transform_calculate(rank=f"indexof({order!r}, datum['class'])")
    )
    forged = (
        alt.Chart(labelled.select("system", "n_evidence_forged"))
        .mark_point(filled=True, color="black", size=110, opacity=1)
        .transform_calculate(marker="'forged (grader)'")
        .encode(
            y=y,
            x=alt.X("n_evidence_forged:Q"),
            shape=alt.Shape(
                "marker:N",
                scale=alt.Scale(range=["diamond"]),
                title=None,
                legend=alt.Legend(orient="bottom"),
            ),
            tooltip=["system", alt.Tooltip("n_evidence_forged:Q", title="forged (grader)")],
        )
    )
    return (
        alt.layer(bars, forged)
        .resolve_legend(color="independent", shape="independent")
        .properties(title=TITLE, width=480)
    )
