"""WeaveBench runs as the weave figures count them: one row per run with one judge's verdict.

A weave run is a ``fct_runs`` row with ``task_kind = 'weave'`` that passes the report's
filters (:class:`~realcli.schema.report.ReportFilters`). :func:`weave_runs` gives every such
run, whatever its status, beside the judgement of one judge (``stg_judgements``), so each
figure can say what it counts:

- ``in_denominator``: the run finished (graded, infra_error or task_error); incomplete runs are
  left out of every rate by the figures and counted in their own column.
- ``judge_status``: ``judged``, ``judge_failed``, ``not_applicable`` (the run never started), or
  ``missing`` (the judge wrote no judgement for the run). Only ``judged`` runs have a score;
  every other finished run is a **failure** in the denominator (``passed`` false, ``final``
  0), never dropped.
- ``passed``: PassRate@τ's outcome, ``final_score >= tau`` with τ from the judgement row.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from analysis.stats import bootstrap_ci, per_task_scores
from realcli.schema.report import ReportSpec
from realcli.schema.task_spec import Domain
from realcli.warehouse import fetch_df

__all__ = [
    "DOMAINS",
    "MODES",
    "OUTCOME_ONLY",
    "judge_allowed",
    "rate_with_ci",
    "run_counts",
    "run_key_lists",
    "tau_label",
    "weave_runs",
]

DOMAINS: tuple[str, ...] = tuple(d.value for d in Domain)
"""WeaveBench's eight domains, in the paper's column order."""

MODES: tuple[str, ...] = ("hybrid", "cli_only", "gui_only")
"""The interface modes (``conf/mode``), hybrid first."""

OUTCOME_ONLY = "outcome_only"
"""The judge-ablation baseline's config name (sees deliverables only)."""

_FILTERS: tuple[tuple[str, str], ...] = (
    ("experiments", "experiment"),
    ("tasks", "task_id"),
    ("models", "model"),
    ("harnesses", "harness"),
    ("modes", "mode"),
    ("protocols", "protocol"),
)

_QUERY = """
select
    r.run_key,
    r.experiment,
    r.model,
    r.harness,
    r.mode,
    r.protocol,
    r.seed,
    r.task_id,
    raw.task_domain,
    r.status as run_status,
    r.in_denominator,
    coalesce(j.status, 'missing') as judge_status,
    j.tau,
    case when j.status = 'judged' then j.final_score else 0.0 end as final_score,
    coalesce(j.status = 'judged' and j.final_score >= j.tau, false) as passed,
    coalesce(j.status = 'judged' and j.is_hack, false) as is_hack,
    case when j.status = 'judged' then j.taxonomy_family end as taxonomy_family,
    case when j.status = 'judged' then j.taxonomy_class end as taxonomy_class
from fct_runs as r
join runs as raw on raw.run_key = r.run_key
left join stg_judgements as j on j.run_key = r.run_key and j.judge = ?
where r.task_kind = 'weave' {filters}
order by r.model, r.harness, r.mode, r.protocol, r.task_id, r.seed, r.run_key
"""


def judge_allowed(spec: ReportSpec, judge: str) -> bool:
    """Whether ``spec.filters.judges`` (empty: every judge) lets the figures read ``judge``."""
    return not spec.filters.judges or judge in spec.filters.judges


def weave_runs(con: duckdb.DuckDBPyConnection, spec: ReportSpec, judge: str) -> pl.DataFrame:
    """Every weave run the filters keep (all statuses), with ``judge``'s judgement (module
    docstring). Empty when the filters exclude the weave kind or ``judge``."""
    if (spec.filters.kinds and "weave" not in spec.filters.kinds) or not judge_allowed(spec, judge):
        return fetch_df(con, _QUERY.format(filters=" and false"), [judge])
    where, params = "", list[object]([judge])
    for field, column in _FILTERS:
        values = getattr(spec.filters, field)
        if values:
            where += f" and list_contains(?, r.{column})"
            params.append(list(values))
    return fetch_df(con, _QUERY.format(filters=where), params)


def rate_with_ci(
    runs: pl.DataFrame,
    group_cols: Sequence[str],
    value_col: str,
    spec: ReportSpec,
    *,
    prefix: str,
) -> pl.DataFrame:
    """Per group of ``runs``: ``<prefix>_pct`` = 100 × mean of ``value_col`` over the runs, and
    ``<prefix>_ci_low`` / ``<prefix>_ci_high``, the paired task bootstrap interval
    (:func:`analysis.stats.bootstrap_ci`, ``spec.bootstrap``; when every task has the same number
    of runs its point estimate is ``<prefix>_pct``)."""
    cols = list(group_cols)
    share = runs.group_by(cols).agg(
        (pl.col(value_col).cast(pl.Float64).mean() * 100).alias(f"{prefix}_pct")
    )
    ci = bootstrap_ci(per_task_scores(runs, cols, value_col), cols, spec.bootstrap, scale=100)
    ci = ci.select(
        *cols,
        pl.col("ci_low").alias(f"{prefix}_ci_low"),
        pl.col("ci_high").alias(f"{prefix}_ci_high"),
    )
    return share.join(ci, on=cols, how="left", nulls_equal=True)


def run_key_lists(runs: pl.DataFrame, group_cols: Sequence[str]) -> pl.DataFrame:
    """Per group: ``run_keys``, the sorted keys of its runs (for the report's links)."""
    return runs.group_by(list(group_cols)).agg(pl.col("run_key").sort().alias("run_keys"))


def tau_label(runs: pl.DataFrame, group_cols: Sequence[str]) -> pl.DataFrame:
    """Per group: ``tau``, the distinct τ of its judgements joined by ', ' (NULL: none judged),
    so a group mixing thresholds shows it."""
    taus = runs.group_by(list(group_cols)).agg(pl.col("tau").drop_nulls().unique().sort())
    joined = pl.col("tau").list.eval(pl.element().round(4).cast(pl.String)).list.join(", ")
    return taus.with_columns(tau=pl.when(pl.col("tau").list.len() > 0).then(joined))


def run_counts(runs: pl.DataFrame, group_cols: Sequence[str]) -> pl.DataFrame:
    """Per group of :func:`weave_runs` rows: ``n_runs`` (finished: the rates' denominator),
    ``n_tasks``, ``n_unjudged`` (finished, not scored by the judge: failures) and
    ``n_incomplete`` (no verdict yet: out of the rates, counted)."""
    return runs.group_by(list(group_cols)).agg(
        n_runs=pl.col("in_denominator").sum().cast(pl.Int64),
        n_tasks=pl.col("task_id").filter(pl.col("in_denominator")).n_unique().cast(pl.Int64),
        n_unjudged=(pl.col("in_denominator") & (pl.col("judge_status") != "judged"))
        .sum()
        .cast(pl.Int64),
        n_incomplete=(~pl.col("in_denominator")).sum().cast(pl.Int64),
    )
