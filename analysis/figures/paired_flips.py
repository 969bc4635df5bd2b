"""Paired flips between every two systems on the same tasks and seeds, with McNemar's exact test.

For each task kind on its own (never mixing kinds in a pair): LongCLI runs are scored by their
verdict's Pass; WeaveBench runs by the judged pass (PassRate@τ) of ``spec.primary_judge`` from
``fct_judgements`` (a judge_failed / not_applicable judgement is a fail). Two systems are paired
on the (task, seed) cells both have a finished run on (:func:`analysis.stats.paired_flips`; a
cell with several runs of one system counts its first). Per pair: ``a_only`` (A passes, B
fails), ``b_only``, ``both``, ``neither`` and McNemar's exact two-sided p on the discordant
cells. The first four columns are system A's axes, ``b_*`` system B's.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis import stats
from analysis.charts import placeholder
from analysis.systems import SYSTEM_AXES, longcli_tasks, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "paired_flips"
TITLE = "Paired flips between systems (same tasks and seeds)"
CAPTION = (
    "Every pair of systems with finished runs on the same task and seed, per task kind. "
    "A only: cells A passes and B fails; B only: the reverse; McNemar exact p: two-sided "
    "binomial test of A only vs B only (empty when no cell is discordant). LongCLI: verdict "
    "Pass; WeaveBench: the primary judge's pass (final score ≥ τ)."
)
POPULATION = (
    "Finished runs (graded, infra_error, task_error; errors are fails). LongCLI tasks (kind "
    "longcli or unrecorded): verdict pass. WeaveBench tasks: runs with a judgement by the "
    "report's primary judge, its pass (judge_failed / not_applicable = fail); weave runs "
    "without that judgement are not paired. Pairs sharing no (task, seed) are not listed."
)
EMPTY = "no two systems have finished runs on the same task and seed"
COLUMN_LABELS = {
    "model": "A: model",
    "harness": "A: harness",
    "mode": "A: mode",
    "protocol": "A: protocol",
    "system": "System A",
    "b_model": "B: model",
    "b_harness": "B: harness",
    "b_mode": "B: mode",
    "b_protocol": "B: protocol",
    "b_system": "System B",
    "kind": "Task kind",
    "outcome": "Outcome",
    "n_pairs": "Paired (task, seed)",
    "a_only": "A only",
    "b_only": "B only",
    "both": "Both pass",
    "neither": "Neither",
    "mcnemar_p": "McNemar exact p",
    "run_keys": "Runs behind the row",
}
_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    **{c: pl.String for c in COLUMN_LABELS},
    **{c: pl.Int64 for c in ("n_pairs", "a_only", "b_only", "both", "neither")},
    "mcnemar_p": pl.Float64,
    "run_keys": pl.List(pl.String),
}
_AXES = ", ".join(SYSTEM_AXES)


def _outcomes(con: duckdb.DuckDBPyConnection, judge: str) -> dict[tuple[str, str], pl.DataFrame]:
    """(kind, outcome label) → runs with ``passed``, task_id, seed, run_key and the axes."""
    longcli = fetch_df(
        con,
        f"select {_AXES}, task_id, seed, run_key, passed from fct_runs "
        f"where in_denominator and {longcli_tasks()}",
    )
    weave = fetch_df(
        con,
        f"select {_AXES}, task_id, seed, run_key, passed from fct_judgements "
        "where in_denominator and task_kind = 'weave' and judge = ?",
        [judge],
    )
    return {("longcli", "verdict pass"): longcli, ("weave", f"judged pass ({judge})"): weave}


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per task kind and pair of systems sharing a (task, seed), A before B by name."""
    spec = spec or ReportSpec()
    axes = list(SYSTEM_AXES)
    frames = []
    for (kind, outcome), runs in _outcomes(con, spec.primary_judge).items():
        runs = runs.sort("run_key")
        flips = stats.paired_flips(runs, axes, "passed").filter(pl.col("n_pairs") > 0)
        if flips.is_empty():
            continue
        labels = with_system_label(runs.select(axes).unique()).select(*axes, "system")
        flips = flips.rename({f"a_{a}": a for a in axes}).join(
            labels, on=axes, how="left", nulls_equal=True
        )
        flips = flips.join(
            labels.rename({a: f"b_{a}" for a in axes} | {"system": "b_system"}),
            on=[f"b_{a}" for a in axes],
            how="left",
            nulls_equal=True,
        )
        flips = flips.with_columns(kind=pl.lit(kind), outcome=pl.lit(outcome))
        frames.append(_with_run_keys(flips, runs))
    if not frames:
        return pl.DataFrame(schema=_SCHEMA).select(list(COLUMN_LABELS))
    return pl.concat([f.select(list(COLUMN_LABELS)) for f in frames]).cast(_SCHEMA)  # type: ignore[arg-type]


def _with_run_keys(flips: pl.DataFrame, runs: pl.DataFrame) -> pl.DataFrame:
    """Add ``run_keys``: both systems' runs on the (task, seed) cells the pair shares (the first
    run per system and cell, the one :func:`analysis.stats.paired_flips` counted)."""
    axes = list(SYSTEM_AXES)
    first = runs.with_columns([pl.col(a).cast(pl.String) for a in axes]).unique(
        [*axes, "task_id", "seed"], keep="first", maintain_order=True
    )
    keys = []
    for row in flips.select(*axes, *[f"b_{a}" for a in axes]).iter_rows():
        side_a, side_b = row[: len(axes)], row[len(axes) :]
        cells = []
        for side in (side_a, side_b):
            match = pl.all_horizontal(
                [
                    pl.col(a).eq_missing(pl.lit(v, pl.String))
                    for a, v in zip(axes, side, strict=True)
                ]
            )
            cells.append(first.filter(match).select("task_id", "seed", "run_key"))
        shared = cells[0].join(cells[1], on=["task_id", "seed"], suffix="_b")
        keys.append(sorted(shared["run_key"].to_list() + shared["run_key_b"].to_list()))
    return flips.with_columns(run_keys=pl.Series(keys, dtype=pl.List(pl.String)))


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """Heat map per task kind: system A (columns) × system B (rows), colour = discordant cells
    (A only + B only), text "A only : B only" with * where McNemar p < 0.05."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    source = df.select(
        "kind",
        "outcome",
        "system",
        "b_system",
        "a_only",
        "b_only",
        "n_pairs",
        "mcnemar_p",
        (pl.col("a_only") + pl.col("b_only")).alias("discordant"),
        pl.format(
            "{}:{}{}",
            "a_only",
            "b_only",
            pl.when(pl.col("mcnemar_p") < 0.05).then(pl.lit("*")).otherwise(pl.lit("")),
        ).alias("label"),
    )
    panels = []
    for (kind, outcome), rows in source.group_by("kind", "outcome", maintain_order=True):
        base = alt.Chart(rows).encode(
            x=alt.X("system:N", title="system A", axis=alt.Axis(labelAngle=-30, labelLimit=200)),
            y=alt.Y("b_system:N", title="system B", axis=alt.Axis(labelLimit=240)),
        )
        cells = base.mark_rect().encode(
            color=alt.Color("discordant:Q", title="discordant", scale=alt.Scale(scheme="oranges")),
            tooltip=[
                alt.Tooltip("system:N", title="A"),
                alt.Tooltip("b_system:N", title="B"),
                alt.Tooltip("a_only:Q", title="A only"),
                alt.Tooltip("b_only:Q", title="B only"),
                alt.Tooltip("n_pairs:Q", title="paired cells"),
                alt.Tooltip("mcnemar_p:Q", format=".3f", title="McNemar p"),
            ],
        )
        text = base.mark_text(fontSize=10).encode(text="label:N")
        panels.append(
            (cells + text).properties(
                title=alt.TitleParams(f"{kind}: {outcome}", fontSize=11),
                width=alt.Step(70),
                height=alt.Step(28),
            )
        )
    return alt.hconcat(*panels, spacing=40).properties(title=TITLE)
