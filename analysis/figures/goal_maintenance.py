"""Goal Maintenance Score and false completions (SPEC §4).

Goals (``fct_goal_outcomes``): the task's sub-steps, its P2P tests (established at round 0)
and its F2P tests once passed; with a progress replay, sub-steps and P2P tests are followed
step by step, otherwise round by round. A run's GMS = goals satisfied at the end / goals ever
satisfied, over its tracked goals (those with a history: see the view); per kind the same over
that kind's goals. A system's GMS is the mean over its tasks of the mean over the task's runs,
with a paired task bootstrap CI (:func:`analysis.stats.bootstrap_ci`, the report's
``bootstrap`` settings). Judge clauses are judged once, on the final state: they have no history
to maintain and are not in GMS (they count as open goals in ``halt_indicators``).

False completions (``fct_run_endings``): a run whose agent claimed to be done — it ended its
own session (stop reason ``done``, not a budget, time-out or crash) and its last message does
not admit unfinished work nor did it abstain from a deliverable — while the final check fails:
the tests' Pass, or for a WeaveBench task the report's primary judge (final ≥ τ) when the run
has its judgement. Rate = false completions / done claims.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.goals import final_checks, run_goal_scores
from analysis.stats import bootstrap_ci, per_task_scores
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
    "run_scores",
]

NAME = "goal_maintenance"
TITLE = "Goal maintenance and false completions"
CAPTION = (
    "GMS: goals satisfied at the end / goals ever satisfied (sub-steps, P2P tests established "
    "at round 0, F2P tests once passed), per run, then the mean over tasks of the mean over "
    "each task's runs, with a 95% paired task bootstrap CI; per kind the same over that kind. "
    "False completion: the agent ended its own session without admitting unfinished work (a "
    "'done' claim) and the final check (tests; a WeaveBench task's primary judge) fails; "
    "rate = false completions / claims."
)
POPULATION = (
    "Finished runs of every task kind. GMS: runs with a tracked goal ever satisfied (a "
    "progress replay, P2P tests, or two or more graded rounds); false completions: every "
    "finished run."
)
EMPTY = "no finished runs"
KINDS: tuple[str, ...] = ("substep", "p2p", "f2p")
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "n_runs": "Finished runs",
    "n_runs_gms": "Runs with goals",
    "gms_pct": "GMS (%)",
    "gms_ci_low": "GMS CI low",
    "gms_ci_high": "GMS CI high",
    "gms_substep_pct": "GMS sub-steps (%)",
    "gms_p2p_pct": "GMS P2P (%)",
    "gms_f2p_pct": "GMS F2P (%)",
    "n_done_claims": "Done claims",
    "n_false_completions": "False completions",
    "false_completion_pct": "False completions / claims (%)",
    "run_keys": "Runs",
}

_GOALS = """
select run_key, task_id, kind, tracked, ever_satisfied, final from fct_goal_outcomes
"""
_ENDINGS = """
select model, harness, mode, protocol, run_key, task_id, claimed_done from fct_run_endings
"""


def run_scores(con: duckdb.DuckDBPyConnection, spec: ReportSpec | None = None) -> pl.DataFrame:
    """Per finished run: its axes, ``gms`` and ``gms_<kind>`` (NULL: no such tracked goal ever
    satisfied), ``claimed_done``, ``final_check``, ``final_check_passed``, ``false_completion``."""
    runs = fetch_df(con, _ENDINGS).join(final_checks(con, spec), on="run_key", how="left")
    goals = fetch_df(con, _GOALS)
    overall = run_goal_scores(goals, ["run_key"]).select("run_key", gms="score")
    per_kind = (
        run_goal_scores(goals, ["run_key", "kind"])
        .pivot(on="kind", index="run_key", values="score")
        .rename({k: f"gms_{k}" for k in KINDS}, strict=False)
    )
    for kind in KINDS:
        if f"gms_{kind}" not in per_kind.columns:
            per_kind = per_kind.with_columns(pl.lit(None, dtype=pl.Float64).alias(f"gms_{kind}"))
    return (
        runs.join(overall, on="run_key", how="left")
        .join(per_kind.select("run_key", *[f"gms_{k}" for k in KINDS]), on="run_key", how="left")
        .with_columns(
            false_completion=pl.col("claimed_done") & ~pl.col("final_check_passed").fill_null(False)
        )
        .sort("run_key")
    )


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system with a finished run, sorted by the system axes."""
    spec = spec or ReportSpec()
    axes = list(SYSTEM_AXES)
    runs = run_scores(con, spec)
    ci = bootstrap_ci(
        per_task_scores(runs.filter(pl.col("gms").is_not_null()), axes, "gms"),
        axes,
        spec.bootstrap,
        scale=100,
    ).select(*axes, gms_pct="estimate", gms_ci_low="ci_low", gms_ci_high="ci_high")
    kinds = [
        per_task_scores(runs.filter(pl.col(f"gms_{k}").is_not_null()), axes, f"gms_{k}")
        .group_by(axes)
        .agg((pl.col("value").mean() * 100).alias(f"gms_{k}_pct"))
        for k in KINDS
    ]
    table = runs.group_by(axes).agg(
        n_runs=pl.len().cast(pl.Int64),
        n_runs_gms=pl.col("gms").count().cast(pl.Int64),
        n_done_claims=pl.col("claimed_done").sum().cast(pl.Int64),
        n_false_completions=pl.col("false_completion").sum().cast(pl.Int64),
        run_keys=pl.col("run_key").sort(),
    )
    table = table.join(ci, on=axes, how="left", nulls_equal=True)
    for part in kinds:
        table = table.join(part, on=axes, how="left", nulls_equal=True)
    table = table.with_columns(
        false_completion_pct=pl.when(pl.col("n_done_claims") > 0).then(
            pl.col("n_false_completions") / pl.col("n_done_claims") * 100
        )
    )
    table = table.sort([*axes[:3], protocol_rank(), "protocol"])
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """GMS with its CI per system, GMS per goal kind, and the false-completion rate."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    systems = df["system"].to_list()
    rows = alt.Scale(domain=systems)  # every panel lists every system, in one order
    y = alt.Y("system:N", scale=rows, title=None, axis=alt.Axis(labelLimit=280))
    pct = alt.Scale(domain=[0, 100])
    base = alt.Chart(df.drop("run_keys"))
    gms = alt.layer(
        base.mark_bar(color="#4c78a8").encode(
            y=y,
            x=alt.X("gms_pct:Q", scale=pct, title="GMS (%)"),
            tooltip=["system:N", alt.Tooltip("gms_pct:Q", format=".1f"), "n_runs_gms:Q"],
        ),
        base.mark_rule(color="black").encode(y=y, x="gms_ci_low:Q", x2="gms_ci_high:Q"),
    ).properties(title="GMS with 95% CI", width=200, height=alt.Step(22))
    kinds = (
        df.select("system", *[f"gms_{k}_pct" for k in KINDS])
        .unpivot(index="system", variable_name="kind", value_name="percent")
        .drop_nulls("percent")
        .with_columns(pl.col("kind").str.strip_prefix("gms_").str.strip_suffix("_pct"))
    )
    per_kind = (
        alt.Chart(kinds)
        .mark_point(filled=True, size=70)
        .encode(
            y=alt.Y("system:N", scale=rows, title=None, axis=None),
            x=alt.X("percent:Q", scale=pct, title="GMS by goal kind (%)"),
            color=alt.Color("kind:N", sort=list(KINDS), legend=alt.Legend(orient="bottom")),
            shape=alt.Shape("kind:N", sort=list(KINDS), legend=None),
            tooltip=["system:N", "kind:N", alt.Tooltip("percent:Q", format=".1f")],
        )
        .properties(title="GMS per goal kind", width=200, height=alt.Step(22))
    )
    false = (
        base.mark_bar(color="#e45756")
        .encode(
            y=alt.Y("system:N", scale=rows, title=None, axis=None),
            x=alt.X("false_completion_pct:Q", scale=pct, title="false completions / claims (%)"),
            tooltip=[
                "system:N",
                "n_done_claims:Q",
                "n_false_completions:Q",
                alt.Tooltip("false_completion_pct:Q", format=".1f"),
            ],
        )
        .properties(title="False completions", width=200, height=alt.Step(22))
    )
    return alt.hconcat(gms, per_kind, false, spacing=12).properties(title=TITLE)
