"""Trajectory profile (WeaveBench appendix A.2, P2/P3 evidence): how long hybrid rollouts are and
how often they cross the GUI/CLI boundary.

Two kinds of row (``scope``):

- ``best per task``: one row over the tasks, each represented by its best-scoring finished
  hybrid run (:func:`analysis.trajectories.best_rollouts`), as the paper does;
- ``system``: per model · harness · mode · protocol, the distribution over all its finished
  runs (every mode, so an ablation's profile can be compared).

Columns: median / mean / min / max tool calls; median GUI↔CLI switches at tool level (a call on
another channel than the previous call; a shell call is CLI) and at atomic level (ops after
re-attribution, :mod:`realcli.ledger.atomic_ops`); boundary share = mean over runs of switching
calls / calls, at tool level and at atomic level (a call is GUI when any of its ops is); median,
min and max apps/states (``fct_trajectory_profile.apps_states``: the task's GUI apps reached plus
distinct CLI programs — realcli's definition). The paper's figures
(:data:`analysis.published.TRAJECTORY_PROFILE`) sit beside the best-per-task row with
``source`` = the paper when ``spec.published``.
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import placeholder
from analysis.published import OURS, PAPER_WEAVE, TRAJECTORY_PROFILE
from analysis.systems import SYSTEM_AXES
from analysis.trajectories import best_rollouts, trajectory_runs
from realcli.schema.report import ReportSpec

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "trajectory_profile"
TITLE = "Trajectory profile: tool calls, GUI↔CLI switches and apps per rollout"
CAPTION = (
    "Best per task: each task's best-scoring finished hybrid rollout (as WeaveBench appendix "
    "A.2). System: every finished run of the system. Switches: calls (ops) on another channel "
    "than the previous one, at tool level (a shell call is CLI) and at atomic level (GUI work "
    "inside shell calls re-attributed). Boundary share: mean per run of switching calls / calls. "
    "Apps/states: the task's GUI apps reached plus distinct CLI programs (realcli's definition). "
    "Rows with source = the paper are WeaveBench's published figures, not measurements."
)
POPULATION = (
    "WeaveBench (kind weave) runs that finished (graded, infra_error, task_error), every mode; "
    "the best-per-task row takes only hybrid runs and ranks them by the report's primary judge "
    "(default trajectory; a run it did not score has final 0). Incomplete runs are excluded and "
    "counted in Incomplete."
)
EMPTY = "no finished WeaveBench runs under the report's filters"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "scope": "Scope",
    "source": "Source",
    "n_runs": "Runs",
    "n_tasks": "Tasks",
    "median_tool_calls": "Median tool calls",
    "mean_tool_calls": "Mean tool calls",
    "min_tool_calls": "Min tool calls",
    "max_tool_calls": "Max tool calls",
    "median_switches_tool": "Median switches (tool)",
    "median_switches_atomic": "Median switches (atomic)",
    "boundary_share_tool_pct": "Boundary share, tool (%)",
    "boundary_share_atomic_pct": "Boundary share, atomic (%)",
    "median_apps_states": "Median apps/states",
    "min_apps_states": "Min apps/states",
    "max_apps_states": "Max apps/states",
    "n_incomplete": "Incomplete (excluded)",
    "run_keys": "Runs behind the row",
}
BEST = "best per task"
SYSTEM = "system"


def _stats(runs: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    calls = pl.col("n_tool_calls").fill_null(0)
    aggs = [
        pl.len().cast(pl.Int64).alias("n_runs"),
        pl.col("task_id").n_unique().cast(pl.Int64).alias("n_tasks"),
        calls.median().alias("median_tool_calls"),
        calls.mean().alias("mean_tool_calls"),
        calls.min().cast(pl.Int64).alias("min_tool_calls"),
        calls.max().cast(pl.Int64).alias("max_tool_calls"),
        pl.col("switches_tool").fill_null(0).median().alias("median_switches_tool"),
        pl.col("switches_atomic").fill_null(0).median().alias("median_switches_atomic"),
        (pl.col("boundary_share_tool").mean() * 100).alias("boundary_share_tool_pct"),
        (pl.col("boundary_share_atomic").mean() * 100).alias("boundary_share_atomic_pct"),
        pl.col("apps_states").fill_null(0).median().alias("median_apps_states"),
        pl.col("apps_states").fill_null(0).min().cast(pl.Int64).alias("min_apps_states"),
        pl.col("apps_states").fill_null(0).max().cast(pl.Int64).alias("max_apps_states"),
        pl.col("run_key").sort().alias("run_keys"),
    ]
    keys = by or ["_all"]
    out = runs.with_columns(_all=pl.lit(0)).group_by(keys).agg(aggs)
    return out if by else out.drop("_all")


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One best-per-task row, one row per system (and the paper's row), as in
    :data:`COLUMN_LABELS`."""
    spec = spec or ReportSpec()
    runs = trajectory_runs(con, spec)
    finished = runs.filter(pl.col("in_denominator"))
    if finished.is_empty():
        return _empty()
    axes = list(SYSTEM_AXES)
    incomplete = runs.group_by(axes).agg(
        n_incomplete=(~pl.col("in_denominator")).sum().cast(pl.Int64)
    )
    systems = (
        _stats(finished, axes)
        .join(incomplete, on=axes, how="left", nulls_equal=True)
        .with_columns(scope=pl.lit(SYSTEM), source=pl.lit(OURS))
    )
    parts = [systems]
    best = best_rollouts(runs)
    if not best.is_empty():
        best_row = _stats(best, []).with_columns(
            scope=pl.lit(BEST),
            mode=pl.lit("hybrid"),
            source=pl.lit(OURS),
            n_incomplete=pl.lit(
                runs.filter(~pl.col("in_denominator") & (pl.col("mode") == "hybrid")).height,
                pl.Int64,
            ),
        )
        parts.insert(0, best_row)
    if spec.published:
        parts.insert(1 if not best.is_empty() else 0, _published())
    table = pl.concat(parts, how="diagonal_relaxed")
    return (
        table.with_columns(_scope=(pl.col("scope") != BEST).cast(pl.Int64))
        .with_row_index("_order")
        .sort(["_scope", "model", "harness", "mode", "protocol", "_order"], nulls_last=True)
        .select(list(COLUMN_LABELS))
    )


def _published() -> pl.DataFrame:
    p = TRAJECTORY_PROFILE
    return pl.DataFrame(
        [
            {
                "scope": BEST,
                "mode": "hybrid",
                "source": PAPER_WEAVE,
                "median_tool_calls": float(p["median_tool_calls"]),
                "mean_tool_calls": float(p["mean_tool_calls"]),
                "min_tool_calls": int(p["min_tool_calls"]),
                "max_tool_calls": int(p["max_tool_calls"]),
                "median_switches_tool": float(p["median_switches"]),
                "boundary_share_tool_pct": float(p["boundary_share_pct"]),
                "median_apps_states": float(p["median_apps_states"]),
                "min_apps_states": int(p["min_apps_states"]),
                "max_apps_states": int(p["max_apps_states"]),
                "run_keys": [],
            }
        ],
        schema_overrides={"run_keys": pl.List(pl.String)},
    )


def _empty() -> pl.DataFrame:
    schema: dict[str, pl.DataType | type[pl.DataType]] = {c: pl.Float64 for c in COLUMN_LABELS}
    schema |= {c: pl.String for c in ("scope", *SYSTEM_AXES, "source")}
    ints = ("n_runs", "n_tasks", "min_tool_calls", "max_tool_calls", "n_incomplete")
    schema |= {c: pl.Int64 for c in (*ints, "min_apps_states", "max_apps_states")}
    schema["run_keys"] = pl.List(pl.String)
    return pl.DataFrame(schema=schema)


def chart(df: pl.DataFrame) -> alt.TopLevelMixin:
    """Median tool calls per row with the min–max range; paper rows hatched grey."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    plot = df.with_columns(
        label=pl.when(pl.col("scope") == BEST)
        .then(
            pl.concat_str(
                pl.lit(BEST),
                pl.when(pl.col("source") != OURS).then(pl.lit(" (paper)")).otherwise(pl.lit("")),
                separator="",
            )
        )
        .otherwise(
            pl.concat_str(
                [pl.col("model"), pl.col("harness"), pl.col("mode")],
                separator=" · ",
                ignore_nulls=True,
            )
        ),
        paper=pl.col("source") != OURS,
    ).select(
        "label",
        "paper",
        "median_tool_calls",
        "min_tool_calls",
        "max_tool_calls",
        "median_switches_tool",
        "median_apps_states",
    )
    base = alt.Chart(plot).encode(y=alt.Y("label:N", title=None, sort=None))
    rng = base.mark_rule(color="#888").encode(
        x=alt.X("min_tool_calls:Q", title="tool calls per rollout (median; min–max)"),
        x2="max_tool_calls:Q",
    )
    dots = base.mark_point(filled=True, size=90).encode(
        x="median_tool_calls:Q",
        color=alt.Color(
            "paper:N",
            scale=alt.Scale(domain=[False, True], range=["#1f77b4", "#999999"]),
            legend=alt.Legend(title="paper row"),
        ),
        tooltip=[
            "label:N",
            "median_tool_calls:Q",
            "min_tool_calls:Q",
            "max_tool_calls:Q",
            "median_switches_tool:Q",
            "median_apps_states:Q",
        ],
    )
    return (rng + dots).properties(title=TITLE, width=520)
