"""Cross-channel drift (SPEC §4): CLI edits after a GUI check validated the work, with no
later GUI re-check — the hybrid agent's version of an unverified last-minute change.

From ``fct_cross_channel_drift`` (the definitions are in the view): over a hybrid run's tool
calls, a CLI edit changes files (its result touched files, or the workspace snapshot after it
changed); a GUI observation is a screenshot the agent asked for, or a GUI capture call; a GUI
check is an observation after the first CLI edit. A run drifts when it has a GUI check and CLI
edits after its last GUI observation (unverified edits). Per system: the share of runs with a
GUI check that drift, and the unverified edits per such run. Channels are the ledger's raw
``tool_calls.channel`` (GUI tools, and shell calls the harness recognised as driving the
display).
"""

from __future__ import annotations

import altair as alt
import duckdb
import polars as pl

from analysis.charts import bar_panels, placeholder
from analysis.systems import SYSTEM_AXES, protocol_rank, with_system_label
from realcli.schema.report import ReportSpec
from realcli.warehouse import fetch_df

__all__ = ["CAPTION", "COLUMN_LABELS", "EMPTY", "NAME", "POPULATION", "TITLE", "chart", "data"]

NAME = "cross_channel_drift"
TITLE = "Cross-channel drift: CLI edits after the last GUI check"
CAPTION = (
    "Hybrid runs. GUI check: a screenshot the agent took (or a GUI capture call) after its "
    "first CLI edit. Drift: CLI edits (calls that changed files) after the run's last GUI "
    "observation, in a run with a GUI check. Rate = drifting runs / runs with a GUI check."
)
POPULATION = (
    "Finished runs of every task kind in a mode offering both the CLI and the GUI channel "
    "(hybrid); channels as the ledger records them (tool_calls.channel)."
)
EMPTY = "no finished hybrid runs"
COLUMN_LABELS = {
    "model": "Model",
    "harness": "Harness",
    "mode": "Mode",
    "protocol": "Protocol",
    "system": "System",
    "n_runs": "Hybrid runs",
    "n_runs_checked": "Runs with a GUI check",
    "n_runs_drifted": "Runs that drift",
    "drift_pct": "Drift (% of checked runs)",
    "unverified_edits_per_run": "Unverified CLI edits / checked run",
    "cli_edits_per_run": "CLI edits / run",
    "gui_checks_per_run": "GUI checks / run",
    "run_keys": "Runs",
}

_RUNS = """
select model, harness, mode, protocol, run_key, n_cli_edits, n_gui_checks, has_gui_check,
       n_unverified_cli_edits, drifted
from fct_cross_channel_drift
"""


def data(con: duckdb.DuckDBPyConnection, *, spec: ReportSpec | None = None) -> pl.DataFrame:
    """One row per system with a finished hybrid run."""
    axes = list(SYSTEM_AXES)
    runs = fetch_df(con, _RUNS)
    checked = pl.col("has_gui_check")
    table = runs.group_by(axes).agg(
        n_runs=pl.len().cast(pl.Int64),
        n_runs_checked=checked.sum().cast(pl.Int64),
        n_runs_drifted=pl.col("drifted").sum().cast(pl.Int64),
        unverified_edits_per_run=pl.col("n_unverified_cli_edits")
        .filter(checked)
        .cast(pl.Float64)
        .mean(),
        cli_edits_per_run=pl.col("n_cli_edits").cast(pl.Float64).mean(),
        gui_checks_per_run=pl.col("n_gui_checks").cast(pl.Float64).mean(),
        run_keys=pl.col("run_key").sort(),
    )
    table = table.with_columns(
        drift_pct=pl.when(pl.col("n_runs_checked") > 0).then(
            pl.col("n_runs_drifted") / pl.col("n_runs_checked") * 100
        )
    ).sort([*axes[:3], protocol_rank(), "protocol"])
    return with_system_label(table).select(list(COLUMN_LABELS))


def chart(df: pl.DataFrame) -> alt.HConcatChart | alt.Chart:
    """Drift rate and unverified edits per system."""
    if df.is_empty():
        return placeholder(TITLE, EMPTY)
    systems = df["system"].to_list()
    source = df.drop("run_keys")
    panels: list[tuple[str, str, list[float] | None]] = [
        ("drift_pct", "drift (% of runs with a GUI check)", [0.0, 100.0]),
        ("unverified_edits_per_run", "unverified CLI edits / checked run", None),
    ]
    return bar_panels(
        source,
        systems,
        panels,
        tooltips=["n_runs_checked:Q", "n_runs_drifted:Q"],
        color="#f58518",
        title=TITLE,
    )
