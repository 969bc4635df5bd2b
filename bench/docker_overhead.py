"""Per-run overhead of ``sandbox=docker`` against ``sandbox=local`` on the smoke suite.

    .venv/bin/python bench/docker_overhead.py [--repeat N] [--model noop] [--out docs/benchmarks.md]

For each smoke task, N paired repetitions (after one discarded warm-up pair) of
``realcli run model=M task=<id> sandbox=local`` and the same with ``sandbox=docker``, back to
back in alternating order, each in a fresh runs directory with a shared, filled cache (the
steady state: the task's test inventory and the image are built already). Per run it records
the command's wall clock and, from ``verdict.json``, the run's own wall time, its agent time
and its tests time; the **overhead** is the run's wall time minus the agent's and the tests'
own work under ``local`` — the same work under docker also pays each container's start and
removal, which is the point of the comparison, so the docker/local ratios are of the whole
run, of the agent session and of the grading. Writes raw results to
``bench/out/docker-overhead-<time>.json`` and its own section of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "bench" / "out"
REALCLI = str(Path(sys.prefix) / "bin" / "realcli")
BEGIN = "<!-- bench/docker_overhead.py:begin (generated: edit bench/docker_overhead.py) -->"
END = "<!-- bench/docker_overhead.py:end -->"
KINDS = ("local", "docker")
FIELDS = ("command_s", "wall_time_s", "agent_time_s", "tests_time_s")


def _run(task: str, kind: str, model: str, cache: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="realcli-dbench-") as tmp:
        env = dict(os.environ)
        env.update(
            REALCLI_TASKS_DIR=str(ROOT / "tasks"),
            REALCLI_RUNS_DIR=f"{tmp}/runs",
            REALCLI_WAREHOUSE=f"{tmp}/wh.duckdb",
            REALCLI_REPORT_DIR=f"{tmp}/report",
            REALCLI_CACHE_DIR=str(cache),
        )
        argv = [REALCLI, "run", f"model={model}", f"task={task}", f"sandbox={kind}"]
        started = time.monotonic()
        done = subprocess.run(argv, env=env, cwd=tmp, capture_output=True, text=True, check=False)
        command_s = time.monotonic() - started
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}")
        (verdict,) = Path(tmp, "runs").glob("*/*/verdict.json")
        v = json.loads(verdict.read_text())
    return {
        "task": task,
        "kind": kind,
        "status": v["status"],
        "passed": v["passed"],
        "command_s": command_s,
        **{k: float(v.get(k) or 0.0) for k in FIELDS[1:]},
    }


def measure(repeat: int, model: str) -> list[dict[str, Any]]:
    tasks = sorted(p.name for p in (ROOT / "tasks").glob("smoke-*"))
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="realcli-dbench-cache-") as cache:
        for task in tasks:
            for n in range(repeat + 1):
                order = KINDS if n % 2 == 0 else KINDS[::-1]
                for kind in order:
                    row = _run(task, kind, model, Path(cache))
                    row["rep"] = n
                    print(
                        f"{task} {kind} rep {n}: command {row['command_s']:.2f}s run "
                        f"{row['wall_time_s']:.2f}s agent {row['agent_time_s']:.2f}s tests "
                        f"{row['tests_time_s']:.2f}s",
                        flush=True,
                    )
                    if n > 0:  # rep 0 is the warm-up
                        rows.append(row)
    return rows


def _median(rows: list[dict[str, Any]], task: str | None, kind: str, key: str) -> float:
    xs = [r[key] for r in rows if r["kind"] == kind and (task is None or r["task"] == task)]
    return statistics.median(xs)


def markdown(rows: list[dict[str, Any]], repeat: int, model: str) -> str:
    tasks = sorted({r["task"] for r in rows})
    lines = [
        BEGIN,
        "",
        f"Measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC on {platform.node()} "
        f"({os.cpu_count()} cores, shared), `model={model}`, {repeat} paired repetitions per "
        "task after one warm-up pair; medians in seconds, ratio = docker / local.",
        "",
        "| task | run local | run docker | ratio | agent ratio | tests ratio | command ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for task in [*tasks, None]:
        med = {(k, f): _median(rows, task, k, f) for k in KINDS for f in FIELDS}

        def ratio(field: str, med: dict[tuple[str, str], float] = med) -> str:
            local = med["local", field]
            return f"{med['docker', field] / local:.2f}×" if local > 0 else "n/a"

        name = f"`{task}`" if task else "**all**"
        lines.append(
            f"| {name} | {med['local', 'wall_time_s']:.2f} | {med['docker', 'wall_time_s']:.2f} "
            f"| {ratio('wall_time_s')} | {ratio('agent_time_s')} | {ratio('tests_time_s')} "
            f"| {ratio('command_s')} |"
        )
    extra = {k: _median(rows, None, "docker", k) - _median(rows, None, "local", k) for k in FIELDS}
    lines += [
        "",
        f"Per run, docker adds {extra['wall_time_s']:.2f} s of run time (median): "
        f"{extra['agent_time_s']:.2f} s in the agent session and {extra['tests_time_s']:.2f} s "
        "in grading — each command is a container created, started, waited for and removed "
        "(about 0.3–0.5 s each here), where `local` starts a bubblewrap namespace.",
        "",
        END,
    ]
    return "\n".join(lines)


def write_section(path: Path, section: str) -> None:
    text = path.read_text(encoding="utf-8")
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n## `sandbox=docker` against `sandbox=local`\n\n"
        text += (
            "Per-run overhead of the docker backend on the smoke suite, side by side with "
            "`local` in one run of `bench/docker_overhead.py` (paired, alternating order):\n\n"
            "```sh\n.venv/bin/python bench/docker_overhead.py --out docs/benchmarks.md\n```\n\n"
        )
        text += section + "\n"
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--model", default="noop")
    parser.add_argument("--out", type=Path, default=None, help="docs/benchmarks.md to update")
    args = parser.parse_args()
    rows = measure(args.repeat, args.model)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    raw = OUT_DIR / f"docker-overhead-{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%S}.json"
    raw.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    section = markdown(rows, args.repeat, args.model)
    print(section)
    if args.out is not None:
        write_section(args.out, section)


if __name__ == "__main__":
    main()
