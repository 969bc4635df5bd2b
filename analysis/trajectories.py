"""WeaveBench trajectories as the trajectory, tool-call and coverage figures count them.

:func:`trajectory_runs` is :func:`analysis.weave.weave_runs` (the report's filters and primary
judge) with each run's ``fct_trajectory_profile`` columns. :func:`best_rollouts` picks, per
task, the best-scoring finished **hybrid** run, as WeaveBench appendix A.2 does ("the
best-scoring Hybrid rollout across all backbones"; a cheat-flagged run has final 0 from the
judge): highest final score, then passed, then the lowest run_key, so the pick is
deterministic.

P2/P3 thresholds are realcli's choices, documented in docs/analysis.md:
:data:`P2_MIN_TOOL_CALLS` (the paper's 20 calls), :data:`P2_MIN_PHASES` (the paper asks for
"multiple interleaved GUI and CLI/code phases" without a number: realcli requires at least
three channel phases at atomic level, i.e. the rollout returns to a channel it left) and
:data:`P3_MIN_APPS` (the paper's 3 distinct apps; realcli's ``apps_states`` definition).
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.weave import weave_runs
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = [
    "P2_MIN_PHASES",
    "P2_MIN_TOOL_CALLS",
    "P3_MIN_APPS",
    "PROFILE_COLUMNS",
    "best_rollouts",
    "trajectory_runs",
]

P2_MIN_TOOL_CALLS = 20
P2_MIN_PHASES = 3
P3_MIN_APPS = 3

PROFILE_COLUMNS: tuple[str, ...] = (
    "n_tool_calls",
    "n_gui_calls_tool",
    "n_cli_calls_tool",
    "n_gui_calls_atomic",
    "n_cli_calls_atomic",
    "n_ops",
    "n_gui_ops",
    "n_reattributed_ops",
    "switches_tool",
    "switches_atomic",
    "boundary_share_tool",
    "boundary_share_atomic",
    "phases_atomic",
    "apps_states",
)


def trajectory_runs(con: duckdb.DuckDBPyConnection, spec: ReportSpec) -> pl.DataFrame:
    """Every weave run the report keeps (all statuses and modes) with its profile columns."""
    runs = weave_runs(con, spec, spec.primary_judge)
    cols = ", ".join(PROFILE_COLUMNS)
    profile = fetch_df(con, f"select run_key, {cols} from fct_trajectory_profile")
    return runs.join(profile, on="run_key", how="left")


def best_rollouts(runs: pl.DataFrame) -> pl.DataFrame:
    """Per task, its best finished hybrid run (module docstring); one row per task."""
    hybrid = runs.filter(pl.col("in_denominator") & (pl.col("mode") == "hybrid"))
    return (
        hybrid.sort(
            ["task_id", "final_score", "passed", "run_key"],
            descending=[False, True, True, False],
        )
        .group_by("task_id", maintain_order=True)
        .first()
    )
