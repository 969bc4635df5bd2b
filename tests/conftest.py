"""Shared fixtures: the repository's paths and an isolated realcli environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from realcli.runner.app import CONF_DIR
from realcli.runner.spec import validate_spec
from realcli.schema.run_spec import RunSpec

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "tasks"


def compose_spec(base: Path, overrides: list[str]) -> RunSpec:
    """A RunSpec composed from conf/ as `realcli run` composes it, with realcli's cache in
    ``base/cache`` (never the user's)."""
    with (
        pytest.MonkeyPatch.context() as mp,
        initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"),
    ):
        mp.setenv("REALCLI_CACHE_DIR", str(base / "cache"))
        cfg = compose(config_name="config", overrides=overrides)
        raw = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(raw, dict)
    return validate_spec({str(k): v for k, v in raw.items()}, {})


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


@pytest.fixture(scope="session")
def openclaw_agents_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An agents folder that starts EMPTY and gets ``realcli agents install openclaw`` (Node
    24 and OpenClaw, from the npm registry), once per test session: what a machine with no
    agent cache (CI) has. The OpenClaw tests run from it, never from an earlier install."""
    from realcli.harness.install import install

    base = tmp_path_factory.mktemp("agents-fresh")
    assert not any(base.iterdir()), base
    install("openclaw", base)
    return base


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


def processes_with_arg(arg: str) -> list[int]:
    """Host pids of live (non-zombie) processes with ``arg`` as one whole argv element."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X") and arg.encode() in argv:
            found.append(int(entry.name))
    return found


@pytest.fixture(name="processes_with_arg")
def processes_with_arg_fixture() -> Callable[[str], list[int]]:
    return processes_with_arg


@pytest.fixture
def socket_dir() -> Iterator[Path]:
    """A short folder for a gateway's Unix socket (socket paths are limited to 108 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="rc-gw-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
