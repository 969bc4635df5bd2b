"""Regenerate the P1 table of docs/weave.md: every hybrid task replayed in the three modes.

    python scripts/p1_table.py [--out docs/weave.md] [--from-runs DIR ...]

Runs ``realcli run suite=all suite.suite=weave model=replay mode=M`` for M in hybrid,
cli_only, gui_only (in a temporary runs dir), or reads replay runs already made under the
``--from-runs`` folders (e.g. the test session's: ``tests/runner/test_hybrid_tasks.py`` makes
exactly these three sweeps; pytest keeps them under ``/tmp/pytest-of-$USER/``), and writes
one row per task: pass or fail per mode, the F2P step score, and the critical clauses that
failed. A hybrid task satisfies P1
when it passes in ``hybrid`` and fails in both single-channel modes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from realcli.catalog import discover_tasks  # noqa: E402
from realcli.schema.verdict import Verdict  # noqa: E402

BEGIN = "<!-- scripts/p1_table.py:begin (generated) -->"
END = "<!-- scripts/p1_table.py:end -->"
MODES = ("hybrid", "cli_only", "gui_only")


def verdicts(runs: Path, mode: str) -> dict[str, Verdict]:
    argv = [sys.executable, "-m", "realcli.cli", "run", "suite=all", "suite.suite=weave"]
    argv += ["model=replay", f"mode={mode}", f"experiment_name=p1-{mode}", f"paths.runs_dir={runs}"]
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{proc.stderr[-2000:]}")
    out = {}
    for path in (runs / f"p1-{mode}").glob("*/verdict.json"):
        v = Verdict.model_validate_json(path.read_text())
        out[v.task_id] = v
    return out


def verdicts_from(folders: list[Path]) -> dict[str, dict[str, Verdict]]:
    """Replay runs under ``folders`` by mode and task (a later run of the same pair wins)."""
    out: dict[str, dict[str, Verdict]] = {m: {} for m in MODES}
    for folder in folders:
        for spec_path in sorted(folder.rglob("spec.json"), key=lambda p: p.stat().st_mtime):
            verdict = spec_path.parent / "verdict.json"
            if not verdict.is_file():
                continue
            spec = json.loads(spec_path.read_text())["spec"]
            mode, model = spec["mode"]["name"], spec["model"]["name"]
            if model == "replay" and mode in out:
                v = Verdict.model_validate_json(verdict.read_text())
                out[mode][v.task_id] = v
    return out


def cell(v: Verdict | None) -> str:
    if v is None:
        return "—"
    failed = [
        c.id for d in v.deliverables for c in d.clauses if c.critical and c.outcome == "failed"
    ]
    word = "**pass**" if v.passed else "fail"
    detail = (
        f" (F2P {v.f2p_step:.2f}"
        + (f"; {', '.join(failed)}" if failed and not v.passed else "")
        + ")"
    )
    return word + detail


def table(results: dict[str, dict[str, Verdict]]) -> str:
    tasks = {t.id: t for t in discover_tasks(ROOT / "tasks") if t.spec.kind.value == "weave"}
    lines = [
        BEGIN,
        "",
        "| task | domain | hybrid | cli_only | gui_only | P1 holds |",
        "|---|---|---|---|---|---|",
    ]
    for tid in sorted(tasks):
        row = [results[m].get(tid) for m in MODES]
        holds = bool(
            row[0] and row[0].passed and all(v is not None and not v.passed for v in row[1:])
        )
        domain = tasks[tid].spec.domain.value if tasks[tid].spec.domain else ""
        lines.append(
            f"| `{tid}` | {domain} | {cell(row[0])} | {cell(row[1])} | {cell(row[2])} | "
            f"{'yes' if holds else '**no**'} |"
        )
    lines += ["", END]
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "weave.md")
    p.add_argument("--from-runs", type=Path, nargs="+", help="read these runs instead")
    args = p.parse_args()
    if args.from_runs:
        results = verdicts_from(args.from_runs)
    else:
        with tempfile.TemporaryDirectory(prefix="p1-") as tmp:
            results = {m: verdicts(Path(tmp), m) for m in MODES}
    section = table(results)
    text = args.out.read_text()
    head, rest = text.split(BEGIN, 1)
    args.out.write_text(head + section + rest.split(END, 1)[1])
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
