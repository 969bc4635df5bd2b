"""Golden tests of the trajectory figures: runs, judgements, tool_call_ops and task-fact rows
in; trajectory_profile, tool_call_distribution and coverage rows out."""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl
import pytest
from warehouse_rows import add_runs, assert_rows
from weave_rows import add_judgements, judgement, weave_run

from analysis.figures import coverage, tool_call_distribution, trajectory_profile
from analysis.published import COVERAGE, PAPER_WEAVE, TOOL_CALLS, TRAJECTORY_PROFILE
from realcli.schema.atoms import ATOMS
from realcli.schema.report import ReportSpec
from realcli.warehouse import insert_rows

Op = tuple[str, str | None, str, str]  # op, program, tool_channel, channel
SHOT: Op = ("computer: screenshot", None, "gui", "gui")
CLICK: Op = ("computer: click", None, "gui", "gui")
TYPE: Op = ("computer: type", None, "gui", "gui")
CD: Op = ("exec: shell", "cd", "cli", "cli")
GREP: Op = ("exec: shell", "grep", "cli", "cli")
LS: Op = ("exec: shell", "ls", "cli", "cli")
CAT: Op = ("exec: shell", "cat", "cli", "cli")
MAKE: Op = ("exec: shell", "make", "cli", "cli")
PY: Op = ("exec: python", "python3", "cli", "cli")
XDO: Op = ("exec: xdotool", "xdotool", "cli", "gui")  # GUI work inside a shell call

CALLS: dict[str, list[list[Op]]] = {
    # t1's best hybrid rollout: gui | cd grep | xdotool | gui
    "a1": [[SHOT], [CD, GREP], [XDO], [CLICK]],
    "a2": [[LS], [CAT]],
    # t2's best: click, 19 python calls, type: 21 calls, 3 phases
    "a3": [[CLICK], *([[PY]] * 19), [TYPE]],
    "c1": [[MAKE]],
}
ATOMS_OF = {"t1": ["F2", "F3", "V1", "V2"], "t2": ["F3", "V1"]}


def _op_rows(run_key: str, calls: list[list[Op]]) -> list[dict[str, Any]]:
    return [
        {
            "run_key": run_key,
            "seq": seq,
            "call_id": f"{run_key}-{seq}",
            "op_index": i,
            "op": op,
            "program": program,
            "tool_channel": tool_channel,
            "channel": channel,
            "reattributed": channel != tool_channel,
        }
        for seq, call in enumerate(calls, start=1)
        for i, (op, program, tool_channel, channel) in enumerate(call)
    ]


@pytest.fixture
def seeded(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    add_runs(
        con,
        weave_run(run_key="a1", task_id="t1"),
        weave_run(run_key="a2", task_id="t1", seed=2),
        weave_run(run_key="a3", task_id="t2", task_domain="DOC"),
        weave_run(run_key="c1", task_id="t1", mode="cli_only"),
        weave_run(run_key="i1", task_id="t1", seed=3, status="incomplete"),
    )
    add_judgements(
        con,
        judgement("a1", final=0.9, task_id="t1"),
        judgement("a2", final=0.5, task_id="t1"),
        judgement("a3", final=0.7, task_id="t2"),
        judgement("c1", final=0.95, task_id="t1"),  # best score, but not a hybrid rollout
    )
    insert_rows(con, "tool_call_ops", [r for k, c in CALLS.items() for r in _op_rows(k, c)])
    task_of = {"a1": "t1", "a2": "t1", "a3": "t2", "c1": "t1", "i1": "t1"}
    insert_rows(
        con,
        "run_task_atoms",
        [
            {
                "run_key": key,
                "atom": a,
                "family": ATOMS[a].family,
                "macro_group": ATOMS[a].group,
                "anchor": ATOMS[a].anchor,
            }
            for key, task in task_of.items()
            for a in ATOMS_OF[task]
        ],
    )
    apps = [("a1", "game"), ("a2", "game"), ("a3", "viewer"), ("a3", "browser")]
    insert_rows(
        con, "run_gui_apps", [{"run_key": k, "name": n, "window_title": n} for k, n in apps]
    )
    return con


def test_trajectory_profile_best_rollout_per_task_and_per_system(
    seeded: duckdb.DuckDBPyConnection,
) -> None:
    df = trajectory_profile.data(seeded)
    assert df.columns == list(trajectory_profile.COLUMN_LABELS)
    none = {"model": None, "harness": None, "protocol": None}
    system = {"model": "m1", "harness": "openclaw", "protocol": "autonomous", "source": "realcli"}
    p = TRAJECTORY_PROFILE
    assert_rows(
        df,
        [
            none
            | {
                "scope": "best per task",
                "mode": "hybrid",
                "source": "realcli",
                "n_runs": 2,
                "n_tasks": 2,
                "median_tool_calls": 12.5,
                "mean_tool_calls": 12.5,
                "min_tool_calls": 4,
                "max_tool_calls": 21,
                "median_switches_tool": 2.0,
                "median_switches_atomic": 2.0,
                "boundary_share_tool_pct": (2 / 4 + 2 / 21) / 2 * 100,
                "boundary_share_atomic_pct": (2 / 4 + 2 / 21) / 2 * 100,
                "median_apps_states": 2.5,  # a1: the game + grep; a3: viewer, browser + python3
                "min_apps_states": 2,
                "max_apps_states": 3,
                "n_incomplete": 1,
                "run_keys": ["a1", "a3"],
            },
            none
            | {
                "scope": "best per task",
                "mode": "hybrid",
                "source": PAPER_WEAVE,
                "n_runs": None,
                "n_tasks": None,
                "median_tool_calls": 76.0,
                "mean_tool_calls": 88.0,
                "min_tool_calls": p["min_tool_calls"],
                "max_tool_calls": p["max_tool_calls"],
                "median_switches_tool": 16.0,
                "median_switches_atomic": None,
                "boundary_share_tool_pct": 23.0,
                "boundary_share_atomic_pct": None,
                "median_apps_states": 15.0,
                "min_apps_states": 4,
                "max_apps_states": 24,
                "n_incomplete": None,
                "run_keys": [],
            },
            system
            | {
                "scope": "system",
                "mode": "cli_only",
                "n_runs": 1,
                "n_tasks": 1,
                "median_tool_calls": 1.0,
                "mean_tool_calls": 1.0,
                "min_tool_calls": 1,
                "max_tool_calls": 1,
                "median_switches_tool": 0.0,
                "median_switches_atomic": 0.0,
                "boundary_share_tool_pct": 0.0,
                "boundary_share_atomic_pct": 0.0,
                "median_apps_states": 1.0,  # make
                "min_apps_states": 1,
                "max_apps_states": 1,
                "n_incomplete": 0,
                "run_keys": ["c1"],
            },
            system
            | {
                "scope": "system",
                "mode": "hybrid",
                "n_runs": 3,
                "n_tasks": 2,
                "median_tool_calls": 4.0,
                "mean_tool_calls": 9.0,
                "min_tool_calls": 2,
                "max_tool_calls": 21,
                "median_switches_tool": 2.0,
                "median_switches_atomic": 2.0,
                "boundary_share_tool_pct": (2 / 4 + 0 + 2 / 21) / 3 * 100,
                "boundary_share_atomic_pct": (2 / 4 + 0 + 2 / 21) / 3 * 100,
                "median_apps_states": 2.0,  # a2 did no GUI work: ls, cat only
                "min_apps_states": 2,
                "max_apps_states": 3,
                "n_incomplete": 1,
                "run_keys": ["a1", "a2", "a3"],
            },
        ],
    )
    trajectory_profile.chart(df).to_dict()


def test_tool_call_distribution_top_ops_and_gui_share_before_and_after(
    seeded: duckdb.DuckDBPyConnection,
) -> None:
    df = tool_call_distribution.data(seeded)
    assert df.columns == list(tool_call_distribution.COLUMN_LABELS)
    blank: dict[str, Any] = {c: None for c in tool_call_distribution.COLUMN_LABELS}
    paper = blank | {"model": "GPT-5.5", "mode": "hybrid", "source": PAPER_WEAVE, "run_keys": []}
    m1 = blank | {"model": "m1", "harness": "openclaw", "protocol": "autonomous"}
    m1 |= {"source": "realcli"}
    hybrid_keys = ["a1", "a2", "a3"]

    def op(rank: int, name: str, n: int) -> dict[str, Any]:
        return m1 | {
            "mode": "hybrid",
            "scope": "op",
            "rank": rank,
            "op": name,
            "n_op": n,
            "op_share_pct": n / 28 * 100,
            "run_keys": hybrid_keys,
        }

    assert_rows(
        df,
        [
            paper
            | {
                "scope": "summary",
                "rank": 0,
                "n_calls": TOOL_CALLS["n_calls"],
                "top10_share_pct": 93.1,
                "exec_shell_share_pct": 27.3,
                "gui_share_tool_pct": 33.9,
                "gui_share_atomic_pct": 62.9,
            },
            paper | {"scope": "op", "op": "exec: shell", "op_share_pct": 27.3},
            m1
            | {
                "mode": "cli_only",
                "scope": "summary",
                "rank": 0,
                "n_runs": 1,
                "n_calls": 1,
                "n_ops": 1,
                "top10_share_pct": 100.0,
                "exec_shell_share_pct": 100.0,
                "gui_share_tool_pct": 0.0,
                "gui_share_atomic_pct": 0.0,
                "gui_op_share_pct": 0.0,
                "n_reattributed_ops": 0,
                "n_incomplete": 0,
                "run_keys": ["c1"],
            },
            m1
            | {
                "mode": "cli_only",
                "scope": "op",
                "rank": 1,
                "op": "exec: shell",
                "n_op": 1,
                "op_share_pct": 100.0,
                "run_keys": ["c1"],
            },
            m1
            | {
                "mode": "hybrid",
                "scope": "summary",
                "rank": 0,
                "n_runs": 3,
                "n_calls": 27,
                "n_ops": 28,
                "top10_share_pct": 100.0,
                "exec_shell_share_pct": 4 / 28 * 100,
                "gui_share_tool_pct": 4 / 27 * 100,  # 2 GUI tool calls each in a1 and a3
                "gui_share_atomic_pct": 5 / 27 * 100,  # + a1's shell call running xdotool
                "gui_op_share_pct": 5 / 28 * 100,
                "n_reattributed_ops": 1,
                "n_incomplete": 1,
                "run_keys": hybrid_keys,
            },
            op(1, "exec: python", 19),
            op(2, "exec: shell", 4),
            op(3, "computer: click", 2),
            op(4, "computer: screenshot", 1),  # ties by name
            op(5, "computer: type", 1),
            op(6, "exec: xdotool", 1),
        ],
    )
    tool_call_distribution.chart(df).to_dict()


def test_coverage_matrix_levels_and_p2_p3_per_domain(seeded: duckdb.DuckDBPyConnection) -> None:
    df = coverage.data(seeded)
    assert df.columns == list(coverage.COLUMN_LABELS)
    blank: dict[str, Any] = {c: None for c in coverage.COLUMN_LABELS}
    no_atoms = {a: False for a in ATOMS}
    best = {"model": "m1", "harness": "openclaw", "mode": "hybrid", "protocol": "autonomous"}
    ours = blank | {"source": "realcli"}

    def summary(scope: str, domain: str | None, **values: Any) -> dict[str, Any]:
        return ours | {"scope": scope, "task_domain": domain} | values

    assert_rows(
        df,
        [
            ours
            | best
            | no_atoms
            | {"F3": True, "V1": True}
            | {
                "scope": "task",
                "task_id": "t2",
                "task_domain": "DOC",
                "n_cli_atoms": 1,
                "n_gui_atoms": 1,
                "any_side": True,
                "non_universal": False,  # the two anchors only
                "depth": False,
                "n_tool_calls": 21,
                "phases_atomic": 3,
                "apps_states": 3,
                "p2": True,
                "p3": True,
                "run_keys": ["a3"],
            },
            ours
            | best
            | no_atoms
            | {"F2": True, "F3": True, "V1": True, "V2": True}
            | {
                "scope": "task",
                "task_id": "t1",
                "task_domain": "GAM",
                "n_cli_atoms": 2,
                "n_gui_atoms": 2,
                "any_side": True,
                "non_universal": True,
                "depth": True,
                "n_tool_calls": 4,  # a1, not c1 (cli_only) though c1 scored higher
                "phases_atomic": 3,
                "apps_states": 2,
                "p2": False,
                "p3": False,
                "run_keys": ["a1", "i1"],  # atoms from the latest run, P2/P3 from the best
            },
            summary(
                "domain",
                "DOC",
                n_tasks=1,
                any_side_n=1,
                non_universal_n=0,
                depth_n=0,
                p2_n=1,
                p3_n=1,
                any_side_pct=100.0,
                non_universal_pct=0.0,
                depth_pct=0.0,
                p2_pct=100.0,
                p3_pct=100.0,
                n_tasks_with_rollout=1,
                mean_cli_atoms=1.0,
                mean_gui_atoms=1.0,
                run_keys=["a3"],
            ),
            summary(
                "domain",
                "GAM",
                n_tasks=1,
                any_side_n=1,
                non_universal_n=1,
                depth_n=1,
                p2_n=0,
                p3_n=0,
                any_side_pct=100.0,
                non_universal_pct=100.0,
                depth_pct=100.0,
                p2_pct=0.0,
                p3_pct=0.0,
                n_tasks_with_rollout=1,
                mean_cli_atoms=2.0,
                mean_gui_atoms=2.0,
                run_keys=["a1", "i1"],
            ),
            summary(
                "all",
                None,
                n_tasks=2,
                any_side_n=2,
                non_universal_n=1,
                depth_n=1,
                p2_n=1,
                p3_n=1,
                any_side_pct=100.0,
                non_universal_pct=50.0,
                depth_pct=50.0,
                p2_pct=50.0,
                p3_pct=50.0,
                n_tasks_with_rollout=2,
                mean_cli_atoms=1.5,
                mean_gui_atoms=1.5,
                run_keys=["a1", "a3", "i1"],
            ),
            blank
            | {
                "scope": "all",
                "source": PAPER_WEAVE,
                "n_tasks": 114,
                "any_side_pct": 100.0,
                "non_universal_pct": 90.4,
                "mean_cli_atoms": 2.24,
                "mean_gui_atoms": 1.80,
                "p2_pct": COVERAGE["p2_pct"],
                "p3_pct": 100.0,
                "run_keys": [],
            },
        ],
    )
    coverage.chart(df).to_dict()


def test_figures_without_published_rows_and_a_task_without_atoms(
    seeded: duckdb.DuckDBPyConnection,
) -> None:
    spec = ReportSpec(published=False)
    add_runs(seeded, weave_run(run_key="n1", task_id="t3", task_domain="WEB"))
    for figure in (trajectory_profile, tool_call_distribution, coverage):
        df = figure.data(seeded, spec=spec)
        assert set(df["source"].drop_nulls()) == {"realcli"}
    t3 = coverage.data(seeded, spec=spec).filter(pl.col("task_id") == "t3").to_dicts()[0]
    # no atoms annotated: no coverage level holds; its only (unjudged) rollout made no tool
    # calls, so it is the task's best rollout with final 0 and P2 fails
    assert (t3["any_side"], t3["non_universal"], t3["n_cli_atoms"], t3["p2"]) == (
        False,
        False,
        0,
        False,
    )
