"""Acceptance for ``sandbox=docker`` through the real runner and CLI.

- ``realcli run --multirun sandbox=local,docker suite=smoke model=replay,noop``: one sweep,
  both backends side by side; every (task, model) gets the same verdict under both (replay
  passes, noop fails every F2P test and keeps P2P), and the docker runs really ran in
  containers (the daemon's own event log names them);
- a hybrid task (weave-gam-lightsout, the cheapest) passes in ``mode=hybrid`` in containers:
  its GUI app (Tk, in the task's image) on the run's display, the agent's shell and grading
  each in a container of their own.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import docker
import docker.errors
import pytest

from realcli.sandbox.docker_client import SANDBOX_LABEL
from realcli.schema.verdict import Verdict
from tests.conftest import LIGHTSOUT, TASKS, env_for, run_realcli


def _docker_down() -> str | None:
    try:
        docker.from_env(timeout=5).ping()
    except (docker.errors.DockerException, OSError) as exc:
        return f"dockerd does not answer ({exc}); start it with `bash scripts/dockerd.sh`"
    return None


_DOWN = _docker_down()
pytestmark = [
    pytest.mark.docker,
    pytest.mark.sandbox,
    pytest.mark.slow,
    pytest.mark.skipif(_DOWN is not None, reason=_DOWN or ""),
]

SMOKE = sorted(p.name for p in TASKS.glob("smoke-*"))


def _containers_started(since: int) -> set[str]:
    """Names of the realcli sandbox containers the daemon started since ``since``."""
    api = docker.from_env(timeout=30).api
    events = api.events(
        since=since,
        until=int(time.time()) + 1,
        filters={"event": "start", "label": SANDBOX_LABEL},
        decode=True,
    )
    return {e["Actor"]["Attributes"]["name"] for e in events}


def _runs(runs_dir: Path) -> list[tuple[dict[str, Any], Verdict]]:
    out = []
    for verdict in sorted(runs_dir.glob("*/*/verdict.json")):
        spec = json.loads((verdict.parent / "spec.json").read_text())["spec"]
        out.append((spec, Verdict.model_validate_json(verdict.read_text())))
    return out


@pytest.fixture(scope="module")
def smoke_both(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> tuple[list[tuple[dict[str, Any], Verdict]], set[str]]:
    tmp = tmp_path_factory.mktemp("docker-smoke")
    since = int(time.time()) - 1
    args = ["run", "--multirun", "sandbox=local,docker", "suite=smoke", "model=replay,noop"]
    args += ["experiment_name=backends", "hydra/launcher=joblib", "hydra.launcher.n_jobs=2"]
    proc = run_realcli(args, env_for(tmp, cache_dir), tmp, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return _runs(tmp / "runs"), _containers_started(since)


def test_smoke_verdicts_match_between_local_and_docker(
    smoke_both: tuple[list[tuple[dict[str, Any], Verdict]], set[str]],
) -> None:
    runs, _ = smoke_both
    table: dict[tuple[str, str], dict[str, Verdict]] = {}
    for spec, verdict in runs:
        key = (verdict.task_id, spec["model"]["name"])
        table.setdefault(key, {})[spec["sandbox"]["kind"]] = verdict
    assert sorted(table) == sorted((t, m) for t in SMOKE for m in ("noop", "replay"))
    for (task, model), by_kind in sorted(table.items()):
        assert set(by_kind) == {"local", "docker"}, (task, model)
        local, dock = by_kind["local"], by_kind["docker"]
        assert dock.status == local.status, (task, model, dock.error)
        assert (dock.passed, dock.f2p_pass, dock.p2p_pass) == (
            local.passed,
            local.f2p_pass,
            local.p2p_pass,
        ), (task, model)
        assert (dock.f2p_step, dock.p2p_step) == (local.f2p_step, local.p2p_step), (task, model)
        if model == "replay":
            assert dock.passed and dock.f2p_step == 1.0, (task, dock.error)
        else:
            assert not dock.passed and dock.f2p_step == 0.0, task
            assert dock.rounds[-1].f2p.passed == 0, task  # noop fails every F2P test


def test_docker_runs_ran_in_containers(
    smoke_both: tuple[list[tuple[dict[str, Any], Verdict]], set[str]],
) -> None:
    runs, started = smoke_both
    n_docker = sum(1 for spec, _ in runs if spec["sandbox"]["kind"] == "docker")
    assert n_docker == 2 * len(SMOKE)
    # the agent, F2P and P2P grading: at least three containers per docker run (and setup
    # for a task with a setup script)
    assert len(started) >= 3 * n_docker, sorted(started)
    assert all(name.startswith("realcli-") for name in started)


@pytest.mark.gui
def test_hybrid_task_passes_in_containers(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> None:
    tmp = tmp_path_factory.mktemp("docker-hybrid")
    since = int(time.time()) - 1
    args = ["run", "sandbox=docker", f"task={LIGHTSOUT}", "model=replay", "mode=hybrid"]
    proc = run_realcli(args, env_for(tmp, cache_dir), tmp, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ((spec, verdict),) = _runs(tmp / "runs")
    assert spec["sandbox"]["kind"] == "docker" and spec["mode"]["name"] == "hybrid"
    assert verdict.passed and verdict.f2p_step == 1.0, (verdict.status, verdict.error)
    assert len(_containers_started(since)) >= 3
