"""Shared pieces of the resource-limit tests: a task copy with tight limits, leak checks."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from realcli.ledger import read_ledger
from realcli.sandbox.cgroup import CGROUP_ROOT, PREFIX
from realcli.schema.events import ErrorType
from realcli.schema.verdict import Verdict
from tests.conftest import TASKS, env_for, run_realcli

TASK = "smoke-bugfix-intervals"
MAX_PROCESSES = 64
DISK_MB = 32


def limited_tasks_dir(tmp: Path, **resources: int) -> Path:
    """A tasks dir holding a copy of :data:`TASK` whose ``[resources]`` add ``resources``."""
    tasks = tmp / "tasks"
    shutil.copytree(TASKS / TASK, tasks / TASK, symlinks=True)
    toml = tasks / TASK / "task.toml"
    extra = "".join(f"{k} = {v}\n" for k, v in resources.items())
    toml.write_text(toml.read_text().replace("[resources]\n", f"[resources]\n{extra}", 1))
    return tasks


def write_script(path: Path, *cmds: str) -> Path:
    """A scripted agent: one shell action per command, then a final message."""
    actions: list[dict[str, object]] = [{"action": "shell", "cmd": c} for c in cmds]
    actions.append({"action": "message", "text": "done"})
    path.write_text("".join(json.dumps(a) + "\n" for a in actions))
    return path


def leaked_cgroups() -> list[Path]:
    """realcli cgroups whose creating process is gone (each should have been removed).

    Host-wide: other test workers and other realcli sessions create and remove cgroups while
    this looks (a folder that vanishes mid-walk is skipped: os.walk ignores the error), and the
    next cgroup created anywhere sweeps stale ones. A test compares against the set it saw
    before it started and asserts that nothing NEW leaked."""
    leaked = []
    for base in (CGROUP_ROOT / "pids", CGROUP_ROOT / "memory"):
        for parent, dirs, _ in os.walk(base):
            for name in dirs:
                creator = name[len(PREFIX) :].split("-", 1)[0]
                gone = creator.isdigit() and not Path(f"/proc/{creator}").exists()
                if name.startswith(PREFIX) and gone:
                    leaked.append(Path(parent) / name)
    return leaked


def loop_mounts_under(root: Path) -> list[str]:
    """Mount points below ``root`` (a capped workspace left mounted)."""
    prefix = str(root.resolve())
    lines = Path("/proc/self/mountinfo").read_text().splitlines()
    return [line.split()[4] for line in lines if line.split()[4].startswith(prefix)]


def host_can_fork() -> bool:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return os.waitpid(pid, 0)[1] == 0


def unique_sleep() -> str:
    """A sleep duration no other process on the host has in its argv."""
    return f"{1000 + secrets.randbelow(10**6)}.{secrets.randbelow(10**6):06d}"


def fork_bomb(sleep: str, *, bound: int = 10_000, linger_s: int = 60) -> str:
    """Up to ``bound`` processes, each an exec'd ``sleep`` with a unique argument; prints how
    many it forked, then lingers."""
    code = "\n".join(
        [
            "import os, time",
            "n = 0",
            f"for i in range({bound}):",
            "    try:",
            "        pid = os.fork()",
            "    except OSError:",
            "        break",
            "    if pid == 0:",
            f"        os.execvp('sleep', ['sleep', '{sleep}'])",
            "    n += 1",
            "print('forked', n, flush=True)",
            f"time.sleep({linger_s})",
        ]
    )
    return f'python3 -c "{code}"'


DISK_FILL = "for i in 1 2 3 4 5 6 7 8; do head -c 20000000 /dev/zero > fill$i.bin; done; sleep 60"
"""160 MB in 20 MB files (each under max_file_mb), then lingers: only the disk cap stops it."""


@dataclass(frozen=True)
class SweepRun:
    run_dir: Path
    verdict: Verdict
    events: list[Any]

    def errors(self, error_type: ErrorType | None = None) -> list[Any]:
        return [
            e
            for e in self.events
            if e.kind == "error" and (error_type is None or e.error_type == error_type)
        ]


@dataclass(frozen=True)
class LimitsSweep:
    """One 3-job sweep (side by side) over a task copy with tight limits: a fork bomb, a disk
    filler and the reference solution played as a scripted agent."""

    tmp: Path
    tasks: Path
    runs: dict[str, SweepRun]
    sleep: str
    leaked_before: frozenset[Path]
    wall_s: float


def run_limits_sweep(tmp: Path, cache_dir: Path) -> LimitsSweep:
    sleep = unique_sleep()
    before = frozenset(leaked_cgroups())
    tasks = limited_tasks_dir(tmp, max_processes=MAX_PROCESSES, disk_mb=DISK_MB)
    bomb = write_script(tmp / "bomb.jsonl", fork_bomb(sleep))
    fill = write_script(tmp / "fill.jsonl", DISK_FILL)
    honest = tasks / TASK / "solution" / "trajectory.jsonl"  # the reference, as an agent
    env = {**env_for(tmp, cache_dir), "REALCLI_TASKS_DIR": str(tasks)}
    scripts = ",".join(str(p) for p in (bomb, fill, honest))
    args = ["run", "--multirun", "model=scripted", f"model.script={scripts}", f"task={TASK}"]
    parallel = ["hydra/launcher=joblib", "hydra.launcher.n_jobs=2"]  # side by side
    started = time.monotonic()
    proc = run_realcli([*args, *parallel], env, tmp, timeout=600)
    wall = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr[-3000:]
    runs = {}
    for verdict_path in (tmp / "runs").glob("*/*/verdict.json"):
        spec = json.loads((verdict_path.parent / "spec.json").read_text())["spec"]
        runs[Path(spec["model"]["script"]).stem] = SweepRun(
            verdict_path.parent,
            Verdict.model_validate_json(verdict_path.read_text()),
            list(read_ledger(verdict_path.parent / "ledger.jsonl").events),
        )
    assert set(runs) == {"bomb", "fill", "trajectory"}, proc.stdout
    return LimitsSweep(tmp, tasks, runs, sleep, before, wall)
