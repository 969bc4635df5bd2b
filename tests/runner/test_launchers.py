"""Sweeps beyond one machine, with the launchers' local executors (acceptance d of issue 13):
``hydra/launcher=submitit_local`` (submitit's local executor: one process per job) and
``hydra/launcher=ray`` (a local Ray cluster from ``ray start --head`` on loopback) each run a
4-run sweep into one shared runs dir while a second, identical sweep is started at the same
time: every run is executed exactly once (duplicates nothing), every run has its verdict
(loses nothing), and each sweep's own progress and summary account for all four runs, the
other sweep's included (read back through the shared run store)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from realcli.ledger import read_ledger
from realcli.runner.app import CONF_DIR
from realcli.schema.verdict import Verdict
from tests.conftest import REALCLI, env_for

pytestmark = [pytest.mark.sandbox, pytest.mark.slow, pytest.mark.xdist_group("launchers")]

SEEDS = (1, 2, 3, 4)
TASK = "smoke-bugfix-intervals"


def _sweep_args(launcher: str, experiment: str) -> list[str]:
    return [
        "run",
        "--multirun",
        f"hydra/launcher={launcher}",
        "model=noop",
        f"task={TASK}",
        f"seed={','.join(map(str, SEEDS))}",
        f"experiment_name={experiment}",
    ]


def _two_sweeps_at_once(
    args: list[str], env: dict[str, str], cwd: Path, timeout: float = 240
) -> list[tuple[int, str, str]]:
    """The same sweep started twice at the same instant; ``(exit code, stdout, stderr)``."""
    procs = [
        subprocess.Popen(
            [*REALCLI, *args],
            env=env,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    out = []
    for proc in procs:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            raise
        out.append((proc.returncode, stdout, stderr))
    return out


def _check_shared_store(runs: Path, experiment: str, results: list[tuple[int, str, str]]) -> None:
    for code, stdout, stderr in results:
        assert code == 0, (stdout[-2000:], stderr[-3000:])
    store = runs / experiment
    run_dirs = sorted(p for p in store.iterdir() if p.is_dir() and not p.name.startswith("."))
    assert len(run_dirs) == len(SEEDS)  # one folder per run: nothing lost, nothing twice
    for run_dir in run_dirs:
        verdict = Verdict.model_validate_json((run_dir / "verdict.json").read_text())
        assert verdict.status.value == "graded", verdict.error
        assert verdict.f2p_step == 0 and not verdict.passed  # noop fails every F2P test
        kinds = [e.kind for e in read_ledger(run_dir / "ledger.jsonl").events]
        assert kinds.count("round_start") == 1 and kinds.count("run_end") == 1, kinds
    finished = [
        line.split()[1]
        for _, stdout, _ in results
        for line in stdout.splitlines()
        if line.startswith("finished ")
    ]
    # each run executed once, by one of the two sweeps
    assert sorted(finished) == [p.name for p in run_dirs]
    for _, stdout, _ in results:
        # each summary counts the four runs, the other sweep's as skipped (seen in the store)
        total = next(line for line in stdout.splitlines() if line.startswith("| total"))
        cells = [c.strip() for c in total.strip("|").split("|")]
        runs_n, passed, failed, errors = (int(c) for c in cells[5:9])
        assert (runs_n, passed, failed, errors) == (len(SEEDS), 0, len(SEEDS), 0), total
        assert re.search(rf"^\[{len(SEEDS)}/{len(SEEDS)}\] done", stdout, re.M), stdout[-2000:]
        assert "not finished when this one ended" not in stdout
    assert not list((runs / ".locks").glob("*.lease"))  # every lock released


def test_submitit_local_two_identical_sweeps_share_one_store(
    tmp_path: Path, cache_dir: Path
) -> None:
    env = env_for(tmp_path, cache_dir)
    results = _two_sweeps_at_once(_sweep_args("submitit_local", "submitit"), env, tmp_path)
    _check_shared_store(tmp_path / "runs", "submitit", results)
    # the jobs ran in submitit's own processes (its log folders), not in the sweep's parent
    assert list((tmp_path / "runs" / ".hydra" / "multirun" / ".submitit").glob("*/*_log.out"))


def test_ray_two_identical_sweeps_share_one_store(tmp_path: Path, cache_dir: Path) -> None:
    """Both sweeps with ``hydra/launcher=ray`` (each starts a local Ray instance with
    ``ray.init()``, as the launcher does by default: two Ray instances, one run store)."""
    env = env_for(tmp_path, cache_dir)
    env.pop("RAY_ADDRESS", None)
    results = _two_sweeps_at_once(_sweep_args("ray", "ray"), env, tmp_path)
    _check_shared_store(tmp_path / "runs", "ray", results)
    for _, _, stderr in results:  # each its own instance, on loopback only
        assert "Started a local Ray instance" in stderr
        hosts = re.findall(r"https?://([0-9.]+):\d+", stderr)
        assert set(hosts) <= {"127.0.0.1"}, hosts  # anything it serves is on loopback
        assert "View the dashboard" not in stderr  # realcli starts it without one


def test_slurm_and_ray_cluster_example_configs_compose() -> None:
    """The SLURM and Ray-cluster example launcher files (docs/cluster.md) compose onto the
    plugins' schemas, with the keys the docs explain."""
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        slurm = compose(
            config_name="config",
            overrides=["hydra/launcher=slurm", "hydra.launcher.partition=cpu"],
            return_hydra_config=True,
        ).hydra.launcher
        ray = compose(
            config_name="config", overrides=["hydra/launcher=ray_cluster"], return_hydra_config=True
        ).hydra.launcher
    assert slurm._target_.endswith("SlurmLauncher")
    assert (slurm.partition, slurm.timeout_min, slurm.cpus_per_task, slurm.mem_gb) == (
        "cpu",
        240,
        4,
        16,
    )
    assert ray._target_.endswith("RayLauncher") and ray.ray.init.address == "auto"
