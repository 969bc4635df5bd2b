"""The ways the overhead benchmark runs a task: the floor, realcli in-process, the CLI."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from overhead_common import PYTHON, REALCLI, TESTS_MOUNT, run_quiet, scratch, ts


# --------------------------------------------------------------------------- the three ways
class Suite:
    """The smoke tasks and a noop RunSpec composed the way ``realcli run model=noop`` does."""

    def __init__(self, tasks_dir: Path) -> None:
        from hydra import compose, initialize_config_dir

        from realcli.catalog import select_tasks
        from realcli.runner.app import CONF_DIR, spec_from_cfg

        self.tasks_dir = tasks_dir
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3", job_name="bench"):
            cfg = compose("config", overrides=["model=noop"])
        self.spec = spec_from_cfg(cfg, {"model": "noop"})
        self.spec = self._with_paths(self.spec, Path(tempfile.gettempdir()) / "unused")
        self.tasks = select_tasks(tasks_dir, self.spec.suite, None)

    def _with_paths(self, spec: Any, runs_dir: Path, cache_dir: Path | None = None) -> Any:
        from realcli.schema.run_spec import PathsSpec

        paths = {
            "tasks_dir": str(self.tasks_dir),
            "runs_dir": str(runs_dir),
            "warehouse": str(runs_dir / "warehouse.duckdb"),
            "report_dir": str(runs_dir / "report"),
            "cache_dir": str(cache_dir or runs_dir / ".bench-cache"),
        }
        fields = PathsSpec.model_fields
        return spec.model_copy(
            update={"paths": PathsSpec(**{k: v for k, v in paths.items() if k in fields})}
        )

    def cli_env(self, runs_dir: Path, cache_dir: Path | None = None) -> dict[str, str]:
        return {
            **os.environ,
            "REALCLI_TASKS_DIR": str(self.tasks_dir),
            "REALCLI_RUNS_DIR": str(runs_dir),
            "REALCLI_WAREHOUSE": str(runs_dir / "warehouse.duckdb"),
            "REALCLI_REPORT_DIR": str(runs_dir / "report"),
            "REALCLI_CACHE_DIR": str(cache_dir or runs_dir / ".bench-cache"),
        }

    # ------------------------------------------------------------------ floor
    def floor(self, task: Any) -> dict[str, Any]:
        """cp the repo and the tests, then two plain pytest invocations (no sandbox)."""
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}  # as realcli's grader sets it
        with scratch("bench-floor-") as tmp:
            ws = tmp / "ws"
            t0 = time.perf_counter()
            cp1 = run_quiet(["cp", "-r", str(task.repo_dir), str(ws)])
            cp2 = run_quiet(["cp", "-r", str(task.tests_dir), str(ws / TESTS_MOUNT)])
            t1 = time.perf_counter()
            f2p = run_quiet([PYTHON, "-m", "pytest", f"{TESTS_MOUNT}/f2p"], cwd=ws, env=env)
            t2 = time.perf_counter()
            p2p = run_quiet([PYTHON, "-m", "pytest", f"{TESTS_MOUNT}/p2p"], cwd=ws, env=env)
            t3 = time.perf_counter()
        if cp1.returncode or cp2.returncode or f2p.returncode not in (0, 1) or p2p.returncode:
            raise RuntimeError(f"floor for {task.id} failed: {f2p.stdout[-500:]}{p2p.stdout}")
        return {"wall_s": t3 - t0, "copy_s": t1 - t0, "f2p_s": t2 - t1, "p2p_s": t3 - t2}

    # ------------------------------------------------------------------ in-process
    def prime(self) -> None:
        """Run every task once so that realcli's caches (the per-machine ``paths.cache_dir``
        and any ``<runs_dir>/.something``, e.g. the expected-test inventory) are filled;
        warm runs start from them, cold runs from empty ones."""
        from realcli.runner.execute import execute_run

        self._cache_home = Path(tempfile.mkdtemp(prefix="bench-cache-"))
        self._runs_seed = Path(tempfile.mkdtemp(prefix="bench-runs-seed-"))
        for task in self.tasks:
            with scratch("bench-prime-") as runs_dir:
                execute_run(self._with_paths(self.spec, runs_dir, self._cache_home), task)
                for entry in runs_dir.iterdir():
                    if entry.name.startswith(".") and entry.name not in (".locks", ".hydra"):
                        shutil.copytree(entry, self._runs_seed / entry.name, dirs_exist_ok=True)

    def cleanup(self) -> None:
        for attr in ("_cache_home", "_runs_seed"):
            if hasattr(self, attr):
                shutil.rmtree(getattr(self, attr), ignore_errors=True)

    def _fill(self, runs_dir: Path, warm: bool) -> Path | None:
        """Fill a fresh runs dir's caches when ``warm``; the cache dir to use (None: empty)."""
        if not warm:
            return None
        shutil.copytree(self._runs_seed, runs_dir, dirs_exist_ok=True)
        return self._cache_home

    def in_process(self, task: Any, *, warm: bool) -> dict[str, Any]:
        from realcli.runner.execute import execute_run

        with scratch("bench-inproc-") as runs_dir:
            spec = self._with_paths(self.spec, runs_dir, self._fill(runs_dir, warm))
            t_call = time.time()
            p0 = time.perf_counter()
            outcome = execute_run(spec, task)
            wall = time.perf_counter() - p0
            t_ret = time.time()
            check_outcome(task.id, outcome.state, outcome.verdict)
            ledger = read_ledger(outcome.run_dir / "ledger.jsonl")
        return {"wall_s": wall, "phases": phases(ledger, t_call, t_ret)}

    # ------------------------------------------------------------------ CLI
    def cli_task(self, task: Any, *, warm: bool) -> dict[str, Any]:
        with scratch("bench-cli-") as runs_dir:
            env = self.cli_env(runs_dir, self._fill(runs_dir, warm))
            argv = [REALCLI, "run", "model=noop", f"task={task.id}"]
            p0 = time.perf_counter()
            proc = run_quiet(argv, env=env, cwd=runs_dir)
            wall = time.perf_counter() - p0
            if proc.returncode or "finished" not in proc.stdout:
                raise RuntimeError(f"{' '.join(argv)} failed: {proc.stdout}{proc.stderr[-800:]}")
            (ledger_path,) = runs_dir.glob("*/*/ledger.jsonl")
            run_wall = read_ledger(ledger_path)[-1]["wall_time_s"]
        return {"wall_s": wall, "run_wall_s": run_wall}

    def cli_suite(self, *, warm: bool) -> dict[str, Any]:
        """``realcli run model=noop`` over the suite in a fresh runs dir, then again (rerun)."""
        with scratch("bench-suite-") as runs_dir:
            env = self.cli_env(runs_dir, self._fill(runs_dir, warm))
            argv = [REALCLI, "run", "model=noop"]
            out: dict[str, Any] = {}
            for name, state in (("first_s", "finished"), ("rerun_s", "skipped")):
                p0 = time.perf_counter()
                proc = run_quiet(argv, env=env, cwd=runs_dir)
                out[name] = time.perf_counter() - p0
                states = [line.split()[0] for line in proc.stdout.splitlines() if line.strip()]
                if proc.returncode or states != [state] * len(self.tasks):
                    raise RuntimeError(f"suite run ({name}) unexpected: {proc.stdout}{proc.stderr}")
        return out


def check_outcome(task_id: str, state: str, verdict: Any) -> None:
    """A noop run must finish graded with every F2P test failing and every P2P test passing."""
    if state != "finished" or verdict is None or verdict.status.value != "graded":
        raise RuntimeError(f"noop run of {task_id}: state={state} verdict={verdict}")
    last = verdict.rounds[-1]
    if last.f2p.passed != 0 or not last.p2p.all_passed:
        raise RuntimeError(f"noop run of {task_id} graded unexpectedly: {last}")


def read_ledger(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


PHASES: tuple[tuple[str, str], ...] = (
    ("setup", "run setup: key, lock, spec.json, git sha, header"),
    ("prep", "workspace prep: copy repo (+ setup.sh), expected-test inventory (cached)"),
    ("agent_launch", "agent: gateway start + harness setup"),
    ("agent_to_call", "agent: bwrap + launcher + agent Python start, to its model call"),
    ("agent_end", "agent: from the model's reply to session end + teardown"),
    ("f2p_copy", "f2p: copy workspace, parse JUnit, write log"),
    ("f2p_exec", "f2p: sandboxed pytest (bwrap + pytest)"),
    ("p2p_copy", "p2p: copy workspace, parse JUnit, write log"),
    ("p2p_exec", "p2p: sandboxed pytest (bwrap + pytest)"),
    ("finish", "verdict.json + run_end + ledger close + lock release"),
)


def phases(ledger: list[dict[str, Any]], t_call: float, t_ret: float) -> dict[str, float]:
    """Split one run's wall time into phases from its ledger timestamps."""
    first: dict[str, dict[str, Any]] = {}
    for ev in ledger:
        key = ev["kind"] if ev["kind"] != "grading" else f"grading.{ev['test_set']}"
        if ev["kind"] == "message":
            key = f"message.{ev['role']}"
        first.setdefault(key, ev)
    t = {k: ts(ev["ts"]) for k, ev in first.items()}
    budget_i = next(i for i, ev in enumerate(ledger) if ev["kind"] == "budget")
    reply = t.get("model_call", ts(ledger[budget_i - 1]["ts"]))
    f2p_exec = first["grading.f2p"]["duration_s"]
    p2p_exec = first["grading.p2p"]["duration_s"]
    return {
        "setup": t["header"] - t_call,
        "prep": t["round_start"] - t["header"],
        "agent_launch": t["message.user"] - t["round_start"],
        "agent_to_call": reply - t["message.user"],
        "agent_end": t["budget"] - reply,
        "agent_session": first["budget"]["wall_clock_s"],
        "f2p_copy": t["grading.f2p"] - t["round_end"] - f2p_exec,
        "f2p_exec": f2p_exec,
        "p2p_copy": t["grading.p2p"] - t["grading.f2p"] - p2p_exec,
        "p2p_exec": p2p_exec,
        "finish": t_ret - t["grading.p2p"],
    }
