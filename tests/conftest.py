"""Shared fixtures: the repository's paths and an isolated realcli environment.

The suite runs in parallel test processes (pytest-xdist, ``-n 2 --dist loadgroup``; ``-n 0``
runs it serially). Each worker has its own ``tmp_path_factory`` base; what is built once for
the whole run (the fresh OpenClaw install, the task-inventory cache) lives in the run's shared
temp root, built by the first worker under a file lock (:func:`build_once`). Tests that share
a module- or class-scoped fixture, or an expensive session fixture, are kept on one worker
(:mod:`tests.xdist_groups`), so each such fixture is still built once.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from realcli.runner.app import CONF_DIR
from realcli.runner.spec import validate_spec
from realcli.schema.run_spec import RunSpec
from tests.xdist_groups import GROUPS_ENV, GroupScheduling, write_groups

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "tasks"
LIGHTSOUT = "weave-gam-lightsout"


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


def pytest_configure(config: pytest.Config) -> None:
    """The xdist controller of a ``--dist loadgroup`` run names the file its workers write
    the test groups to (:mod:`tests.xdist_groups`)."""
    controller = not hasattr(config, "workerinput") and config.getoption("numprocesses", None)
    if controller and config.getoption("dist", None) == "loadgroup":
        folder = Path(tempfile.mkdtemp(prefix="realcli-xdist-"))
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
        os.environ[GROUPS_ENV] = str(folder / "groups.json")


@pytest.hookimpl(tryfirst=True)  # before any deselection: the file lists every collected test
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if hasattr(config, "workerinput") and GROUPS_ENV in os.environ:
        write_groups(Path(os.environ[GROUPS_ENV]), items)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> GroupScheduling | None:
    """``--dist loadgroup`` keeps together the tests :func:`tests.xdist_groups.group_of`
    groups (xdist's own loadgroup no longer groups on pytest 9.2)."""
    return GroupScheduling(config, log) if config.getoption("dist", None) == "loadgroup" else None


TIMELINE_ENV = "REALCLI_TEST_TIMELINE"
"""A JSON Lines file each test phase (setup, call, teardown) is appended to, with its worker,
start and stop: where the suite's wall time goes (``python tests/timeline.py FILE``)."""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = os.environ.get(TIMELINE_ENV)
    if path and "PYTEST_XDIST_WORKER" not in os.environ:  # the controller writes (once)
        node = getattr(report, "node", None)  # the xdist worker the report came from
        worker = node.gateway.id if node is not None else "master"
        row = {"worker": worker, "test": report.nodeid, "when": report.when}
        row |= {"start": report.start, "stop": report.stop, "outcome": report.outcome}
        with open(path, "a", encoding="utf-8") as out:  # one short line: an atomic append
            out.write(json.dumps(row) + "\n")


def _worker() -> str:
    """This process's xdist worker id (``gw0``...), or ``master`` when not under xdist."""
    return os.environ.get("PYTEST_XDIST_WORKER", "master")


def build_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]
) -> Path:
    """The folder ``name``, made EMPTY and filled by ``build`` once for the whole test run.

    Serially (not under xdist) it is a fresh ``tmp_path_factory`` folder. Under
    xdist it is ``<run temp root>/<name>``, shared by the workers: the first to take the file
    lock builds it, the others wait and reuse it (the pattern of pytest-xdist's docs). If the
    build failed on another worker, this one fails too and says so (never builds on top)."""
    if _worker() == "master":
        base = tmp_path_factory.mktemp(name)
        build(base)
        return base
    root = tmp_path_factory.getbasetemp().parent
    base, done = root / name, root / f"{name}.done"
    with FileLock(str(root / f"{name}.lock")):
        if done.is_file():
            return base
        if base.exists():
            pytest.fail(f"{base}: another test worker failed to build it (see that error)")
        base.mkdir()
        build(base)
        done.touch()
    return base


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One realcli cache (task test inventories) for the whole test run, shared by the xdist
    workers (realcli writes its entries atomically, so concurrent runs may share it)."""
    if _worker() == "master":
        return tmp_path_factory.mktemp("realcli-cache")
    path = tmp_path_factory.getbasetemp().parent / "realcli-cache"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session")
def openclaw_agents_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An agents folder that starts EMPTY and gets ``realcli agents install openclaw`` (Node
    24 and OpenClaw, from the npm registry), once per test run (shared by the xdist
    workers): what a machine with no agent cache (CI) has. The OpenClaw tests run from it,
    never from an earlier install."""
    from realcli.harness.install import install

    def fresh_install(base: Path) -> None:
        assert not any(base.iterdir()), base
        install("openclaw", base)

    return build_once(tmp_path_factory, "agents-fresh", fresh_install)


@pytest.fixture(scope="session")
def lightsout_replay(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> Path:
    """The run folder of a replay of weave-gam-lightsout (builtin harness, hybrid mode):
    an honest run that passes every test, with screenshots and workspace snapshots. Shared by
    the judge tests and the report store (tests/analysis/report_store.py); never edited (copy
    it first)."""
    base = tmp_path_factory.mktemp("lightsout-replay")
    env = env_for(base, cache_dir)
    proc = run_realcli(
        [
            "run",
            f"task={LIGHTSOUT}",
            "model=replay",
            "harness=builtin",
            "mode=hybrid",
            "judge=tests",
        ],
        env,
        REPO,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (run_dir,) = [p for p in (base / "runs" / "default").iterdir() if p.is_dir()]
    assert (run_dir / "verdict.json").is_file(), proc.stdout
    return run_dir


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


def run_lines(stdout: str, state: str) -> int:
    """How many finished-run lines of ``realcli run`` start with ``state`` (``finished``,
    ``skipped``, ``healed``...): the sweep's status lines and summary also say "skipped"."""
    return sum(line.startswith(f"{state} ") for line in stdout.splitlines())


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


def make_socket_file(path: Path) -> None:
    """A Unix socket file at ``path`` (bound, then closed: the file stays), however long the
    path: a socket address is limited to 108 bytes, and pytest-xdist's per-worker temp folders
    (``.../popen-gw0/...``) push some test paths past it. Bound in a short folder, then
    renamed into place (the file stays a socket)."""
    short = Path(tempfile.mkdtemp(prefix="rc-sock-"))
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind(str(short / "s"))
        os.rename(short / "s", path)
    finally:
        shutil.rmtree(short, ignore_errors=True)


@pytest.fixture
def socket_dir() -> Iterator[Path]:
    """A short folder for a gateway's Unix socket (socket paths are limited to 108 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="rc-gw-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
