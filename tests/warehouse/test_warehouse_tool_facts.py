"""Golden ingest of migration 010: a run folder's tool calls become atomic ops
(tool_call_ops), its task copy's P1 facts become run_task_atoms / run_p1_atoms / run_gui_apps,
and fct_trajectory_profile counts switches, boundary share and apps/states from them."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import duckdb
import pytest
from run_folders import T0, MakeRun

from realcli.ledger import LedgerWriter
from realcli.schema.events import Channel, ToolCallEvent
from realcli.util.redact import Redactor
from realcli.warehouse import fetch_df, ingest

REPO = Path(__file__).resolve().parents[2]
OPS_TASK = REPO / "tasks" / "weave-ops-edge-outage" / "task.toml"

CALLS: list[dict[str, Any]] = [
    # (name, raw_name, channel, atomic_op, args) as a harness's transcript records them
    {
        "name": "gui_screenshot",
        "raw_name": "mcp__gui__screenshot",
        "channel": Channel.gui,
        "atomic_op": "gui: screenshot",
        "args": {},
    },
    {
        "name": "shell",
        "raw_name": "Bash",
        "channel": Channel.cli,
        "atomic_op": "exec: shell",
        "args": {"command": "cd /app && grep -c ' 502 ' logs/edge-access.log"},
    },
    {
        "name": "shell",
        "raw_name": "Bash",
        "channel": Channel.gui,
        "atomic_op": "gui: via shell (xdotool)",
        "args": {
            "command": "xdotool search --name 'Ops Console' && gnome-screenshot -f /tmp/a.png"
        },
    },
    {
        "name": "write_file",
        "raw_name": "Write",
        "channel": Channel.cli,
        "atomic_op": "fs: write",
        "args": {"path": "postmortem.md", "content": "incident: INC-1"},
    },
    {
        "name": "gui_click",
        "raw_name": "mcp__gui__click",
        "channel": Channel.gui,
        "atomic_op": "gui: click",
        "args": {"x": 10, "y": 20},
    },
    {
        "name": "shell",
        "raw_name": "Bash",
        "channel": Channel.cli,
        "atomic_op": "exec: shell",
        "args": {"command": "python3 tools/impact.py | tee out.txt; echo done"},
    },
]


def _append_calls(run_dir: Path) -> None:
    ledger = run_dir / "ledger.jsonl"
    next_seq = len(ledger.read_text().splitlines())
    writer = LedgerWriter(ledger, Redactor(env={}), next_seq=next_seq)
    with writer:
        for i, call in enumerate(CALLS):
            writer.emit(ToolCallEvent(seq=0, ts=T0 + timedelta(minutes=i), call_id=f"k{i}", **call))


@pytest.fixture
def loaded(make_run: MakeRun, runs_dir: Path, fresh_db: duckdb.DuckDBPyConnection) -> str:
    run_dir = make_run(task_id="weave-ops-edge-outage", mode="hybrid", n_tool_calls=0)
    _append_calls(run_dir)
    shutil.copy(OPS_TASK, run_dir / "task.toml")
    ingest(fresh_db, runs_dir)
    return run_dir.name


def test_tool_calls_become_atomic_ops_with_both_channels(
    loaded: str, fresh_db: duckdb.DuckDBPyConnection
) -> None:
    got = fetch_df(
        fresh_db,
        "select call_id, op_index, op, program, tool_channel, channel, reattributed"
        " from tool_call_ops where run_key = ? order by seq, op_index",
        [loaded],
    ).rows()
    assert got == [
        ("k0", 0, "computer: screenshot", None, "gui", "gui", False),
        ("k1", 0, "exec: shell", "cd", "cli", "cli", False),
        ("k1", 1, "exec: shell", "grep", "cli", "cli", False),
        ("k2", 0, "exec: xdotool", "xdotool", "cli", "gui", True),
        ("k2", 1, "exec: gnome-screenshot", "gnome-screenshot", "cli", "gui", True),
        ("k3", 0, "fs: write", None, "cli", "cli", False),
        ("k4", 0, "computer: click", None, "gui", "gui", False),
        ("k5", 0, "exec: python", "python3", "cli", "cli", False),
        ("k5", 1, "exec: shell", "tee", "cli", "cli", False),
        ("k5", 2, "exec: shell", "echo", "cli", "cli", False),
    ]


def test_task_copy_facts_are_loaded(loaded: str, fresh_db: duckdb.DuckDBPyConnection) -> None:
    atoms = fetch_df(
        fresh_db,
        "select atom, family, macro_group, anchor from run_task_atoms where run_key = ?",
        [loaded],
    ).rows()
    assert atoms == [
        ("K2", "K", "cli", False),
        ("N2", "N", "cli", False),
        ("F3", "F", "cli", True),
        ("V1", "V", "gui", True),
        ("V2", "V", "gui", False),
        ("I1", "I", "gui", False),
        ("S2", "S", "gui", False),
    ]
    p1 = fetch_df(
        fresh_db, "select id, channel, atom from run_p1_atoms where run_key = ?", [loaded]
    ).rows()
    assert p1 == [
        ("registry-on-screen", "gui", "V2"),
        ("incident-on-screen", "gui", "V2"),
        ("resolve-in-console", "gui", "I1"),
        ("fix-repo-files", "cli", "N2"),
        ("impact-from-log", "cli", "K2"),
        ("write-postmortem", "cli", "F3"),
    ]
    apps = fetch_df(fresh_db, "select name, window_title from run_gui_apps").rows()
    assert apps == [("console", "Ops Console")]


def test_trajectory_profile_counts_switches_boundary_and_apps(
    loaded: str, fresh_db: duckdb.DuckDBPyConnection
) -> None:
    row = fetch_df(
        fresh_db, "select * from fct_trajectory_profile where run_key = ?", [loaded]
    ).to_dicts()[0]
    # tool level: gui cli cli cli gui cli -> 3 switches; atomic calls: gui cli gui cli gui cli
    # -> 5 switching calls, 6 phases; ops: g c c g g c g c c c -> 5 op switches
    assert {
        k: row[k]
        for k in (
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
            "phases_atomic",
            "n_gui_apps_reached",
            "n_cli_programs",
            "apps_states",
        )
    } == {
        "n_tool_calls": 6,
        "n_gui_calls_tool": 2,
        "n_cli_calls_tool": 4,
        "n_gui_calls_atomic": 3,
        "n_cli_calls_atomic": 3,
        "n_ops": 10,
        "n_gui_ops": 4,
        "n_reattributed_ops": 2,
        "switches_tool": 3,
        "switches_atomic": 5,
        "phases_atomic": 6,
        # the console (one GUI app) + grep, python3, tee (cd and echo are plumbing)
        "n_gui_apps_reached": 1,
        "n_cli_programs": 3,
        "apps_states": 4,
    }
    assert row["boundary_share_tool"] == pytest.approx(3 / 6)
    assert row["boundary_share_atomic"] == pytest.approx(5 / 6)
    assert row["task_domain"] == "OPS"


def test_a_bad_atom_in_the_task_copy_is_a_problem_and_the_rest_loads(
    make_run: MakeRun, runs_dir: Path, fresh_db: duckdb.DuckDBPyConnection
) -> None:
    run_dir = make_run(task_id="weave-x", n_tool_calls=1)
    text = OPS_TASK.read_text().replace('atoms = ["K2",', 'atoms = ["Z9", "K2",', 1)
    text = text.replace('atom = "I1"', 'atom = "nope"', 1)
    (run_dir / "task.toml").write_text(text)
    stats = ingest(fresh_db, runs_dir)
    assert stats.loaded == 1
    problems = fetch_df(fresh_db, "select location, problem from ingest_problems").rows()
    assert (
        "atoms",
        "unknown atom 'Z9' (known: K1, K2, K3, K4, N1, N2, N3, F1, F2, F3, F4, V1,"
        " V2, V3, I1, I2, I3, S1, S2)",
    ) in problems
    assert any(f == "p1_atoms[2]" for f, _ in problems)
    n_atoms = fresh_db.execute("select count(*) from run_task_atoms").fetchone()
    n_p1 = fresh_db.execute("select count(*) from run_p1_atoms").fetchone()
    assert (n_atoms, n_p1) == ((7,), (5,))
    assert fresh_db.execute("select count(*) from tool_call_ops").fetchone() == (1,)
