"""Within-run step order and goal maintenance (SPEC §3B, §4), from the progress replay.

For runs with a ``progress.json`` (``fct_goal_maintenance``): t(s) = the first step (tool
call) at which sub-step s held. Per run, Kendall τ_b between the task's reference order and
t(s) over the sub-steps completed at some step (sub-steps never completed are left out:
*realcli choice*; τ_b is undefined, and the run left out of the mean, when fewer than two were
completed or all at one step), and the LIS ratio (share of completed sub-steps in reference
order). Per system: the mean τ_b and LIS ratio; the dependency-violation rate (edges a → b,
b completed, where a was completed later or never; pooled over the system's runs); the Goal
Maintenance Score (goals held at the end / goals ever held, mean over runs); regressions per
run (a goal breaking after holding); the share of sub-steps ever completed; P2P retention.

Cross-seed consistency (SPEC §3B), over every pair of runs of one system on one task (its
seeds): *order-aware*, Kendall τ_b between the two runs' completion steps t(s) over the
sub-steps both completed (undefined, and left out, when fewer than two, or either run did them
all at one step); *order-agnostic*, the Jaccard index of the two completed sets (|A∩B| / |A∪B|;
undefined when neither run completed any sub-step: *realcli choice*). Per system: the means over
its pairs where defined. Seeds that do the same things in different orders score high on
Jaccard and low on τ_b.
"""

from __future__ import annotations

from itertools import combinations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.ordering import kendall_tau_b, lis_ratio
from analysis.systems import SYSTEM_AXES, protocol_rank, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = [
    "CAPTION",
    "COLUMN_LABELS",
    "EMPTY",
    "NAME",
    "POPULATION",
    "TITLE",
    "chart",
    "data",
    "run_order",
    "seed_pairs",
]

NAME = "progress_order"
TITLE = "Step order and goal maintenance within runs"
CAPTION = (
    "Finished runs with a progress replay (progress.json). Kendall τ_b: reference order of "
    "the sub-steps vs the step at which each first held (completed sub-steps; mean over runs "
    "where defined). LIS: share of completed sub-steps in reference order. Dependency "
    "violations: sub-steps completed before a prerequisite (% of dependency edges whose "
    "dependent was completed). GMS: goals (sub-steps, P2P tests) held at the end / ever held. "
    "Regressions: goals breaking after holding, per run. Across seeds (pairs of runs of one "
    "system on one task): order-aware τ_b of the completion steps of the sub-steps both "
    "completed, order-agnostic Jaccard of the completed sets (mean over pairs)."
)
POPULATION = (
    "Finished runs (graded, infra_error, task_error) with a usable progress replay "
    "(progress.json), any task kind; runs without one are not counted. Cross-seed columns: "
    "systems with two or more such runs on one task."
)
EMPTY = "no finished runs with a progress replay (progress.json)"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "n_runs": "Runs with progress",
    "n_runs_tau": "Runs with τ_b",
    "kendall_tau_b": "Kendall τ_b",
    "lis_ratio": "LIS ratio",
    "dependency_violation_pct": "Dependency violations (%)",
    "gms_pct": "GMS (%)",
    "regressions_per_run": "Regressions / run",
    "substeps_completed_pct": "Sub-steps ever completed (%)",
    "p2p_retention_pct": "P2P retention (%)",
    "n_seed_pairs": "Seed pairs (same task)",
    "seed_order_tau_b": "Cross-seed τ_b (order-aware)",
    "seed_set_jaccard": "Cross-seed Jaccard (order-agnostic)",
    "run_keys": "Runs behind the row",
}

_RUNS = """
select model, harness, mode, protocol, run_key, goal_maintenance_score, n_regressions,
       substeps_completed_share, p2p_retention, n_dependency_edges, n_dependency_violations
from fct_goal_maintenance
"""
_SUBSTEPS = """
select g.run_key, g.reference_order, g.held_from_step
from stg_progress_goals g
join fct_goal_maintenance m on m.run_key = g.run_key
where g.kind = 'substep' and g.reference_order is not null and g.held_from_step is not null
order by g.run_key, g.reference_order
"""
_SEED_GOALS = """
select m.model, m.harness, m.mode, m.protocol, m.task_id, m.run_key, g.goal, g.held_from_step
from fct_goal_maintenance m
join stg_progress_goals g on g.run_key = m.run_key and g.kind = 'substep'
order by m.run_key, g.goal
"""
_CHART: dict[str, tuple[str, list[float] | None, str]] = {
    "kendall_tau_b": ("Kendall τ_b", [-1.0, 1.0], ".2f"),
    "dependency_violation_pct": ("Dependency violations (%)", [0.0, 100.0], ".0f"),
    "gms_pct": ("GMS (%)", [0.0, 100.0], ".0f"),
    "regressions_per_run": ("Regressions / run", None, ".1f"),
    "substeps_completed_pct": ("Sub-steps completed (%)", [0.0, 100.0], ".0f"),
    "seed_order_tau_b": ("Cross-seed τ_b", [-1.0, 1.0], ".2f"),
    "seed_set_jaccard": ("Cross-seed Jaccard", [0.0, 1.0], ".2f"),
}
"""Chart panels: column → (title, x domain or None for zero-based automatic, label format)."""


def run_order(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per run with progress: ``kendall_tau_b`` and ``lis_ratio`` of its completed sub-steps."""
    substeps = fetch_df(con, _SUBSTEPS)
    rows = []
    for (run_key,), group in substeps.group_by("run_key", maintain_order=True):
        reference = group["reference_order"].to_list()
        steps = group["held_from_step"].to_list()
        rows.append(
            {
                "run_key": run_key,
                "kendall_tau_b": kendall_tau_b(reference, steps),
                "lis_ratio": lis_ratio(reference, steps),
            }
        )
    schema = {"run_key": pl.String, "kendall_tau_b": pl.Float64, "lis_ratio": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def seed_pairs(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """One row per pair of runs (``run_a`` < ``run_b``) of one system on one task, both with
    sub-steps in their progress replay: ``order_tau_b`` (completion steps of the sub-steps both
    completed) and ``set_jaccard`` (of the completed sets)."""
    goals = fetch_df(con, _SEED_GOALS)
    keys = [*SYSTEM_AXES, "task_id"]
    completed: dict[str, dict[str, int]] = {}
    for (run_key,), group in goals.group_by("run_key", maintain_order=True):
        done = group.filter(pl.col("held_from_step").is_not_null())
        completed[str(run_key)] = dict(zip(done["goal"], done["held_from_step"], strict=True))
    rows = []
    runs = goals.select(*keys, "run_key").unique(maintain_order=True).sort([*keys, "run_key"])
    for key, group in runs.group_by(keys, maintain_order=True):
        for run_a, run_b in combinations(group["run_key"].to_list(), 2):
            a, b = completed[run_a], completed[run_b]
            both = sorted(set(a) & set(b))
            union = set(a) | set(b)
            rows.append(
                dict(zip(keys, key, strict=True))
                | {
                    "run_a": run_a,
                    "run_b": run_b,
                    "order_tau_b": kendall_tau_b([a[g] for g in both], [b[g] for g in both]),
                    "set_jaccard": len(both) / len(union) if union else None,
                }
            )
    schema = {k: pl.String for k in keys} | {
        "run_a": pl.String,
        "run_b": pl.String,
        "order_tau_b": pl.Float64,
        "set_jaccard": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system with at least one progress replay, sorted by the system axes."""
    axes = list(SYSTEM_AXES)
    runs = fetch_df(con, _RUNS).join(run_order(con), on="run_key", how="left")

    def pct(column: str) -> pl.Expr:
        return pl.col(column).mean() * 100

    table = runs.group_by(axes).agg(
        n_runs=pl.len().cast(pl.Int64),
        n_runs_tau=pl.col("kendall_tau_b").count().cast(pl.Int64),
        kendall_tau_b=pl.col("kendall_tau_b").mean(),
        lis_ratio=pl.col("lis_ratio").mean(),
        dependency_violation_pct=pl.when(pl.col("n_dependency_edges").sum() > 0).then(
            pl.col("n_dependency_violations").sum() / pl.col("n_dependency_edges").sum() * 100
        ),
        gms_pct=pct("goal_maintenance_score"),
        regressions_per_run=pl.col("n_regressions").cast(pl.Float64).mean(),
        substeps_completed_pct=pct("substeps_completed_share"),
        p2p_retention_pct=pct("p2p_retention"),
        run_keys=pl.col("run_key").sort(),
    )
    consistency = (
        seed_pairs(con)
        .group_by(axes)
        .agg(
            n_seed_pairs=pl.len().cast(pl.Int64),
            seed_order_tau_b=pl.col("order_tau_b").mean(),
            seed_set_jaccard=pl.col("set_jaccard").mean(),
        )
    )
    table = table.join(consistency, on=axes, how="left", nulls_equal=True).with_columns(
        pl.col("n_seed_pairs").fill_null(0)
    )
    table = table.sort([*axes[:3], protocol_rank(), "protocol"])
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """One bar panel per measure (each on its own scale), one bar per system, coloured by model."""
    source = df.select("system", "model", *_CHART)
    if source.select(pl.all_horizontal(pl.col(list(_CHART)).is_null()).all()).item():
        return placeholder(TITLE, "no runs with a progress replay")
    systems = df["system"].to_list()
    panels = []
    for i, (column, (title, domain, fmt)) in enumerate(_CHART.items()):
        scale = alt.Scale(domain=domain) if domain else alt.Scale(zero=True)
        base = alt.Chart(source).encode(
            y=alt.Y(
                "system:N",
                sort=systems,
                title=None,
                axis=alt.Axis(labelLimit=280) if i == 0 else None,
            ),
            x=alt.X(f"{column}:Q", scale=scale, title=None),
            tooltip=[
                alt.Tooltip("system:N"),
                alt.Tooltip(f"{column}:Q", format=fmt, title=title),
            ],
        )
        bars = base.mark_bar().encode(
            color=alt.Color("model:N", legend=alt.Legend(orient="bottom", title="model"))
        )
        text = base.mark_text(align="left", dx=2, fontSize=9).encode(
            text=alt.Text(f"{column}:Q", format=fmt)
        )
        panels.append(
            (bars + text).properties(
                title=alt.TitleParams(title, fontSize=11), width=140, height=alt.Step(18)
            )
        )
    return alt.hconcat(*panels, spacing=12).properties(title=TITLE)
