"""Acceptance: the offline sweep end to end, idempotent reruns, SIGKILL mid-sweep and resume,
ingest idempotency, and no API key in any file realcli writes."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import pytest

from realcli.ledger import read_ledger
from realcli.schema.verdict import Verdict
from tests.conftest import REALCLI, env_for, run_lines, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

N_SMOKE = 4
FAKE_KEYS = {
    "OPENAI_API_KEY": "sk-realclitest-0123456789abcdefghijklmnopqrstuv",
    "ANTHROPIC_API_KEY": "sk-ant-realclitest-abcdefghijklmnopqrstuvwxyz0123",
}


def _verdicts(runs: Path) -> dict[str, Verdict]:
    verdicts = {
        p.parent.name: Verdict.model_validate_json(p.read_text())
        for p in runs.glob("*/*/verdict.json")
    }
    # honest runs (replay and noop) never trip the grading guard
    assert not [v.task_id for v in verdicts.values() if v.tampered]
    return verdicts


def _ledger_mtimes(runs: Path) -> dict[Path, float]:
    return {p: p.stat().st_mtime for p in runs.glob("*/*/ledger.jsonl")}


@pytest.fixture(scope="module")
def sweep(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> tuple[Path, dict[str, str], float, str]:
    """The acceptance sweep: model=replay,noop × seed=1,2 with the joblib launcher, keys set."""
    tmp = tmp_path_factory.mktemp("sweep")
    env = {**env_for(tmp, cache_dir), **FAKE_KEYS}
    args = ["run", "--multirun", "model=replay,noop", "seed=1,2", "hydra/launcher=joblib"]
    started = time.monotonic()
    proc = run_realcli(args, env, tmp)
    elapsed = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr[-3000:]
    return tmp, env, elapsed, proc.stdout


def test_sweep_runs_every_combination_with_the_offline_gates(
    sweep: tuple[Path, dict[str, str], float, str],
) -> None:
    tmp, _, _, stdout = sweep
    verdicts = _verdicts(tmp / "runs")
    assert len(verdicts) == 2 * 2 * N_SMOKE
    for key, verdict in verdicts.items():
        header = read_ledger(tmp / "runs" / "default" / key / "ledger.jsonl").header
        model = header.spec["model"]["name"]
        assert verdict.status.value == "graded", (key, verdict.error)
        if model == "replay":
            assert verdict.passed, (key, verdict.task_id)
        else:
            assert verdict.f2p_step == 0 and not verdict.f2p_pass, (key, verdict.task_id)
            assert verdict.p2p_pass, (key, verdict.task_id)
    assert run_lines(stdout, "finished") == 2 * 2 * N_SMOKE


def test_rerun_skips_every_finished_run(sweep: tuple[Path, dict[str, str], float, str]) -> None:
    tmp, env, _, _ = sweep
    before = _ledger_mtimes(tmp / "runs")
    proc = run_realcli(
        ["run", "--multirun", "model=replay,noop", "seed=1,2", "hydra/launcher=joblib"], env, tmp
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert run_lines(proc.stdout, "skipped") == 2 * 2 * N_SMOKE
    assert run_lines(proc.stdout, "finished") == 0
    assert _ledger_mtimes(tmp / "runs") == before  # no run touched, so no sandbox started


def test_ingest_twice_and_report_without_secrets(
    sweep: tuple[Path, dict[str, str], float, str],
) -> None:
    tmp, env, _, _ = sweep
    for _ in range(2):
        proc = run_realcli(["ingest"], env, tmp)
        assert proc.returncode == 0, proc.stderr
    con = duckdb.connect(str(tmp / "warehouse.duckdb"), read_only=True)
    try:
        counts = {
            t: con.execute(f"select count(*) from {t}").fetchone()[0]  # type: ignore[index]
            for t in ("runs", "test_results", "substep_results", "events")
        }
    finally:
        con.close()
    assert counts["runs"] == len(list((tmp / "runs").glob("*/*/ledger.jsonl")))
    proc = run_realcli(["ingest"], env, tmp)
    assert "0 loaded" in proc.stdout
    proc = run_realcli(["report"], env, tmp)
    assert proc.returncode == 0, proc.stderr
    assert (tmp / "report" / "index.html").is_file()
    for path in [*tmp.rglob("*")]:
        if path.is_file():
            data = path.read_bytes()
            for secret in FAKE_KEYS.values():
                assert secret.encode() not in data, f"{secret[:8]}… leaked into {path}"


def test_sigkill_mid_sweep_then_resume_finishes_each_run_once(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    env = realcli_env
    args = ["run", "--multirun", "model=replay,noop", "seed=7", "hydra/launcher=joblib"]
    proc = subprocess.Popen(
        [*REALCLI, *args],
        env=env,
        cwd=tmp_path,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(_verdicts(tmp_path / "runs")) < 2:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_with = len(_verdicts(tmp_path / "runs"))
    assert 2 <= killed_with < 2 * N_SMOKE, "the kill must land mid-sweep"
    time.sleep(1)  # sandboxes die with their parent (--die-with-parent)

    resumed = run_realcli(args, env, tmp_path)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert run_lines(resumed.stdout, "skipped") == killed_with
    verdicts = _verdicts(tmp_path / "runs")
    assert len(verdicts) == 2 * N_SMOKE
    run_dirs = [p for p in (tmp_path / "runs").glob("*/*") if not p.parent.name.startswith(".")]
    assert len(run_dirs) == 2 * N_SMOKE
    for run_dir in run_dirs:
        ledger = read_ledger(run_dir / "ledger.jsonl")
        assert ledger.complete, ledger.problems
        kinds = [e.kind for e in ledger.events]
        assert kinds.count("run_end") == 1 and "header" not in kinds

    for _ in range(2):
        assert run_realcli(["ingest"], env, tmp_path).returncode == 0
    con = duckdb.connect(str(tmp_path / "warehouse.duckdb"), read_only=True)
    try:
        rows = con.execute("select count(*), count(distinct run_key) from runs").fetchone()
    finally:
        con.close()
    assert rows == (2 * N_SMOKE, 2 * N_SMOKE)
