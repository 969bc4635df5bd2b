"""Progress over time: what a workspace snapshot costs per tool call, and a replay per run.

    python bench/progress.py --out docs/benchmarks.md [-n 30] [--task ID]

On the largest CLI task under ``tasks/`` (most text lines in ``environment/repo``; chosen at
run time, GUI tasks left out):

1. **Snapshot cost per tool call**: ``Snapshotter.snapshot`` after a one-file edit and with
   nothing changed (``n`` each, median and p90), beside ``cp -a`` of the same workspace (the
   floor any copy-based snapshot would pay), and the initial (forced, full) snapshot.
2. **Replay cost per run**: the reference applied action by action with a snapshot after each
   (as a run takes them), then ``replay_progress`` with bisection (grid 8) and exhaustively:
   seconds, snapshots evaluated, and whether both give the same first-pass steps.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from realcli.catalog import TaskBundle, load_task  # noqa: E402
from realcli.progress import Snapshotter, choose_snapshots, replay_progress  # noqa: E402
from realcli.runner.inventory import expected_tests  # noqa: E402
from realcli.runner.workspace import _apply, prepare_workspace, sandbox_options  # noqa: E402
from realcli.sandbox import make_sandbox  # noqa: E402
from realcli.schema.actions import GuiAction  # noqa: E402
from realcli.schema.events import SnapshotEvent  # noqa: E402
from realcli.util.errors import RealcliError  # noqa: E402

BEGIN = "<!-- bench/progress.py:begin (generated: edit bench/progress.py, not this part) -->"
END = "<!-- bench/progress.py:end -->"
MAKE_SANDBOX = partial(make_sandbox, "local")
PADDING = (5, 20)


def _lines(repo: Path) -> tuple[int, int, int]:
    """(text lines, files, bytes) under ``repo``."""
    lines = files = size = 0
    for path in repo.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            files += 1
            size += len(data)
            if b"\0" not in data[:8192]:
                lines += data.count(b"\n")
    return lines, files, size


def largest_task(tasks_dir: Path) -> TaskBundle:
    best: tuple[int, TaskBundle] | None = None
    for toml in sorted(tasks_dir.glob("*/task.toml")):
        try:
            task = load_task(toml.parent)
            if any(isinstance(a, GuiAction) for a in task.reference_actions()):
                continue
        except RealcliError:
            continue  # a task being written right now
        lines = _lines(task.repo_dir)[0]
        if best is None or lines > best[0]:
            best = (lines, task)
    assert best is not None, f"no loadable CLI task under {tasks_dir}"
    return best[1]


def _stats(ms: list[float]) -> dict[str, float]:
    p90 = statistics.quantiles(ms, n=10)[8] if len(ms) > 1 else ms[0]
    return {"median_ms": statistics.median(ms), "p90_ms": p90}


def _edit_target(workspace: Path) -> Path:
    """The largest Python (else any text) file: a one-file edit touches it."""
    candidates = sorted(workspace.rglob("*.py")) or sorted(
        p for p in workspace.rglob("*") if p.is_file()
    )
    return max(candidates, key=lambda p: p.stat().st_size)


def snapshot_cost(task: TaskBundle, n: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-progress-") as tmp:
        workspace = Path(tmp) / "ws"
        prepare_workspace(task, workspace, MAKE_SANDBOX)
        snap = Snapshotter(workspace, Path(tmp) / "snapshots.git")
        t = time.perf_counter()
        snap.snapshot(round=1, step=0, call_id=None, force=True)
        initial_ms = (time.perf_counter() - t) * 1000
        target = _edit_target(workspace)
        edit, noop, copy = [], [], []
        for i in range(n):
            with target.open("a", encoding="utf-8") as f:
                f.write(f"# bench edit {i}\n")
            t = time.perf_counter()
            event = snap.snapshot(round=1, step=2 * i + 1, call_id=None)
            edit.append((time.perf_counter() - t) * 1000)
            assert event is not None and event.changed_files == 1
            t = time.perf_counter()
            assert snap.snapshot(round=1, step=2 * i + 2, call_id=None) is None
            noop.append((time.perf_counter() - t) * 1000)
        for i in range(n):
            dest = Path(tmp) / f"copy-{i}"
            t = time.perf_counter()
            subprocess.run(["cp", "-a", str(workspace), str(dest)], check=True)
            copy.append((time.perf_counter() - t) * 1000)
            shutil.rmtree(dest)
        lines, files, size = _lines(workspace)
    return {
        "n": n,
        "files": files,
        "lines": lines,
        "mb": size / 1e6,
        "edited": str(target.relative_to(workspace)),
        "initial_ms": initial_ms,
        "edit": _stats(edit),
        "noop": _stats(noop),
        "cp_a": _stats(copy),
    }


def replay_cost(task: TaskBundle, grid: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-progress-") as tmp:
        root = Path(tmp)
        workspace = root / "ws"
        prepare_workspace(task, workspace, MAKE_SANDBOX)
        snap = Snapshotter(workspace, root / "snapshots.git")
        first = snap.snapshot(round=1, step=0, call_id=None, force=True)
        assert first is not None
        snapshots: list[SnapshotEvent] = [first]
        sandbox = MAKE_SANDBOX(sandbox_options(task, workspace))
        actions = task.reference_actions()
        t = time.perf_counter()
        for i, action in enumerate(actions, start=1):
            _apply(task, workspace, sandbox, [action], None)
            event = snap.snapshot(round=1, step=i, call_id=f"call-{i}")
            if event is not None:
                snapshots.append(event)
        apply_s = time.perf_counter() - t
        expected = expected_tests(task, MAKE_SANDBOX, root / "inventory")
        reports = {}
        for exhaustive in (False, True):
            reports[exhaustive] = replay_progress(
                run_key="bench",
                task=task,
                snapshots=snapshots,
                git_dir=root / "snapshots.git",
                expected=expected,
                make_sandbox=MAKE_SANDBOX,
                options_for=lambda ws: sandbox_options(task, ws),
                grid=grid,
                exhaustive=exhaustive,
                out_dir=root / f"progress-{exhaustive}",
            )
    bisect, every = reports[False], reports[True]

    def firsts(report: Any) -> dict[str, int | None]:
        return {g.goal: g.first_pass_step for g in report.goals}

    in_run = [s.duration_ms for s in snapshots[1:]]
    outcomes = [frozenset(e.passed) for e in every.evaluations]
    padded = []
    for factor in PADDING:  # each tool call followed by factor-1 that move no test
        seq = [o for o in outcomes for _ in range(factor)]
        chosen = choose_snapshots(len(seq), grid, lambda i, seq=seq: seq[i])  # type: ignore[misc]
        padded.append({"factor": factor, "snapshots": len(seq), "evaluations": len(chosen)})
    return {
        "actions": len(actions),
        "snapshots": len(snapshots),
        "apply_s": apply_s,
        "in_run": _stats(in_run) if in_run else {},
        "goals": len(every.goals),
        "substeps": {g.goal: g.first_pass_step for g in every.goals if g.kind == "substep"},
        "grid": grid,
        "bisection": {"seconds": bisect.seconds, "evaluations": len(bisect.evaluations)},
        "exhaustive": {"seconds": every.seconds, "evaluations": len(every.evaluations)},
        "padded": padded,
        "agree": firsts(bisect) == firsts(every)
        and [g.broke_at for g in bisect.goals] == [g.broke_at for g in every.goals],
    }


def markdown(info: dict[str, Any], snap: dict[str, Any], replay: dict[str, Any]) -> str:
    e, o, c = snap["edit"], snap["noop"], snap["cp_a"]
    b, x = replay["bisection"], replay["exhaustive"]
    out = [
        BEGIN,
        "",
        "## Progress over time: snapshots and replay",
        "",
        f"- Machine: {info['nproc']} CPUs, Python {info['python']}, git {info['git_version']}; "
        f"date {info['date']}; git {info['git']}; load average at start {info['load']:.2f}",
        f"- Command: `{info['command']}`",
        f"- Task: `{info['task']}`, the largest CLI task under `tasks/` at run time: "
        f"{snap['files']} files, {snap['lines']} text lines, {snap['mb']:.1f} MB in the "
        "prepared workspace",
        "",
        f"### Snapshot cost per tool call ({snap['n']} each)",
        "",
        "`Snapshotter.snapshot` (`git add --all --force --verbose`; when it staged a change "
        f"also `write-tree`, `commit-tree`, `update-ref`) after appending a line to "
        f"`{snap['edited']}`, and with nothing changed; beside `cp -a` of the whole workspace "
        "(what a copy-based snapshot would pay at least). In a run the snapshot is taken when "
        "the agent's next model call reaches the gateway, so this is what each model call "
        "waits for (the nothing-changed row after a turn that only read or ran tests).",
        "",
        "| operation | median (ms) | p90 (ms) | × `cp -a` (median) |",
        "|---|---:|---:|---:|",
        f"| snapshot after a one-file edit | {e['median_ms']:.1f} | {e['p90_ms']:.1f} | "
        f"{e['median_ms'] / c['median_ms']:.2f} |",
        f"| snapshot, nothing changed (`git add` only) | {o['median_ms']:.1f} | "
        f"{o['p90_ms']:.1f} | {o['median_ms'] / c['median_ms']:.2f} |",
        f"| `cp -a` of the workspace | {c['median_ms']:.1f} | {c['p90_ms']:.1f} | 1.00 |",
        f"| initial snapshot (forced, hashes every file; once per run) | "
        f"{snap['initial_ms']:.1f} | | |",
        "",
        "### Replay cost per run",
        "",
        f"The reference trajectory ({replay['actions']} actions) applied one action at a time "
        f"with a snapshot after each: {replay['snapshots']} snapshots (actions that change no "
        f"file take none; snapshot median {replay['in_run'].get('median_ms', 0):.1f} ms, p90 "
        f"{replay['in_run'].get('p90_ms', 0):.1f} ms during the replay). Then "
        f"`replay_progress` over {replay['goals']} goals (sub-steps and P2P tests); each "
        "evaluation restores the snapshot and runs the F2P and P2P sets in fresh sandboxes, "
        "as grading does.",
        "",
        "| method | snapshots evaluated | seconds | seconds per evaluation |",
        "|---|---:|---:|---:|",
        f"| bisection, grid {replay['grid']} | {b['evaluations']} | {b['seconds']:.1f} | "
        f"{b['seconds'] / b['evaluations']:.2f} |",
        f"| exhaustive | {x['evaluations']} | {x['seconds']:.1f} | "
        f"{x['seconds'] / x['evaluations']:.2f} |",
        "",
        "The two replays run one after the other on a shared machine, so seconds per "
        "evaluation follow its load; compare evaluations. "
        f"Bisection / exhaustive: {b['seconds'] / x['seconds']:.2f} of the time, "
        f"{b['evaluations'] / x['evaluations']:.2f} of the evaluations; same first-pass and "
        f"broke-at steps for every goal: {'yes' if replay['agree'] else 'NO'}. First-pass step "
        "per sub-step: "
        + ", ".join(f"{k} {v}" for k, v in replay["substeps"].items())
        + ". The reference changes one sub-step after another, so its goal changes are dense; "
        "an agent's run with long stretches of tool calls that move no test costs bisection "
        "little more than the grid. Derived from the exhaustive outcomes above (not run): the "
        "same history with every snapshot followed by k−1 that change no outcome —",
        "",
        "| snapshots (k) | bisection evaluations (grid "
        f"{replay['grid']}) | share | estimated seconds at "
        f"{x['seconds'] / x['evaluations']:.1f} s each |",
        "|---:|---:|---:|---:|",
        *(
            f"| {r['snapshots']} ({r['factor']}) | {r['evaluations']} | "
            f"{r['evaluations'] / r['snapshots']:.2f} | "
            f"{r['evaluations'] * x['seconds'] / x['evaluations']:.0f} |"
            for r in replay["padded"]
        ),
        "",
        END,
    ]
    return "\n".join(out)


def replace_section(path: Path, section: str) -> None:
    text = path.read_text() if path.exists() else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, help="Markdown file whose generated section to replace")
    p.add_argument("-n", type=int, default=30, help="snapshots per measurement (default 30)")
    p.add_argument("--grid", type=int, default=8)
    p.add_argument("--task", help="a task id (default: the largest CLI task)")
    args = p.parse_args(argv)
    task = load_task(ROOT / "tasks" / args.task) if args.task else largest_task(ROOT / "tasks")
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True)
    version = subprocess.run(["git", "--version"], capture_output=True, text=True)
    info = {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "git_version": version.stdout.split()[-1],
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "git": git.stdout.decode().strip(),
        "load": os.getloadavg()[0],
        "command": "python bench/progress.py " + " ".join(argv or sys.argv[1:]),
        "task": task.id,
    }
    print(f"task {task.id}", flush=True)
    snap = snapshot_cost(task, args.n)
    print(json.dumps(snap), flush=True)
    replay = replay_cost(task, args.grid)
    section = markdown(info, snap, replay)
    raw = ROOT / "bench" / "out" / "progress.json"
    raw.parent.mkdir(exist_ok=True)
    raw.write_text(json.dumps({"info": info, "snapshot": snap, "replay": replay}, indent=2))
    if args.out:
        replace_section(args.out, section)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
