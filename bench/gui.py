"""GUI channel latencies: a screenshot and each primitive, and the wall time of hybrid runs.

    python bench/gui.py --out docs/benchmarks.md [-n 20]

1. On a real desktop (Xvfb + openbox, 1024x768) with a Tk window, through the trusted GUI
   service (``GuiService.call``: argument check, the action, for screenshots the sha256, the
   file and the ledger event), the median of ``n`` calls of each tool.
2. The wall time of ``realcli run task=<id> mode=hybrid model=replay`` for every hybrid task
   (one run each, in a fresh runs dir; includes the desktop and the task's apps starting).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from realcli.catalog import discover_tasks  # noqa: E402
from realcli.gui.desktop import Desktop  # noqa: E402
from realcli.gui.driver import GuiDriver  # noqa: E402
from realcli.gui.service import GuiService  # noqa: E402

BEGIN = "<!-- bench/gui.py:begin (generated: edit bench/gui.py, not this part) -->"
END = "<!-- bench/gui.py:end -->"
PROBE = ROOT / "tests" / "gui" / "apps" / "probe.py"
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("screenshot", {}),
    ("move", {"x": 300, "y": 300}),
    ("click", {"x": 300, "y": 300}),
    ("double_click", {"x": 320, "y": 300}),
    ("triple_click", {"x": 340, "y": 300}),
    ("drag", {"x1": 200, "y1": 250, "x2": 400, "y2": 350}),
    ("scroll", {"x": 300, "y": 300, "dy": 3}),
    ("type", {"text": "hello"}),
    ("type", {"text": "中文"}),
    ("keypress", {"keys": "ctrl+a"}),
    ("wait", {"seconds": 0}),
]


def primitives(n: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-gui-") as tmp, Desktop(1024, 768) as desktop:
        desktop.launch(["/usr/bin/python3", "-u", str(PROBE), "bench"])
        desktop.wait_for_window("^bench:", timeout=20)
        run_dir = Path(tmp)
        service = GuiService(GuiDriver(desktop), run_dir / "screenshots", run_dir, lambda e: None)
        for name, args in CALLS:
            times = []
            for _ in range(n):
                t = time.perf_counter()
                result = service.call(name, dict(args))
                times.append(time.perf_counter() - t)
                assert result.ok, result.text
            label = f"{name} {args.get('text', '')}".strip()
            rows.append({"tool": label, "median_ms": statistics.median(times) * 1000})
    return rows


def hybrid_runs() -> list[dict[str, Any]]:
    rows = []
    weave = sorted(t.id for t in discover_tasks(ROOT / "tasks") if t.spec.kind.value == "weave")
    with tempfile.TemporaryDirectory(prefix="bench-hybrid-") as tmp:
        for task in weave:
            argv = [sys.executable, "-m", "realcli.cli", "run", f"task={task}", "mode=hybrid"]
            argv += ["model=replay", f"paths.runs_dir={tmp}/runs", "experiment_name=bench"]
            t = time.perf_counter()
            proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
            wall = time.perf_counter() - t
            rows.append({"task": task, "wall_s": wall, "line": proc.stdout.strip()[-160:]})
    return rows


def markdown(info: dict[str, Any], prims: list[dict[str, Any]], runs: list[dict[str, Any]]) -> str:
    out = [
        BEGIN,
        "",
        "## GUI channel",
        "",
        f"- Machine: {info['nproc']} CPUs, Python {info['python']}; date {info['date']}; git "
        f"{info['git']}; load average at start {info['load']:.2f}",
        f"- Command: `{info['command']}`",
        "",
        f"### Median latency per GUI tool call ({info['n']} calls each)",
        "",
        "Through the trusted GUI service on a 1024x768 Xvfb desktop with openbox and a Tk window "
        "(argument check, the xdotool action; screenshots include the PNG encoding, sha256, file "
        "and ledger event).",
        "",
        "| tool | median (ms) |",
        "|---|---:|",
    ]
    out += [f"| {r['tool']} | {r['median_ms']:.1f} |" for r in prims]
    out += [
        "",
        "### Wall time of a hybrid replay run",
        "",
        "`realcli run task=<id> mode=hybrid model=replay`, one run each: desktop and apps start, "
        "the builtin agent replays the reference through the GUI and CLI tools, grading.",
        "",
        "| task | wall (s) | result |",
        "|---|---:|---|",
    ]
    out += [f"| `{r['task']}` | {r['wall_s']:.1f} | `{r['line']}` |" for r in runs]
    out += ["", END]
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
    p.add_argument("--out", type=Path)
    p.add_argument("-n", type=int, default=20)
    args = p.parse_args(argv)
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True)
    info = {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "git": git.stdout.decode().strip(),
        "load": os.getloadavg()[0],
        "command": "python bench/gui.py " + " ".join(argv or sys.argv[1:]),
        "n": args.n,
    }
    section = markdown(info, primitives(args.n), hybrid_runs())
    if args.out:
        replace_section(args.out, section)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
