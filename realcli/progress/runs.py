"""Progress of a finished run folder: its snapshot events in, ``progress.json`` out."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from realcli.catalog import TaskBundle
from realcli.ledger import read_ledger
from realcli.ledger.layout import EXPECTED, LEDGER, PROGRESS, SNAPSHOTS_GIT, SPEC
from realcli.progress.replay import replay_progress
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.events import SnapshotEvent
from realcli.schema.progress import ProgressReport
from realcli.util.errors import RealcliError
from realcli.util.redact import Redactor

__all__ = ["load_snapshots", "progress_for_run", "progress_table", "run_sandbox_options"]

PROGRESS_DIR = "progress"
"""under the run folder: ``step-<N>.<set>.{xml,log}`` of every evaluated snapshot"""


def load_snapshots(ledger_path: Path) -> list[SnapshotEvent]:
    """The ledger's ``snapshot`` events, in step order."""
    events = read_ledger(ledger_path).events
    found = [e for e in events if isinstance(e, SnapshotEvent)]
    return sorted(found, key=lambda e: (e.step, e.seq))


def _write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def run_sandbox_options(run_dir: Path, task: TaskBundle) -> Callable[[Path], SandboxOptions]:
    """Sandbox options as the run's grading had them: the task's resources with the run's
    ``sandbox.memory_mb`` / ``sandbox.cpu_seconds`` overrides (from ``spec.json``)."""
    overrides: dict[str, Any] = {}
    spec_path = run_dir / SPEC
    if spec_path.is_file():
        sandbox = json.loads(spec_path.read_text(encoding="utf-8")).get("spec", {}).get("sandbox")
        overrides = {k: v for k, v in (sandbox or {}).items() if k in ("memory_mb", "cpu_seconds")}
    res = task.spec.resources

    def options_for(workspace: Path) -> SandboxOptions:
        return SandboxOptions(
            workspace=workspace,
            workdir=task.spec.workdir,
            memory_mb=overrides.get("memory_mb") or res.memory_mb,
            cpu_seconds=overrides.get("cpu_seconds") or res.cpu_seconds,
            max_file_mb=res.max_file_mb,
        )

    return options_for


def progress_for_run(
    run_dir: Path,
    task_bundle: TaskBundle,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    grid: int = 8,
    exhaustive: bool = False,
    *,
    options_for: Callable[[Path], SandboxOptions] | None = None,
    redactor: Redactor | None = None,
) -> ProgressReport:
    """Replay the run's snapshots (see :func:`replay_progress`) and write ``progress.json``
    (atomically) and ``progress/step-<N>.<set>.{xml,log}`` into ``run_dir``."""
    ledger = read_ledger(run_dir / LEDGER)
    if ledger.header.task_digest != task_bundle.digest:
        raise RealcliError(
            str(task_bundle.root),
            None,
            f"task digest {task_bundle.digest[:12]} differs from the run's "
            f"{ledger.header.task_digest[:12]}: its tests are not the ones the run was graded by",
            "check out the task version the run used",
        )
    snapshots = load_snapshots(run_dir / LEDGER)
    git_dir = run_dir / SNAPSHOTS_GIT
    if not snapshots or not git_dir.is_dir():
        raise RealcliError(
            str(run_dir), None, "no workspace snapshots", "rerun with progress snapshots enabled"
        )
    expected_path = run_dir / "tests" / EXPECTED
    expected = json.loads(expected_path.read_text()) if expected_path.is_file() else {}
    report = replay_progress(
        run_key=ledger.header.run_key,
        task=task_bundle,
        snapshots=snapshots,
        git_dir=git_dir,
        expected=expected,
        make_sandbox=make_sandbox,
        options_for=options_for or run_sandbox_options(run_dir, task_bundle),
        grid=grid,
        exhaustive=exhaustive,
        out_dir=run_dir / PROGRESS_DIR,
        redactor=redactor,
    )
    _write_json_atomic(run_dir / PROGRESS, report.model_dump(mode="json"))
    return report


def _steps(steps: Sequence[int]) -> str:
    return ",".join(str(s) for s in steps) or "-"


def progress_table(report: ProgressReport) -> str:
    """One line per sub-step and per P2P test that did not hold throughout: first pass step,
    steps at which it broke and held again, whether it held at the end."""
    steady = [
        g for g in report.goals if g.kind == "p2p" and g.initial and g.final and not g.broke_at
    ]
    shown = [g for g in report.goals if g not in steady]
    width = max([len(g.goal) for g in shown] + [4])
    lines = [
        f"  {'goal':{width}s}  {'first pass':>10s}  {'broke at':12s}  {'restored at':12s}  final"
    ]
    for g in shown:
        first = "-" if g.first_pass_step is None else str(g.first_pass_step)
        lines.append(
            f"  {g.goal:{width}s}  {first:>10s}  {_steps(g.broke_at):12s}"
            f"  {_steps(g.restored_at):12s}  {'yes' if g.final else 'no'}"
        )
    if steady:
        lines.append(f"  ({len(steady)} P2P tests held at every evaluated snapshot)")
    return "\n".join(lines)
