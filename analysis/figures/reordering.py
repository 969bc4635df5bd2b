"""Leaderboard reordering (SPEC §3A): how far two conditions reorder the systems.

One row per reordering and system (see :mod:`analysis.reordering` for the definitions): the
system's score and rank under condition A and under B, its rank displacement, and the
reordering's statistics repeated on each of its rows — Kendall τ_b with its paired task
bootstrap interval, the flip probability (and its bootstrap mean), the maximum and mean
displacement, the numbers of systems and tasks. A reordering that cannot be measured is one
row with ``status = skipped`` and the reason. The chart is a bump chart, one panel per
reordering.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.reordering import reorderings
from analysis.reordering_scores import system_columns
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "reordering"
TITLE = "Leaderboard reordering between two conditions"
CAPTION = (
    "Each reordering ranks the same systems under condition A and condition B (a system: the "
    "axes other than the varied one; score: mean over tasks of the mean over its finished runs; "
    "rank 1 = best, ties share the mean rank). Kendall τ_b between the two score vectors with "
    "the 95% percentile interval of a paired task bootstrap (tasks resampled once per replicate "
    "for both conditions). Flip probability: share of system pairs whose order reverses. "
    "Displacement: |rank A − rank B|. Scores in %."
)
POPULATION = (
    "Per reordering: finished runs (graded, infra_error, task_error) of its task kind. Judged "
    "metrics: the condition's judge on the judge axis, else the report's primary judge "
    "(judge_failed / not_applicable count as fails). Judge and metric axes: the same runs under "
    "both conditions; round axis: runs graded in both rounds; other axes: systems present under "
    "both conditions, on the tasks every one of them has under both. Reorderings with no data "
    "are listed as skipped with the reason."
)
EMPTY = "no finished runs"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "reordering": "Reordering",
    "axis": "Axis",
    "a": "Condition A",
    "b": "Condition B",
    "metric": "Metric",
    "kind": "Task kind",
    "status": "Status",
    "reason": "Why skipped",
    "score_a_pct": "Score under A (%)",
    "score_b_pct": "Score under B (%)",
    "rank_a": "Rank under A",
    "rank_b": "Rank under B",
    "displacement": "Rank displacement",
    "n_systems": "Systems",
    "n_one_sided": "Systems under one condition only (left out)",
    "n_tasks": "Tasks",
    "kendall_tau_b": "Kendall τ_b",
    "tau_ci_low": "τ_b CI low",
    "tau_ci_high": "τ_b CI high",
    "flip_prob": "Flip probability",
    "flip_prob_boot": "Flip probability (bootstrap mean)",
    "max_displacement": "Max displacement",
    "mean_displacement": "Mean displacement",
    "run_keys": "Runs behind the row",
}
_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    **{c: pl.String for c in COLUMN_LABELS},
    **{
        c: pl.Float64
        for c in (
            "score_a_pct",
            "score_b_pct",
            "rank_a",
            "rank_b",
            "displacement",
            "kendall_tau_b",
            "tau_ci_low",
            "tau_ci_high",
            "flip_prob",
            "flip_prob_boot",
            "max_displacement",
            "mean_displacement",
        )
    },
    "n_systems": pl.Int64,
    "n_one_sided": pl.Int64,
    "n_tasks": pl.Int64,
    "run_keys": pl.List(pl.String),
}


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """Rows per reordering (in spec order) and system (best under A first); no rows at all
    when the warehouse has no finished run (otherwise a reordering without data is a row)."""
    rows: list[dict[str, object]] = []
    if not con.execute("select count(*) from fct_runs where in_denominator").fetchone()[0]:  # type: ignore[index]
        return pl.DataFrame(schema=_SCHEMA).select(list(COLUMN_LABELS))
    for r, result in reorderings(con, spec):
        head: dict[str, object] = {
            "reordering": r.name,
            "axis": r.axis,
            "a": r.a,
            "b": r.b,
            "metric": None if r.axis == "metric" else r.metric,
            "kind": r.kind,
        }
        change = result.change
        if result.skipped is not None or change is None:
            rows.append(head | {"status": "skipped", "reason": result.skipped, "run_keys": []})
            continue
        cols = system_columns(r)
        stats = head | {
            "status": "ok",
            "n_systems": len(result.systems),
            "n_one_sided": result.n_one_sided,
            "n_tasks": len(result.tasks),
            "kendall_tau_b": change.tau_b,
            "tau_ci_low": result.tau_ci_low,
            "tau_ci_high": result.tau_ci_high,
            "flip_prob": change.flip_prob,
            "flip_prob_boot": result.flip_prob_boot,
            "max_displacement": change.max_displacement,
            "mean_displacement": change.mean_displacement,
        }
        labelled = _labels(result.systems, cols)
        order = sorted(range(len(result.systems)), key=lambda i: (change.rank_a[i], labelled[i]))
        for i in order:
            system = result.systems[i]
            rows.append(
                stats
                | dict(zip(cols, system, strict=True))
                | {
                    "system": labelled[i],
                    "score_a_pct": float(result.score_a[i]) * 100,
                    "score_b_pct": float(result.score_b[i]) * 100,
                    "rank_a": float(change.rank_a[i]),
                    "rank_b": float(change.rank_b[i]),
                    "displacement": float(change.displacement[i]),
                    "run_keys": result.run_keys.get(system, []),
                }
            )
    return pl.DataFrame(rows, schema=_SCHEMA).select(list(COLUMN_LABELS))


def _labels(systems: list[tuple[object, ...]], cols: list[str]) -> list[str]:
    """model · harness (those of them in ``cols``), then each other axis taking several values."""
    shown = [
        i
        for i, c in enumerate(cols)
        if c in ("model", "harness") or len({s[i] for s in systems}) > 1
    ] or list(range(len(cols)))
    return [" · ".join(str(s[i]) for i in shown) for s in systems]


def chart(df: pl.DataFrame) -> alt.ConcatChart | alt.Chart:
    """Bump chart: each system's rank under A (left) and under B (right), one panel per
    reordering; a line per system, labelled at both ends "rank. system (score %)"; the panel
    subtitle gives τ_b [CI], the flip probability and the numbers of systems and tasks."""
    ok = df.filter(pl.col("status") == "ok")
    if ok.is_empty():
        reasons = "; ".join(f"{r}: {why}" for r, why in df.select("reordering", "reason").rows())
        return placeholder(TITLE, f"no reordering could be measured ({reasons})"[:300])
    panels = []
    for (name,), rows in ok.group_by("reordering", maintain_order=True):
        first = rows.row(0, named=True)
        side_a, side_b = f"A: {first['a']}", f"B: {first['b']}"
        long = pl.concat(
            [
                rows.select(
                    "system",
                    pl.lit(side).alias("condition"),
                    pl.col(rank).alias("rank"),
                    pl.col(score).alias("score"),
                    "displacement",
                    pl.format(
                        "{}. {} ({})",
                        pl.col(rank).round(1).cast(pl.String).str.strip_suffix(".0"),
                        "system",
                        pl.col(score).round(1),
                    ).alias("label"),
                )
                for side, rank, score in (
                    (side_a, "rank_a", "score_a_pct"),
                    (side_b, "rank_b", "score_b_pct"),
                )
            ]
        )
        # y position: the rank, ties broken by name so tied systems do not overprint
        long = long.with_columns(
            position=pl.struct("rank", "system").rank("ordinal").over("condition").cast(pl.Float64)
        )
        n = int(first["n_systems"])
        x = alt.X("condition:N", sort=[side_a, side_b], title=None, axis=alt.Axis(labelAngle=0))
        y = alt.Y("position:Q", scale=alt.Scale(domain=[n + 0.5, 0.5]), axis=None)
        base = alt.Chart(long).encode(
            x=x,
            y=y,
            color=alt.Color("system:N", legend=None),
            tooltip=[
                alt.Tooltip("system:N"),
                alt.Tooltip("condition:N"),
                alt.Tooltip("rank:Q", format=".1f"),
                alt.Tooltip("score:Q", format=".1f", title="score (%)"),
                alt.Tooltip("displacement:Q", format=".1f"),
            ],
        )
        lines = base.mark_line(strokeWidth=2).encode(detail="system:N")
        points = base.mark_circle(size=60)
        left = base.transform_filter(alt.datum.condition == side_a).mark_text(
            align="right", dx=-8, fontSize=10
        )
        right = base.transform_filter(alt.datum.condition == side_b).mark_text(
            align="left", dx=8, fontSize=10
        )
        labels = left.encode(text="label:N") + right.encode(text="label:N")
        tau = first["kendall_tau_b"]
        low, high = first["tau_ci_low"], first["tau_ci_high"]
        subtitle = (
            f"τ_b = {tau:.2f}" if tau is not None else "τ_b undefined (constant scores)"
        ) + (f" [{low:.2f}, {high:.2f}]" if low is not None and high is not None else "")
        subtitle += f"; flips {first['flip_prob']:.2f}; {n} systems, {first['n_tasks']} tasks"
        metric = f" ({first['metric']})" if first["metric"] else ""
        panels.append(
            (lines + points + labels).properties(
                title=alt.TitleParams(f"{name}{metric}", subtitle=subtitle, fontSize=11),
                width=220,
                height=max(120, 26 * n),
            )
        )
    return alt.concat(*panels, columns=2, spacing=160).properties(title=TITLE)
