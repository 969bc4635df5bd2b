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
import datetime as dt
import json
import os
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from overhead_common import OUT_DIR, ROOT, geomean, machine, median, timed
from overhead_markdown import markdown, write_section
from overhead_micro import micro
from overhead_suite import Suite

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
