"""Which runs give a reordering's scores under its two conditions (see :mod:`analysis.reordering`).

:func:`observations` reads the warehouse for one :class:`~realcli.schema.report.ReorderingSpec`:
per finished run its system axes (the varied one NULL), task, condition (``a``/``b``) and value;
or a sentence saying why the spec cannot be read (an unknown metric, a round that is no number).
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.systems import SYSTEM_AXES
from realcli.schema.report import ReorderingSpec
from realcli.warehouse import fetch_df

__all__ = [
    "JUDGE_METRICS",
    "OBSERVATION_SCHEMA",
    "ROUND_METRICS",
    "RUN_METRICS",
    "absent_reason",
    "observations",
    "system_columns",
]

RUN_METRICS: dict[str, str] = {
    "pass": "passed",
    "f2p_pass": "f2p_pass",
    "f2p_step": "f2p_step",
    "p2p_pass": "p2p_pass",
    "p2p_step": "p2p_step",
}
"""Metric name → ``fct_runs`` column (the verdict: tests)."""

JUDGE_METRICS: dict[str, str] = {"judged_pass": "passed", "final_score": "final_score"}
"""Metric name → ``fct_judgements`` column (a judge's PassRate@τ outcome, its final score)."""

ROUND_METRICS: dict[str, str] = dict(RUN_METRICS)
"""Metric name → ``fct_rounds`` column (each round's verdict)."""


def _kind_sql(kind: str, prefix: str = "") -> str:
    """SQL predicate: the runs of task kind ``kind`` (longcli: kind longcli or unrecorded)."""
    column = f"{prefix}task_kind"
    return {
        "longcli": f"({column} = 'longcli' or {column} is null)",
        "weave": f"{column} = 'weave'",
        "any": "true",
    }[kind]


OBSERVATION_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    **{a: pl.String for a in SYSTEM_AXES},
    "task_id": pl.String,
    "run_key": pl.String,
    "condition": pl.String,
    "value": pl.Float64,
}


def observations(
    con: duckdb.DuckDBPyConnection, reordering: ReorderingSpec, primary_judge: str
) -> pl.DataFrame | str:
    """Per-run values under condition ``a`` and ``b`` (columns of :data:`OBSERVATION_SCHEMA`, the
    varied axis NULL), or why the reordering cannot be built from this spec."""
    r = reordering
    kind = _kind_sql(r.kind)
    if r.axis == "judge":
        metric = "judged_pass" if r.metric == "pass" else r.metric
        if metric not in JUDGE_METRICS:
            return (
                f"metric {r.metric!r} is not a judge's score (use one of {_names(JUDGE_METRICS)})"
            )
        column = JUDGE_METRICS[metric]
        return _both_on_same_runs(
            con,
            f"select {_axes()}, task_id, run_key, judge as cond, {column}::double as value "
            f"from fct_judgements where in_denominator and {kind} and judge in (?, ?)",
            [r.a, r.b],
            r,
        )
    if r.axis == "round":
        try:
            rounds: list[object] = [int(r.a), int(r.b)]
        except ValueError:
            return f"round axis: a={r.a!r} and b={r.b!r} must be round numbers (1, 2, 3 ...)"
        if r.metric not in ROUND_METRICS:
            return (
                f"metric {r.metric!r} is not graded per round (use one of {_names(ROUND_METRICS)})"
            )
        return _both_on_same_runs(
            con,
            f"select {_axes('g.')}, g.task_id, g.run_key, g.round::varchar as cond, "
            f"g.{ROUND_METRICS[r.metric]}::double as value from fct_rounds g "
            f"join fct_runs f on f.run_key = g.run_key where {_kind_sql(r.kind, 'f.')} "
            "and g.round in (?, ?)",
            rounds,
            r.model_copy(update={"a": str(rounds[0]), "b": str(rounds[1])}),
        )
    if r.axis == "metric":
        frames = []
        for condition, metric in (("a", r.a), ("b", r.b)):
            values = _metric_values(con, metric, kind, primary_judge)
            if isinstance(values, str):
                return values
            frames.append(values.with_columns(condition=pl.lit(condition)))
        same = frames[0].select("run_key").join(frames[1].select("run_key"), on="run_key")
        return _finish(pl.concat(frames).join(same, on="run_key", how="semi"), None)
    values = _metric_values(con, r.metric, kind, primary_judge)
    if isinstance(values, str):
        return values
    varied = r.axis
    picked = values.filter(pl.col(varied).is_in([r.a, r.b])).with_columns(
        condition=pl.when(pl.col(varied) == r.a).then(pl.lit("a")).otherwise(pl.lit("b"))
    )
    return _finish(picked, varied)


def _metric_values(
    con: duckdb.DuckDBPyConnection, metric: str, kind: str, judge: str
) -> pl.DataFrame | str:
    if metric in RUN_METRICS:
        sql = (
            f"select {_axes()}, task_id, run_key, {RUN_METRICS[metric]}::double as value "
            f"from fct_runs where in_denominator and {kind}"
        )
        return fetch_df(con, sql)
    if metric in JUDGE_METRICS:
        sql = (
            f"select {_axes()}, task_id, run_key, {JUDGE_METRICS[metric]}::double as value "
            f"from fct_judgements where in_denominator and {kind} and judge = ?"
        )
        return fetch_df(con, sql, [judge])
    return f"unknown metric {metric!r} (use one of {_names(RUN_METRICS | JUDGE_METRICS)})"


def _both_on_same_runs(
    con: duckdb.DuckDBPyConnection, sql: str, params: list[object], r: ReorderingSpec
) -> pl.DataFrame:
    """Rows of runs that have a value under both conditions (``cond`` = a's or b's label)."""
    rows = fetch_df(con, sql, params).with_columns(pl.col("cond").cast(pl.String))
    both = (
        rows.group_by("run_key")
        .agg(pl.col("cond").n_unique().alias("n"))
        .filter(pl.col("n") == 2)
        .select("run_key")
    )
    rows = rows.join(both, on="run_key", how="semi").with_columns(
        condition=pl.when(pl.col("cond") == r.a).then(pl.lit("a")).otherwise(pl.lit("b"))
    )
    return _finish(rows.drop("cond"), None)


def _finish(rows: pl.DataFrame, varied: str | None) -> pl.DataFrame:
    if varied is not None:
        rows = rows.with_columns(pl.lit(None, dtype=pl.String).alias(varied))
    return rows.select(
        [
            pl.col(c).cast(t) if c in rows.columns else pl.lit(None, t).alias(c)
            for c, t in OBSERVATION_SCHEMA.items()
        ]
    )


def _axes(prefix: str = "") -> str:
    return ", ".join(f"{prefix}{a}" for a in SYSTEM_AXES)


def _names(metrics: dict[str, str]) -> str:
    return ", ".join(metrics)


def system_columns(reordering: ReorderingSpec) -> list[str]:
    """The axes that make a system under ``reordering``: :data:`SYSTEM_AXES` less the varied one."""
    return [a for a in SYSTEM_AXES if a != reordering.axis]


def absent_reason(r: ReorderingSpec, primary_judge: str) -> str:
    """Why a well-formed reordering read no runs, in a reader's words."""
    kind = {"any": "", "longcli": "LongCLI ", "weave": "WeaveBench "}[r.kind]
    if r.axis == "judge":
        return f"no finished {kind}runs judged by both {r.a!r} and {r.b!r}"
    if r.axis == "round":
        return f"no finished {kind}runs graded in both round {r.a} and round {r.b}"
    judged = r.metric in JUDGE_METRICS or (r.axis == "metric" and {r.a, r.b} & set(JUDGE_METRICS))
    by = f" with a {primary_judge!r} judgement" if judged else ""
    if r.axis == "metric":
        return f"no finished {kind}runs{by} with both {r.a} and {r.b}"
    return f"no finished {kind}runs{by} with {r.axis} {r.a!r} or {r.b!r}"
