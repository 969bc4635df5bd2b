"""Shared pieces of the goal-maintenance figures (SPEC §4): the final check of a run, per-run
goal scores, and the time bins they use.

The warehouse views hold the row-level definitions (``fct_goal_outcomes``, ``fct_run_endings``,
``fct_round_retention``, ``fct_cross_channel_drift``); this module only picks the check a
"done" claim is held against and aggregates goals per run.
"""

from __future__ import annotations

import duckdb
import polars as pl

from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["QUINTILES", "final_checks", "quintile_of", "run_goal_scores"]

QUINTILES: tuple[str, ...] = ("[0,20)", "[20,40)", "[40,60)", "[60,80)", "[80,100]")
"""Establishment-time bins, in % of the run's length (the last closed at 100)."""

_CHECKS = """
select r.run_key, r.task_kind, r.passed as tests_passed, j.passed as judge_passed
from fct_runs r
left join fct_judgements j on j.run_key = r.run_key and j.judge = ?
where r.in_denominator
"""


def final_checks(con: duckdb.DuckDBPyConnection, spec: ReportSpec | None) -> pl.DataFrame:
    """Per finished run: ``final_check`` (what decides it: ``tests``, or ``judge:<name>``) and
    ``final_check_passed``. A WeaveBench task is decided by the report's primary judge when
    the run has its judgement (a judge_failed one counts as a failure), else by its tests;
    every other task by its tests (verdict.json's Pass)."""
    judge = (spec or ReportSpec()).primary_judge
    df = fetch_df(con, _CHECKS, [judge])
    by_judge = (pl.col("task_kind") == "weave") & pl.col("judge_passed").is_not_null()
    return df.select(
        "run_key",
        final_check=pl.when(by_judge).then(pl.lit(f"judge:{judge}")).otherwise(pl.lit("tests")),
        final_check_passed=pl.when(by_judge)
        .then(pl.col("judge_passed"))
        .otherwise(pl.col("tests_passed"))
        .fill_null(False),
    )


def run_goal_scores(goals: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """``fct_goal_outcomes`` rows (tracked, ever satisfied) → per ``keys``: ``goals_ever``,
    ``goals_final`` and ``score`` = goals_final / goals_ever."""
    kept = goals.filter(pl.col("tracked") & pl.col("ever_satisfied"))
    return kept.group_by(keys).agg(
        goals_ever=pl.len().cast(pl.Int64),
        goals_final=pl.col("final").sum().cast(pl.Int64),
        score=pl.col("final").cast(pl.Float64).mean(),
    )


def quintile_of(share: pl.Expr) -> pl.Expr:
    """The :data:`QUINTILES` label of a share in [0, 1] (1 falls in the last bin)."""
    index = (share * 5).floor().clip(0, 4).cast(pl.Int64)
    return index.replace_strict(dict(enumerate(QUINTILES)), return_dtype=pl.String)
