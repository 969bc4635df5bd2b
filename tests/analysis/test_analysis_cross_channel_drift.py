"""Golden test of cross-channel drift: CLI edits after the last GUI check (SPEC §4)."""

from __future__ import annotations

import duckdb
from warehouse_rows import add_runs, assert_rows, run

from analysis.figures import cross_channel_drift
from tests.warehouse.goal_rows import add_events, add_snapshot, add_tool_call

HYBRID = {"mode": "hybrid", "channels": "cli,gui"}


def _shot(seq: int, call_id: str | None = None, source: str = "gui.screenshot") -> tuple:
    return (seq, "screenshot", {"source": source, "call_id": call_id})


def _seed(con: duckdb.DuckDBPyConnection) -> None:
    add_runs(
        con,
        run(run_key="drift", **HYBRID),
        run(run_key="ok", seed=2, **HYBRID),
        run(run_key="nocheck", seed=3, **HYBRID),
        run(run_key="runner", seed=4, **HYBRID),
        run(run_key="witness", seed=5, **HYBRID),
        run(run_key="cli"),  # cli_only: not in the population
    )
    # edit, look (the call and the capture it caused are one observation), then two edits
    add_tool_call(con, "drift", 10, "cli", "fs: write", touched=1)
    add_tool_call(con, "drift", 20, "gui", "gui: screenshot")
    add_events(con, "drift", _shot(21, "c20"))
    shell = add_tool_call(con, "drift", 30, "cli", "exec: shell")  # changed files: an edit
    add_snapshot(con, "drift", 31, shell, changed=2)
    quiet = add_tool_call(con, "drift", 40, "cli", "exec: shell")  # changed nothing
    add_snapshot(con, "drift", 41, quiet, changed=0)
    add_tool_call(con, "drift", 50, "cli", "fs: edit", touched=1)
    # every edit is looked at afterwards (a capture, then a shell screenshot)
    add_tool_call(con, "ok", 10, "cli", "fs: write", touched=1)
    add_events(con, "ok", _shot(20))
    add_tool_call(con, "ok", 30, "cli", "fs: write", touched=1)
    add_tool_call(con, "ok", 40, "gui", "gui: via shell (scrot)")
    add_tool_call(con, "ok", 50, "gui", "gui: click")  # an action, not an observation
    # a look before any CLI edit checks nothing
    add_events(con, "nocheck", _shot(10))
    add_tool_call(con, "nocheck", 20, "cli", "fs: write", touched=1)
    # realcli's own final capture is not the agent looking
    add_tool_call(con, "runner", 10, "cli", "fs: write", touched=1)
    add_events(con, "runner", _shot(20, source="runner.final"))
    # nor is the runner's witness capture after a CLI call that wrote an image
    add_tool_call(con, "witness", 10, "cli", "fs: write", touched=1)
    add_events(con, "witness", _shot(11, "c10", source="witness"))
    add_tool_call(con, "cli", 10, "cli", "fs: write", touched=1)


def test_drift_per_run(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = con.execute(
        "select run_key, n_cli_edits, n_gui_observations, n_gui_checks, n_unverified_cli_edits,"
        " drifted, first_unverified_seq from fct_cross_channel_drift order by run_key"
    ).fetchall()
    assert got == [
        ("drift", 3, 1, 1, 2, True, 30),
        ("nocheck", 1, 1, 0, 0, False, None),
        ("ok", 2, 2, 2, 0, False, None),
        ("runner", 1, 0, 0, 0, False, None),
        ("witness", 1, 0, 0, 0, False, None),
    ]


def test_cross_channel_drift_golden(con: duckdb.DuckDBPyConnection) -> None:
    _seed(con)
    got = cross_channel_drift.data(con)
    assert got.columns == list(cross_channel_drift.COLUMN_LABELS)
    assert_rows(
        got,
        [
            {
                "model": "m1",
                "harness": "h1",
                "mode": "hybrid",
                "protocol": "autonomous",
                "system": "m1 · h1",
                "n_runs": 5,
                "n_runs_checked": 2,
                "n_runs_drifted": 1,
                "drift_pct": 50.0,
                "unverified_edits_per_run": 1.0,
                "cli_edits_per_run": 8 / 5,
                "gui_checks_per_run": 3 / 5,
                "run_keys": ["drift", "nocheck", "ok", "runner", "witness"],
            }
        ],
    )
    cross_channel_drift.chart(got).to_dict()
