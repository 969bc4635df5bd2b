"""Per-run overhead of ``realcli run model=noop`` over the smoke suite, against a hand-run floor.

    python bench/overhead.py --out docs/benchmarks.md [--repeat N]

For every smoke task, side by side and interleaved (so machine noise hits all alike), N times:

* **floor**: what a person would do by hand for the same work, no sandbox::

      cp -r environment/repo $tmp/ws && cp -r tests $tmp/ws/.realcli_tests && cd $tmp/ws
      python -m pytest .realcli_tests/f2p; python -m pytest .realcli_tests/p2p

* **realcli, in-process**: ``execute_run`` for a RunSpec composed like ``realcli run
  model=noop`` does (Hydra compose + ``spec_from_cfg``), in a fresh runs dir (nothing skipped),
  once with realcli's caches filled (steady state) and once with empty ones (a task's first
  run, which computes its expected-test inventory);
* **realcli, CLI**: ``realcli run model=noop task=<id>`` as a subprocess, fresh runs dir,
  caches filled. Every path (runs, cache, warehouse, report) is a temporary directory.

Once per repetition, the whole suite through the CLI (``realcli run model=noop``), then the
same command again (every run skipped): the rerun case. Then micro-measurements that explain
where the time goes (bwrap start, Python and pytest start in and out of the sandbox, copies).

ratio = realcli run wall time / floor wall time, per task (median over the N paired
repetitions); overhead = realcli wall - floor wall. The noop agent does no work, so its "own
time" is zero and the whole agent session (sandbox, gateway, agent start) counts as overhead;
the tests' own time is the floor's pytest time. Raw results go to ``bench/out/`` (gitignored);
the Markdown section replaces the part of ``--out`` between the markers below.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import math
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "bench" / "out"
BEGIN = "<!-- bench/overhead.py:begin (generated: edit bench/overhead.py, not this part) -->"
END = "<!-- bench/overhead.py:end -->"
TARGET_RATIO = 1.3
TARGET_RERUN = 0.10
TESTS_MOUNT = ".realcli_tests"
PYTHON = str(Path(sys.prefix) / "bin" / "python")  # what `python` is inside the sandbox too
REALCLI = str(Path(sys.prefix) / "bin" / "realcli")


# --------------------------------------------------------------------------- small helpers
def median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else math.nan


def geomean(xs: Sequence[float]) -> float:
    return math.exp(statistics.fmean(math.log(x) for x in xs)) if xs else math.nan


def run_quiet(argv: Sequence[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, check=False, **kw)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def ts(value: str) -> float:
    """A ledger timestamp (ISO 8601, UTC) as POSIX seconds."""
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


@contextlib.contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def machine() -> dict[str, Any]:
    sha = run_quiet(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT).stdout.strip()
    status = run_quiet(["git", "status", "--porcelain"], cwd=ROOT).stdout.splitlines()
    ours = ("bench/", "docs/benchmarks.md")  # this benchmark's own files do not count
    dirty = [line[3:] for line in status if not line[3:].startswith(ours)]
    bwrap = run_quiet(["bwrap", "--version"]).stdout.strip()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "git_sha": sha + (f" (+ uncommitted changes in {len(dirty)} files)" if dirty else ""),
        "dirty_files": dirty,
        "bwrap": bwrap,
        "loadavg_start": os.getloadavg(),
    }


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


# --------------------------------------------------------------------------- micro-measurements
def grading_argv(tests_dir: Path, workdir: str, junit: str) -> list[str]:
    """realcli's pytest command line for the f2p set (its own helper when it has one)."""
    try:
        from realcli.grading.testrun import pytest_argv
    except ImportError:
        return [
            "python", "-m", "pytest", "-p", "no:cacheprovider", "-o", "junit_family=xunit1",
            "-o", "console_output_style=classic", junit, "-q", "--color=no",
            "--continue-on-collection-errors", f"{TESTS_MOUNT}/f2p",
        ]  # fmt: skip
    return list(pytest_argv(tests_dir, "f2p", workdir, [junit]))


def add_inventory(
    add: Callable[[str, str, Callable[[], object]], None], task: Any, tmp: Path
) -> None:
    """The expected-test inventory a task's first run in a runs dir computes, and its parts
    (skipped when this realcli has no such step)."""
    from functools import partial

    try:
        from realcli.grading.testrun import collect_test_ids
        from realcli.runner.inventory import expected_tests
        from realcli.runner.workspace import apply_reference, prepare_workspace, sandbox_options
        from realcli.sandbox import make_sandbox
    except ImportError:
        return
    make = partial(make_sandbox, "local")
    n_shell = sum(type(a).__name__ == "ShellAction" for a in task.reference_actions())

    def whole() -> None:
        with scratch("bench-inv-") as d:
            expected_tests(task, make, d)

    def replay() -> None:
        with scratch("bench-inv-") as d:
            prepare_workspace(task, d / "ws", make)
            apply_reference(task, d / "ws", make)

    ref_ws = tmp / "reference"
    prepare_workspace(task, ref_ws, make)
    apply_reference(task, ref_ws, make)

    def collect() -> None:
        collect_test_ids(
            tests_dir=task.tests_dir, test_set="f2p", workspace=ref_ws,
            options=sandbox_options(task, ref_ws), make_sandbox=make,
            timeout_s=task.spec.timeouts.tests_s,
        )  # fmt: skip

    add("inventory", "expected_tests(), no cache: the whole first-run step", whole)
    add("inventory", f"prepare_workspace + apply_reference ({n_shell} shell actions)", replay)
    add("inventory", "collect_test_ids(f2p): sandboxed pytest --collect-only", collect)


def micro(suite: Suite, n: int) -> list[dict[str, Any]]:
    """hyperfine-style: one warm-up each, then ``n`` timed rounds; the variants of a group
    run round-robin (host and sandbox alternate), so load from other jobs hits them alike."""
    from realcli.gateway import Gateway
    from realcli.gateway.backends import NoopBackend
    from realcli.harness.builtin import AGENT_SCRIPT
    from realcli.sandbox import LocalSandbox, SandboxOptions
    from realcli.sandbox.local import INSIDE_SCRIPT

    items: list[tuple[str, str, Callable[[], object]]] = []

    def add(group: str, name: str, fn: Callable[[], object]) -> None:
        items.append((group, name, fn))

    task = max(suite.tasks, key=lambda t: sum(1 for _ in t.tests_dir.rglob("test_*.py")))
    with scratch("bench-micro-") as tmp:
        ws = tmp / "ws"
        shutil.copytree(task.repo_dir, ws, symlinks=True)
        shutil.copytree(task.tests_dir, ws / TESTS_MOUNT)
        res = task.spec.resources
        opts = SandboxOptions(
            workspace=ws, workdir=task.spec.workdir, memory_mb=res.memory_mb,
            cpu_seconds=res.cpu_seconds, max_file_mb=res.max_file_mb,
        )  # fmt: skip
        sb = LocalSandbox(opts)
        bwrap = shutil.which("bwrap") or "/usr/bin/bwrap"
        full = sb.bwrap_options()

        def sbx(argv: list[str], s: Any = sb) -> Callable[[], object]:
            def go() -> None:
                r = s.exec(argv, timeout_s=120)
                if r.returncode not in (0, 1):
                    raise RuntimeError(f"sandboxed {argv} failed: {r.stdout}{r.stderr}")

            return go

        def host(argv: list[str], **kw: Any) -> Callable[[], object]:
            return lambda: run_quiet(argv, **kw)

        add("bwrap", "host: `true` (process spawn, no sandbox)", host(["true"]))
        add("bwrap", "bwrap --ro-bind / / true", host([bwrap, "--ro-bind", "/", "/", "true"]))
        add(
            "bwrap", "bwrap --ro-bind / / --unshare-all true",
            host([bwrap, "--ro-bind", "/", "/", "--unshare-all", "true"]),
        )  # fmt: skip
        add("bwrap", "bwrap <realcli's options> true", host([bwrap, *full, "true"]))
        add("bwrap", "LocalSandbox.exec(['true'])  (realcli's path)", sbx(["true"]))

        add("python", "host: venv python -c pass", host([PYTHON, "-c", "pass"]))
        add("python", "sandbox: venv python -c pass", sbx(["python", "-c", "pass"]))
        sys_py = ["/usr/bin/python3", "-I", "-S", "-c", "pass"]
        add("python", "host: /usr/bin/python3 -I -S -c pass", host(sys_py))
        add("python", "sandbox: /usr/bin/python3 -I -S -c pass", sbx(sys_py))
        imp = ["-c", "import pytest"]
        add("python", "host: venv python -c 'import pytest'", host([PYTHON, *imp]))
        add("python", "sandbox: venv python -c 'import pytest'", sbx(["python", *imp]))

        plain = [PYTHON, "-m", "pytest", f"{TESTS_MOUNT}/f2p"]
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        add("pytest", f"host: floor `pytest f2p` ({task.id})", host(plain, cwd=ws, env=env))
        junit = ws / ".realcli_out" / "f2p.xml"
        junit.parent.mkdir()
        workdir = task.spec.workdir
        host_argv = grading_argv(task.tests_dir, str(ws), f"--junitxml={junit}")
        host_argv = [PYTHON if a == "python" else a for a in host_argv]
        add("pytest", "host: realcli's grading pytest command", host(host_argv, cwd=ws, env=env))
        inside = grading_argv(task.tests_dir, workdir, f"--junitxml={workdir}/.realcli_out/f.xml")
        graded = sb.with_options(env={"PYTHONDONTWRITEBYTECODE": "1"})
        add("pytest", "sandbox: the same, as realcli grades", sbx(inside, graded))

        agent = ["/usr/bin/python3", "-I", str(AGENT_SCRIPT), "--help"]
        add("agent", "host: builtin_agent.py --help (its imports)", host(agent))
        agent_sb = sb.with_ro_binds((AGENT_SCRIPT, "/run/realcli/agent.py"))
        agent_in = ["/usr/bin/python3", "-I", "/run/realcli/agent.py", "--help"]
        add("agent", "sandbox: builtin_agent.py --help", sbx(agent_in, agent_sb))
        launcher = ["/usr/bin/python3", "-I", "-S", str(INSIDE_SCRIPT), "--help"]
        add("agent", "host: gateway launcher inside.py --help (its imports)", host(launcher))
        launcher_sb = sb.with_ro_binds((INSIDE_SCRIPT, "/run/realcli/inside.py"))
        launcher_in = ["/usr/bin/python3", "-I", "-S", "/run/realcli/inside.py", "--help"]
        add("agent", "sandbox: inside.py --help", sbx(launcher_in, launcher_sb))

        def gateway() -> None:
            with scratch("bench-gw-") as d, Gateway(NoopBackend(), lambda _e: None) as gw:
                gw.start(d / "gw.sock")

        add("agent", "Gateway start + stop (in-process, no call)", gateway)

        copy_to = tmp / "copy"

        def cp_r() -> None:
            shutil.rmtree(copy_to, ignore_errors=True)
            run_quiet(["cp", "-r", str(ws), str(copy_to)])

        def copytree() -> None:
            shutil.rmtree(copy_to, ignore_errors=True)
            shutil.copytree(ws, copy_to, symlinks=True)

        n_files = sum(1 for p in ws.rglob("*") if p.is_file())
        add("copy", f"cp -r workspace ({n_files} files) + rm", cp_r)
        add("copy", "shutil.copytree workspace + rm", copytree)
        add("realcli", "git rev-parse HEAD (once per run)", host(["git", "rev-parse", "HEAD"]))
        add("realcli", "realcli --version", host([REALCLI, "--version"]))
        add(
            "realcli", "python -c 'import realcli.runner.app' (Hydra etc.)",
            host([PYTHON, "-c", "import realcli.runner.app, realcli.runner.execute"]),
        )  # fmt: skip

        add_inventory(add, task, tmp)

        rows: list[dict[str, Any]] = []
        for group in dict.fromkeys(g for g, _, _ in items):
            members = [(name, fn) for g, name, fn in items if g == group]
            times: dict[str, list[float]] = {name: [] for name, _ in members}
            for _, fn in members:
                fn()  # warm-up
            for _ in range(n):
                for name, fn in members:
                    times[name].append(timed(fn))
            for name, xs in times.items():
                rows.append(
                    {"group": group, "name": name, "median_s": median(xs), "min_s": min(xs)}
                )
                print(f"  {group:8s} {name:60s} {median(xs) * 1000:8.1f} ms", flush=True)
    return rows


# --------------------------------------------------------------------------- the benchmark
WAYS = ("floor", "warm", "cold", "cli")
"""floor; in-process run with realcli's caches filled (steady state) and empty (a task's
first run); one-task CLI command (caches filled). Every run gets a fresh runs dir."""


def bench(suite: Suite, repeat: int, warmup: int) -> dict[str, Any]:
    ways: dict[str, Callable[[Any], dict[str, Any]]] = {
        "floor": suite.floor,
        "warm": lambda t: suite.in_process(t, warm=True),
        "cold": lambda t: suite.in_process(t, warm=False),
        "cli": lambda t: suite.cli_task(t, warm=True),
    }
    per_task: dict[str, dict[str, list[dict[str, Any]]]] = {
        t.id: {w: [] for w in WAYS} for t in suite.tasks
    }
    suite_runs: list[dict[str, Any]] = []
    parts: dict[str, Callable[[], dict[str, Any]]] = {
        "floor": lambda: {"floor_s": timed(lambda: [suite.floor(t) for t in suite.tasks])},
        "cold": lambda: {f"cold_{k}": v for k, v in suite.cli_suite(warm=False).items()},
        "warm": lambda: {f"warm_{k}": v for k, v in suite.cli_suite(warm=True).items()},
    }
    for rep in range(warmup + repeat):
        kept = rep >= warmup
        label = f"rep {rep - warmup + 1}/{repeat}" if kept else f"warm-up {rep + 1}/{warmup}"
        for i, task in enumerate(suite.tasks):
            shift = (rep + i) % len(WAYS)  # rotate the order so no way is always first
            for way in WAYS[shift:] + WAYS[:shift]:
                result = ways[way](task)
                if kept:
                    per_task[task.id][way].append(result)
                print(f"{label}  {task.id:26s} {way:6s} {result['wall_s']:6.2f}s", flush=True)
        # The whole suite through the CLI, next to the floor over the whole suite (rotating).
        suite_result: dict[str, Any] = {}
        order = list(parts)
        for part in order[rep % 3 :] + order[: rep % 3]:
            suite_result.update(parts[part]())
        if kept:
            suite_runs.append(suite_result)
        print(
            f"{label}  suite: floor {suite_result['floor_s']:.2f}s,"
            f" CLI fresh {suite_result['cold_first_s']:.2f}s"
            f" (rerun {suite_result['cold_rerun_s']:.2f}s),"
            f" CLI caches filled {suite_result['warm_first_s']:.2f}s",
            flush=True,
        )
    return {"per_task": per_task, "suite": suite_runs}


def paired(xs: Sequence[float], ys: Sequence[float], op: Callable[[float, float], float]) -> float:
    return median([op(x, y) for x, y in zip(xs, ys, strict=True)])


def task_summary(task_id: str, by_way: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    wall = {w: [r["wall_s"] for r in by_way[w]] for w in WAYS}
    floor = wall["floor"]

    def ratio(way: str) -> float:
        return paired(wall[way], floor, lambda a, b: a / b)

    def phase_medians(way: str) -> dict[str, float]:
        keys = by_way[way][0]["phases"]
        return {k: median([r["phases"][k] for r in by_way[way]]) for k in keys}

    warm, cold = phase_medians("warm"), phase_medians("cold")
    return {
        "task": task_id,
        **{f"{w}_s": median(wall[w]) for w in WAYS},
        "overhead_warm_s": paired(wall["warm"], floor, lambda a, b: a - b),
        "overhead_cold_s": paired(wall["cold"], floor, lambda a, b: a - b),
        "ratio_warm": ratio("warm"),
        "ratio_cold": ratio("cold"),
        "ratio_cli": ratio("cli"),
        "ratio_warm_of_minima": min(wall["warm"]) / min(floor),
        "cli_startup_s": median([r["wall_s"] - r["run_wall_s"] for r in by_way["cli"]]),
        "floor_parts": {
            k: median([r[k] for r in by_way["floor"]]) for k in ("copy_s", "f2p_s", "p2p_s")
        },
        "phases_warm": warm,
        "phases_cold": cold,
        "first_run_extra_s": cold["prep"] - warm["prep"],
    }


def summarise(raw: dict[str, Any]) -> dict[str, Any]:
    rows = [task_summary(task_id, by_way) for task_id, by_way in raw["per_task"].items()]
    out: dict[str, Any] = {"rows": rows}
    for key in ("ratio_warm", "ratio_cold", "ratio_cli", "ratio_warm_of_minima"):
        out[f"{key}_geomean"] = geomean([r[key] for r in rows])
        out[f"{key}_max"] = max(r[key] for r in rows)
    suite = {k: [run[k] for run in raw["suite"]] for k in raw["suite"][0]}
    out["suite"] = {k: median(v) for k, v in suite.items()}
    out["suite"]["cold_ratio"] = paired(suite["cold_first_s"], suite["floor_s"], lambda a, b: a / b)
    out["suite"]["warm_ratio"] = paired(suite["warm_first_s"], suite["floor_s"], lambda a, b: a / b)
    for kind in ("cold", "warm"):
        out["suite"][f"{kind}_rerun_fraction"] = paired(
            suite[f"{kind}_rerun_s"], suite[f"{kind}_first_s"], lambda a, b: a / b
        )
    return out


# --------------------------------------------------------------------------- Markdown
def ms(x: float) -> str:
    return f"{x * 1000:.0f}"


def verdict_word(ok: bool) -> str:
    return "**meets**" if ok else "**misses**"


def pct(v: float) -> str:
    return f"{v * 100:.1f}%"


def x(v: float) -> str:
    return f"{v:.2f}×"


def markdown(info: dict[str, Any], s: dict[str, Any], micro_rows: list[dict[str, Any]]) -> str:
    rows = s["rows"]
    su = s["suite"]
    sha = info["git_sha"]
    if info["git_sha_end"] != sha:
        sha += f" at the start, {info['git_sha_end']} at the end: the code changed during the run!"
    out = [
        BEGIN,
        "",
        "## Results",
        "",
        f"- Machine: {info['nproc']} CPUs, Python {info['python']}, {info['platform']},"
        f" {info['bwrap']}",
        f"- Date: {info['date']}; git {sha}",
        f"- Load average at start / end: {fmt_load(info['loadavg_start'])} /"
        f" {fmt_load(info['loadavg_end'])} (the machine was {busy(info)})",
        f"- Command: `{info['command']}` ({info['repeat']} repetitions after {info['warmup']}"
        f" warm-up, {info['micro_n']} per micro-measurement; took"
        f" {info['elapsed_s'] / 60:.1f} min)",
        f"- Raw results: `{info['raw_json']}`",
        "",
        "### Per-run overhead against the floor (model=noop)",
        "",
        "| task | floor s | realcli run s | overhead s | **ratio** | caches empty: run s"
        " | ratio | CLI command s | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['task']} | {r['floor_s']:.2f} | {r['warm_s']:.2f} | {r['overhead_warm_s']:.2f}"
            f" | **{x(r['ratio_warm'])}** | {r['cold_s']:.2f} | {x(r['ratio_cold'])}"
            f" | {r['cli_s']:.2f} | {x(r['ratio_cli'])} |"
        )
    out += [
        f"| **geometric mean** | | | | **{x(s['ratio_warm_geomean'])}** | |"
        f" {x(s['ratio_cold_geomean'])} | | {x(s['ratio_cli_geomean'])} |",
        f"| **max** | | | | **{x(s['ratio_warm_max'])}** | | {x(s['ratio_cold_max'])} | |"
        f" {x(s['ratio_cli_max'])} |",
        "",
        "Seconds are medians over the repetitions; *overhead* and the ratios are medians of the"
        " paired per-repetition values, so they need not match the seconds columns exactly."
        " *realcli run*: in-process `execute_run` in a fresh runs dir, realcli's caches filled"
        " (every run of a task version after its first on a machine); *caches empty*: the"
        " same with an empty `paths.cache_dir` (a task version's first run, which computes"
        " its expected-test inventory); *CLI command*:"
        " `realcli run model=noop task=<id>` as a new process, caches filled.",
        "",
        f"**Target: at most {TARGET_RATIO}×.**",
        "",
        f"- realcli run (steady state): {verdict_word(s['ratio_warm_max'] <= TARGET_RATIO)}:"
        f" geometric mean {x(s['ratio_warm_geomean'])}, worst task {x(s['ratio_warm_max'])}"
        f" (ratio of minima {x(s['ratio_warm_of_minima_geomean'])}).",
        f"- a task version's first run (caches empty):"
        f" {verdict_word(s['ratio_cold_max'] <= TARGET_RATIO)}: geometric mean"
        f" {x(s['ratio_cold_geomean'])}, worst {x(s['ratio_cold_max'])}; it costs"
        f" {statistics.fmean(r['first_run_extra_s'] for r in rows):.2f} s more per task"
        " (between the header and `round_start`: see the breakdown).",
        f"- one-task CLI command: {verdict_word(s['ratio_cli_max'] <= TARGET_RATIO)}:"
        f" geometric mean {x(s['ratio_cli_geomean'])}, worst {x(s['ratio_cli_max'])}; a new"
        " process also pays Python start-up, imports, Hydra compose and the task catalog"
        f" (median {median([r['cli_startup_s'] for r in rows]):.2f} s outside the run).",
        "",
        "### Whole suite through the CLI, and the rerun case",
        "",
        "| | seconds | |",
        "|---|---:|---|",
        f"| floor over the {len(rows)} tasks, back to back | {su['floor_s']:.2f} | |",
        f"| `realcli run model=noop`, fresh runs dir, caches empty | {su['cold_first_s']:.2f} |"
        f" {x(su['cold_ratio'])} the floor |",
        f"| the same command again (every run skipped) | {su['cold_rerun_s']:.2f} |"
        f" {pct(su['cold_rerun_fraction'])} of that first run |",
        f"| `realcli run model=noop`, fresh runs dir, caches filled | {su['warm_first_s']:.2f} |"
        f" {x(su['warm_ratio'])} the floor |",
        f"| the same command again (every run skipped) | {su['warm_rerun_s']:.2f} |"
        f" {pct(su['warm_rerun_fraction'])} of that first run |",
        "",
        f"**The whole suite as one command against the {TARGET_RATIO}× target** (one process"
        " start-up shared by every task): caches filled"
        f" {verdict_word(su['warm_ratio'] <= TARGET_RATIO)} ({su['warm_ratio']:.3f}×), caches"
        f" empty {verdict_word(su['cold_ratio'] <= TARGET_RATIO)} ({su['cold_ratio']:.3f}×).",
        "",
        f"**Rerun target: under {pct(TARGET_RERUN)} of the first run.** Against a first run"
        " with empty caches (a fresh machine):"
        f" {verdict_word(su['cold_rerun_fraction'] < TARGET_RERUN)}"
        f" ({pct(su['cold_rerun_fraction'])}); against a first run with caches filled (any"
        " later experiment over the same task versions):"
        f" {verdict_word(su['warm_rerun_fraction'] < TARGET_RERUN)}"
        f" ({pct(su['warm_rerun_fraction'])}). A rerun is almost entirely process start-up:"
        " Python, imports, Hydra compose, task catalog and digests.",
        "",
        "### Where realcli's time goes (in-process run, caches filled; ms, medians)",
        "",
        "| phase | " + " | ".join(short(r["task"]) for r in rows) + " | mean | floor counterpart |",
        "|---|" + "---:|" * (len(rows) + 1) + "---|",
    ]
    counterpart = {
        "prep": "`cp -r` repo + tests: {copy}",
        "f2p_exec": "`pytest f2p`: {f2p}",
        "p2p_exec": "`pytest p2p`: {p2p}",
    }
    floor_mean = {
        k: statistics.fmean(r["floor_parts"][f"{k}_s"] for r in rows)
        for k in ("copy", "f2p", "p2p")
    }

    def row(label: str, vals: list[float], floor: str, bold: bool = False) -> str:
        cells = [ms(v) for v in vals] + [ms(statistics.fmean(vals))]
        if bold:
            cells = [f"**{c}**" for c in cells]
        return f"| {label} | " + " | ".join(cells) + f" | {floor} |"

    for key, label in PHASES:
        cp = counterpart.get(key, "none (all overhead)").format(
            **{k: ms(v) for k, v in floor_mean.items()}
        )
        out.append(row(label, [r["phases_warm"][key] for r in rows], cp))
    out += [
        row("**run wall time**", [r["warm_s"] for r in rows],
            f"floor: **{ms(statistics.fmean(r['floor_s'] for r in rows))}**", bold=True),
        row("*caches empty (first run): extra time in workspace prep (inventory)*",
            [r["first_run_extra_s"] for r in rows], "none (all overhead)"),
        "",
        "The agent session (the three `agent:` rows; `budget.wall_clock_s` in the ledger) is"
        f" {ms(statistics.fmean(r['phases_warm']['agent_session'] for r in rows))} ms on"
        " average.",
        "",
        "Where the overhead comes from (mean over tasks of the medians, ms; the pytest"
        " difference is within noise when it is small or negative):",
        "",
        "| overhead | ms |",
        "|---|---:|",
        *attribution(rows),
        "",
        "### Micro-measurements (median of " + str(info["micro_n"]) + ", ms)",
        "",
        "| group | what | median ms | min ms |",
        "|---|---|---:|---:|",
    ]  # fmt: skip
    for m in micro_rows:
        out.append(f"| {m['group']} | {m['name']} | {ms(m['median_s'])} | {ms(m['min_s'])} |")
    out += ["", END]
    return "\n".join(out) + "\n"


def attribution(rows: list[dict[str, Any]]) -> list[str]:
    def mean(fn: Callable[[dict[str, Any]], float]) -> float:
        return statistics.fmean(fn(r) for r in rows)

    def ph(r: dict[str, Any], *keys: str) -> float:
        return sum(r["phases_warm"][k] for k in keys)

    def floor_tests(r: dict[str, Any]) -> float:
        return float(r["floor_parts"]["f2p_s"] + r["floor_parts"]["p2p_s"])

    parts = [
        ("agent session (noop: all of it)", mean(lambda r: ph(r, "agent_session"))),
        (
            "sandboxed pytest − plain pytest (f2p + p2p)",
            mean(lambda r: ph(r, "f2p_exec", "p2p_exec") - floor_tests(r)),
        ),
        ("grading copies, JUnit parsing, logs", mean(lambda r: ph(r, "f2p_copy", "p2p_copy"))),
        (
            "workspace prep − the floor's `cp -r`",
            mean(lambda r: ph(r, "prep") - r["floor_parts"]["copy_s"]),
        ),
        ("run setup + verdict/ledger/lock", mean(lambda r: ph(r, "setup", "finish"))),
    ]
    total = mean(lambda r: r["warm_s"] - r["floor_s"])
    lines = [f"| {name} | {ms(v)} |" for name, v in parts]
    lines.append(f"| **realcli run − floor (medians)** | **{ms(total)}** |")
    lines.append(
        "| *+ a task version's first run (caches empty)* |"
        f" *{ms(mean(lambda r: r['first_run_extra_s']))}* |"
    )
    return lines


def short(task_id: str) -> str:
    return task_id.removeprefix("smoke-")


def fmt_load(load: Sequence[float]) -> str:
    return " ".join(f"{x:.2f}" for x in load)


def busy(info: dict[str, Any]) -> str:
    load = max(info["loadavg_start"][0], info["loadavg_end"][0])
    return "busy: other jobs ran meanwhile" if load > 0.75 * info["nproc"] else "mostly idle"


def write_section(path: Path, section: str) -> None:
    """Replace the generated part of ``path`` (between the markers), keeping the rest."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + section + ("\n" + tail if tail else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# --------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, help="Markdown file whose generated section to replace")
    p.add_argument("--repeat", type=int, default=5, help="paired repetitions (default 5)")
    p.add_argument("--warmup", type=int, default=1, help="discarded repetitions (default 1)")
    p.add_argument("--micro", type=int, default=10, help="runs per micro-measurement")
    p.add_argument("--tasks-dir", type=Path, default=ROOT / "tasks")
    p.add_argument(
        "--render", type=Path, metavar="JSON",
        help="measure nothing: re-render the tables from a raw result file of bench/out/",
    )  # fmt: skip
    args = p.parse_args(argv)
    if args.repeat < 1 or args.micro < 1:
        p.error("--repeat and --micro must be at least 1")
    if args.render is not None:
        saved = json.loads(args.render.read_text(encoding="utf-8"))
        section = markdown(saved["info"], summarise(saved["raw"]), saved["micro"])
        print(section)
        if args.out is not None:
            write_section(args.out, section)
            print(f"wrote {args.out}")
        return 0

    started = time.perf_counter()
    info = machine()
    shown = ["python", "bench/overhead.py", *(sys.argv[1:] if argv is None else argv)]
    info.update(command=shlex.join(shown), repeat=args.repeat, warmup=args.warmup)
    info["micro_n"] = args.micro
    suite = Suite(args.tasks_dir.resolve())
    print(f"{len(suite.tasks)} tasks: {', '.join(t.id for t in suite.tasks)}", flush=True)
    try:
        suite.prime()
        raw = bench(suite, args.repeat, args.warmup)
        print("micro-measurements:", flush=True)
        micro_rows = micro(suite, args.micro)
    finally:
        suite.cleanup()
    info["loadavg_end"] = os.getloadavg()
    info["git_sha_end"] = machine()["git_sha"]
    info["elapsed_s"] = time.perf_counter() - started
    summary = summarise(raw)

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    raw_path = OUT_DIR / f"overhead-{stamp}.json"
    info["raw_json"] = str(raw_path.relative_to(ROOT))
    raw_path.write_text(
        json.dumps({"info": info, "summary": summary, "raw": raw, "micro": micro_rows}, indent=2)
        + "\n",
        encoding="utf-8",
    )
    section = markdown(info, summary, micro_rows)
    print()
    print(section)
    if args.out is not None:
        write_section(args.out, section)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
