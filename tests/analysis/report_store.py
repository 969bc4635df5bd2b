"""A small REAL run store, built once per test session, for the report's end-to-end tests.

Three runs made by ``realcli run`` (builtin harness): the session's replay of the hybrid
WeaveBench task weave-gam-lightsout (``lightsout_replay``, shared with the judge tests and
copied here), and one ``--multirun`` of smoke-bugfix-intervals with ``model=replay,noop``: a
replay that passes and a noop run that fails its F2P tests. Then ``realcli judge
judge=trajectory`` (the clause judge), ``realcli ingest`` and ``realcli report``, each as a user
runs them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from realcli.util.safe_fs import copy_tree
from realcli.warehouse import connect
from tests.conftest import REPO, env_for, run_realcli

__all__ = ["SMOKE", "ReportStore", "build_report_store"]

SMOKE = "smoke-bugfix-intervals"


@dataclass(frozen=True)
class ReportStore:
    base: Path
    warehouse: Path
    report: Path  # the report folder (index.html, runs/, rows/)
    hybrid: str  # run keys
    smoke_replay: str
    smoke_noop: str
    seconds: dict[str, float]  # wall time of each step of the build


def _realcli(args: list[str], env: dict[str, str]) -> str:
    proc = run_realcli(args, env, REPO)
    assert proc.returncode == 0, f"realcli {' '.join(args)}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def build_report_store(base: Path, cache_dir: Path, lightsout_replay: Path) -> ReportStore:
    env = env_for(base, cache_dir)
    runs = base / "runs" / "default"
    runs.mkdir(parents=True)
    copy_tree(lightsout_replay, runs / lightsout_replay.name)
    smoke = ["run", "--multirun", f"task={SMOKE}", "model=replay,noop", "harness=builtin"]
    seconds: dict[str, float] = {}
    for step, args in (
        ("run smoke replay,noop", [*smoke, "judge=tests"]),
        ("judge", ["judge", "judge=trajectory"]),
        ("ingest", ["ingest"]),
        ("report", ["report"]),
    ):
        start = time.monotonic()
        _realcli(args, env)
        seconds[step] = time.monotonic() - start
    warehouse = base / "warehouse.duckdb"
    with connect(warehouse, read_only=True) as con:
        keys = dict(
            con.execute("select model, run_key from runs where task_id = ?", [SMOKE]).fetchall()
        )
    return ReportStore(
        base=base,
        warehouse=warehouse,
        report=base / "report",
        hybrid=lightsout_replay.name,
        smoke_replay=keys["replay"],
        smoke_noop=keys["noop"],
        seconds=seconds,
    )
