"""A small REAL run store, built once per test session, for the report's end-to-end tests.

Three runs made by ``realcli run`` (builtin harness): the session's replay of the hybrid
WeaveBench task weave-gam-lightsout (``lightsout_replay``, shared with the judge tests and
copied here), a replay of smoke-bugfix-intervals that passes, and a noop run of it that fails
its F2P tests. Then ``realcli judge judge=trajectory`` (the clause judge), ``realcli ingest``
and ``realcli report``, each as a user runs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from realcli.util.safe_fs import copy_tree
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


def _realcli(args: list[str], env: dict[str, str]) -> str:
    proc = run_realcli(args, env, REPO)
    assert proc.returncode == 0, f"realcli {' '.join(args)}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _new_run(runs: Path, before: set[str]) -> str:
    (key,) = {p.name for p in runs.iterdir() if p.is_dir()} - before
    return key


def build_report_store(base: Path, cache_dir: Path, lightsout_replay: Path) -> ReportStore:
    env = env_for(base, cache_dir)
    runs = base / "runs" / "default"
    runs.mkdir(parents=True)
    copy_tree(lightsout_replay, runs / lightsout_replay.name)
    keys = {lightsout_replay.name}
    made = []
    for model in ("replay", "noop"):
        _realcli(["run", f"task={SMOKE}", f"model={model}", "harness=builtin", "judge=tests"], env)
        made.append(_new_run(runs, keys))
        keys.add(made[-1])
    _realcli(["judge", "judge=trajectory"], env)
    _realcli(["ingest"], env)
    _realcli(["report"], env)
    return ReportStore(
        base=base,
        warehouse=base / "warehouse.duckdb",
        report=base / "report",
        hybrid=lightsout_replay.name,
        smoke_replay=made[0],
        smoke_noop=made[1],
    )
