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


def env_for(tmp: Path, cache_dir: Path) -> dict[str, str]:
    """Environment for a realcli subprocess whose runs, warehouse and report live in ``tmp``."""
    env = dict(os.environ)
    env.update(
        REALCLI_TASKS_DIR=str(TASKS),
        REALCLI_RUNS_DIR=str(tmp / "runs"),
        REALCLI_WAREHOUSE=str(tmp / "warehouse.duckdb"),
        REALCLI_REPORT_DIR=str(tmp / "report"),
        REALCLI_CACHE_DIR=str(cache_dir),
    )
    return env


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One realcli cache (task test inventories) for the whole test session."""
    return tmp_path_factory.mktemp("realcli-cache")


@pytest.fixture
def realcli_env(tmp_path: Path, cache_dir: Path) -> dict[str, str]:
    return env_for(tmp_path, cache_dir)


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
