"""Shared fixtures: the repository's paths and an isolated realcli environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "tasks"
REALCLI = [sys.executable, "-m", "realcli.cli"]


@pytest.fixture
def realcli_env(tmp_path: Path) -> dict[str, str]:
    """Environment for a realcli subprocess whose runs, warehouse and report live in tmp_path."""
    env = dict(os.environ)
    env.update(
        REALCLI_TASKS_DIR=str(TASKS),
        REALCLI_RUNS_DIR=str(tmp_path / "runs"),
        REALCLI_WAREHOUSE=str(tmp_path / "warehouse.duckdb"),
        REALCLI_REPORT_DIR=str(tmp_path / "report"),
    )
    return env


def run_realcli(
    args: list[str], env: Mapping[str, str], cwd: Path, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*REALCLI, *args],
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
