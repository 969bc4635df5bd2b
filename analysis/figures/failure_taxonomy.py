"""Failure taxonomy: how the failures split over the five families E1–E5 and 13 sub-classes,
over all models and per model (the per-model fingerprint).

A failure is a finished weave run that ``spec.primary_judge`` (default ``trajectory``) judged
(status ``judged``) with final_score < τ. Its label is the judgement's ``taxonomy_family`` /
``taxonomy_class`` (SPEC §2, ``realcli.schema.judgement.TAXONOMY``); a failure without one is
``unlabelled``, a row of its own, never dropped. A finished run the judge did not score is no
evidence of a failure mode: it is not in the shares and is counted in ``n_unjudged``.

A row is one scope (``all models``, or one model pooled over its harnesses, modes and
protocols, which the axis columns list) × level (``family`` or ``sub_class``) × label: ``n``
failures with that label, ``share_pct`` = 100 × n / ``n_failures`` of the scope. Every family
and sub-class is listed, zeros included, so fingerprints compare column by column. The paper's
shares (:data:`analysis.published.FAILURE_FAMILIES`, ``FAILURE_SUBCLASSES``, and the per-model
fingerprints quoted in its text, ``FAILURE_FINGERPRINTS``) follow as ``source`` = the paper
rows (E3 is an upper bound, "< 4%").
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.published import (
    FAILURE_FAMILIES,
    FAILURE_FINGERPRINTS,
    FAILURE_SUBCLASSES,
    OURS,
    PAPER_WEAVE,
)
from analysis.systems import SYSTEM_AXES
from analysis.weave import weave_runs
from realcli.schema.judgement import TAXONOMY
from realcli.schema.report import ReportSpec

__all__ = [
    "ALL_MODELS",
    "CAPTION",
    "COLUMN_LABELS",
    "EMPTY",
    "NAME",
    "POPULATION",
    "TITLE",
    "UNLABELLED",
    "chart",
    "data",
]

NAME = "failure_taxonomy"
TITLE = "Failure taxonomy: families E1–E5 and sub-classes, overall and per model"
CAPTION = (
    "Share of failures (judged runs with final score below τ) per taxonomy family and "
    "sub-class, over all models and per model (pooled over the harnesses, modes and protocols "
    "listed). Unlabelled failures are their own row. Rows with source = the paper are "
    "WeaveBench's published shares (n = 1,735 failures; E3 is an upper bound)."
)
POPULATION = (
    "WeaveBench (kind weave) runs that finished and that the report's primary judge (default "
    "trajectory) judged with final score below τ. Finished runs it did not score (judge_failed, "
    "not_applicable, no judgement) are not failures of a known kind: they are left out of the "
    "shares and counted in Unjudged; incomplete runs are excluded."
)
EMPTY = "no judged failure among the finished WeaveBench runs under the report's filters"
ALL_MODELS = "all models"
UNLABELLED = "unlabelled"
FAMILY_NAMES: dict[str, str] = {
    "E1": "reasoning & planning",
    "E2": "tool use & execution",
    "E3": "visual grounding",
    "E4": "long-horizon execution discipline",
    "E5": "reward hacking",
}
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "source": "Source",
    "scope": "Scope",
    "level": "Level",
    "label": "Label",
    "name": "Name",
    "n": "Failures",
    "share_pct": "Share of failures (%)",
    "n_failures": "Failures in scope",
    "n_judged": "Judged runs in scope",
    "n_unjudged": "Unjudged (not in shares)",
    "note": "Note",
    "run_keys": "Runs behind the row",
}
_LEVELS: dict[str, list[str]] = {
    "family": [*FAMILY_NAMES, UNLABELLED],
    "sub_class": [*TAXONOMY, UNLABELLED],
}


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """All models first, then each model; families before sub-classes, in taxonomy order."""
    spec = spec or ReportSpec()
    finished = weave_runs(con, spec, spec.primary_judge).filter(pl.col("in_denominator"))
    judged = finished.filter(pl.col("judge_status") == "judged")
    failures = judged.filter(~pl.col("passed")).with_columns(
        family=pl.col("taxonomy_family").fill_null(UNLABELLED),
        sub_class=pl.col("taxonomy_class").fill_null(UNLABELLED),
    )
    if failures.is_empty():
        return pl.DataFrame(schema=_schema())
    scopes: list[tuple[str | None, pl.DataFrame, pl.DataFrame]] = [(None, finished, failures)] + [
        (
            model,
            finished.filter(pl.col("model") == model),
            failures.filter(pl.col("model") == model),
        )
        for model in sorted(failures["model"].unique().to_list())
    ]
    rows: list[dict[str, object]] = []
    for model, scope_runs, scope_failures in scopes:
        pooled = {
            axis: ", ".join(sorted(scope_runs[axis].unique().to_list())) for axis in SYSTEM_AXES[1:]
        }
        n_failures = scope_failures.height
        common = {
            "model": model,
            **pooled,
            "source": OURS,
            "scope": model or ALL_MODELS,
            "n_failures": n_failures,
            "n_judged": int((scope_runs["judge_status"] == "judged").sum()),
            "n_unjudged": int((scope_runs["judge_status"] != "judged").sum()),
            "note": None,
        }
        for level, labels in _LEVELS.items():
            for label in labels:
                hit = scope_failures.filter(pl.col(level) == label)
                rows.append(
                    common
                    | {
                        "level": level,
                        "label": label,
                        "name": _name(label),
                        "n": hit.height,
                        "share_pct": 100 * hit.height / n_failures,
                        "run_keys": sorted(hit["run_key"].to_list()),
                    }
                )
    table = pl.DataFrame(rows, schema=_schema())
    if spec.published:
        table = pl.concat([table, _published()], how="diagonal_relaxed")
    return table.select(list(COLUMN_LABELS)).cast(_schema())  # type: ignore[arg-type]


def _name(label: str) -> str:
    if label == UNLABELLED:
        return "failure without a taxonomy label"
    return FAMILY_NAMES.get(label) or TAXONOMY[label]


def _published() -> pl.DataFrame:
    rows: list[dict[str, object]] = []
    for level, shares in (("family", FAILURE_FAMILIES), ("sub_class", FAILURE_SUBCLASSES)):
        for label, share in shares.items():
            rows.append(
                {
                    "scope": ALL_MODELS,
                    "level": level,
                    "label": label,
                    "name": _name(label),
                    "share_pct": share,
                    "n_failures": 1735,
                    "note": "upper bound ('< 4%')" if label == "E3" else None,
                }
            )
    for r in FAILURE_FINGERPRINTS:
        label = str(r["family"])
        rows.append(
            {
                "model": r["model"],
                "scope": r["model"],
                "level": "family",
                "label": label,
                "name": _name(label),
                "share_pct": r["share_pct"],
                "note": "quoted in the text (approximate)",
            }
        )
    return pl.DataFrame(
        [r | {"source": PAPER_WEAVE, "run_keys": []} for r in rows],
        schema_overrides={"run_keys": pl.List(pl.String)},
    )


def _schema() -> dict[str, pl.DataType | type[pl.DataType]]:
    schema: dict[str, pl.DataType | type[pl.DataType]] = {c: pl.String for c in COLUMN_LABELS}
    schema |= {c: pl.Int64 for c in ("n", "n_failures", "n_judged", "n_unjudged")}
    schema["share_pct"] = pl.Float64
    schema["run_keys"] = pl.List(pl.String)
    return schema


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """Heat maps scope × family and scope × sub-class: share of failures (%), count in the cell;
    the paper's rows are the '(paper)' scopes."""
    if df.filter(pl.col("source") == OURS).is_empty():
        return placeholder(TITLE, EMPTY)
    cells = df.with_columns(
        row=pl.when(pl.col("source") == OURS)
        .then(pl.col("scope"))
        .otherwise(pl.col("scope") + " (paper)"),
        text=pl.when(pl.col("n").is_not_null())
        .then(pl.format("{} ({})", pl.col("share_pct").round(0).cast(pl.Int64), pl.col("n")))
        .when(pl.col("note").str.starts_with("upper bound"))
        .then(pl.format("< {}", pl.col("share_pct").round(1)))
        .otherwise(pl.col("share_pct").round(1).cast(pl.String)),
    ).select("row", "source", "level", "label", "name", "share_pct", "n", "text", "note")
    rows = cells["row"].unique(maintain_order=True).to_list()

    def panel(level: str, title: str, step: int) -> alt.LayerChart:
        part = cells.filter(pl.col("level") == level)
        order = [x for x in _LEVELS[level] if x in part["label"].to_list()]
        base = alt.Chart(part).encode(
            x=alt.X("label:N", sort=order, title=None, axis=alt.Axis(labelAngle=0, orient="top")),
            y=alt.Y("row:N", sort=rows, title=None, axis=alt.Axis(labelLimit=220)),
        )
        heat = base.mark_rect().encode(
            color=alt.Color(
                "share_pct:Q",
                title="Share of failures (%)",
                scale=alt.Scale(domainMin=0, scheme="oranges"),
            ),
            tooltip=["row:N", "label:N", "name:N", alt.Tooltip("share_pct:Q", format=".1f"), "n:Q"],
        )
        text = base.mark_text(fontSize=9).encode(
            text="text:N",
            color=alt.value("black"),
        )
        return (heat + text).properties(width=alt.Step(step), height=alt.Step(24), title=title)

    return (
        alt.hconcat(panel("family", "Families", 64), panel("sub_class", "Sub-classes", 44))
        .resolve_scale(color="shared")
        .properties(title=TITLE)
    )
