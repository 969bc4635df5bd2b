"""``realcli regrade`` and ``realcli progress``: a finished run's verdict rebuilt from its saved
test output, and its progress replayed over its workspace snapshots."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from pydantic import ValidationError

from realcli.catalog import load_task
from realcli.grading.sets import load_round
from realcli.grading.verdict import (
    build_verdict,
    labels_from_ledger,
    outcome_from_ledger,
    screenshot_hashes,
)
from realcli.ledger import read_ledger
from realcli.ledger.layout import EXPECTED, LEDGER, TASK_COPY, VERDICT
from realcli.runner.folders import read_verdict, write_json_atomic
from realcli.runner.run_show import find_run, started_run_dirs, step_text
from realcli.sandbox import make_sandbox
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import Verdict
from realcli.util.bounded import MIB, BadFile, read_json_file
from realcli.util.errors import RealcliError, TaskError

__all__ = ["load_task_copy", "progress", "regrade"]


_SAVED_ROUND = re.compile(r"round-(\d{1,6})\.[a-z0-9]+\.(?:xml|guard\.json|scoreset\.json)")
"""A file a round's grading saves: JUnit XML, guard record, score-file set record."""


def regrade(runs_dir: Path, keys: Sequence[str]) -> int:
    """Rebuild ``verdict.json`` of finished runs from their saved test output and ledger."""
    run_dirs = [find_run(runs_dir, k) for k in keys] if keys else started_run_dirs(runs_dir)
    changed = failed = 0
    for run_dir in run_dirs:
        old, problem = read_verdict(run_dir)
        if old is None:
            why = f" (verdict unreadable: {problem}; the next `realcli run` redoes it)"
            print(f"skip     {run_dir.name}: not finished" + (why if problem else ""))
            continue
        try:
            new = _regraded(run_dir, old)
        except RealcliError as exc:
            print(f"error    {run_dir.name}: {exc}")
            failed += 1
            continue
        write_json_atomic(run_dir / VERDICT, new.model_dump(mode="json"))
        same = (old.passed, old.f2p_step, old.p2p_step) == (new.passed, new.f2p_step, new.p2p_step)
        changed += not same
        print(
            f"regraded {run_dir.name}: pass {int(old.passed)}->{int(new.passed)}"
            f" f2p_step {old.f2p_step:.2f}->{new.f2p_step:.2f}"
            f" p2p_step {step_text(old.p2p_step)}->{step_text(new.p2p_step)}"
        )
    print(
        f"{len(run_dirs)} runs, {changed} verdicts changed"
        + (f", {failed} could not be regraded" if failed else "")
    )
    return 1 if failed else 0


def _regraded(run_dir: Path, old: Verdict) -> Verdict:
    """The verdict rebuilt from the run's saved test output, task.toml copy and ledger."""
    from realcli.ledger.run_records import read_run_record

    record = read_run_record(run_dir)  # spec.json: the run it says it is
    if record.run_key != old.run_key:
        raise RealcliError(
            str(run_dir / VERDICT),
            "run_key",
            f"verdict is for {old.run_key!r}, spec.json for {record.run_key!r}",
            "move the verdict back to its own run folder, or rerun this run",
        )
    task_doc = load_task_copy(run_dir)
    try:
        task = TaskSpec.model_validate(task_doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or None
        raise TaskError(str(run_dir / TASK_COPY), where, first["msg"], "rerun this run") from exc
    ledger = read_ledger(run_dir / LEDGER)
    status, error, timings = outcome_from_ledger(ledger)
    rounds = sorted(
        {
            int(m.group(1))
            for p in (run_dir / "tests").glob("round-*")
            if (m := _SAVED_ROUND.fullmatch(p.name))
        }
    )
    expected_path = run_dir / "tests" / EXPECTED
    expected = None
    if expected_path.exists():
        try:
            expected = read_json_file(expected_path, 64 * MIB)
        except BadFile as exc:
            raise RealcliError(str(expected_path), None, str(exc), "rerun this run") from exc
    saved = {n: load_round(run_dir / "tests", n, task.tests) for n in rounds}
    return build_verdict(
        task=task,
        run_key=old.run_key,
        rounds={n: s.results for n, s in saved.items()},
        tampered={n: s.tampered for n, s in saved.items()},
        status=status,
        error=error,
        timings=timings,
        expected=expected,
        workspace=run_dir / "workspace" if (run_dir / "workspace").is_dir() else None,
        screenshots=screenshot_hashes(ledger),
        labels=labels_from_ledger(ledger),
    )


def progress(
    runs_dir: Path,
    tasks_dir: Path,
    keys: Sequence[str],
    *,
    grid: int = 8,
    exhaustive: bool = False,
) -> int:
    """Compute ``progress.json`` of finished runs that have workspace snapshots (exit 1 when
    a run could not be replayed)."""
    from realcli.ledger.layout import SNAPSHOTS_GIT, SPEC
    from realcli.progress import load_snapshots, progress_for_run, progress_table

    if grid < 0:
        raise RealcliError("command line", "--grid", f"{grid} is negative", "use 0 or more")
    run_dirs = [find_run(runs_dir, k) for k in keys] if keys else started_run_dirs(runs_dir)
    failed = done = 0
    for run_dir in run_dirs:
        if not (run_dir / VERDICT).is_file():
            print(f"skip     {run_dir.name}: not finished")
            continue
        if not (run_dir / SNAPSHOTS_GIT).is_dir() or not load_snapshots(run_dir / LEDGER):
            print(f"skip     {run_dir.name}: no workspace snapshots")
            continue
        header = read_ledger(run_dir / LEDGER).header
        try:
            doc = read_json_file(run_dir / SPEC, 16 * MIB)
        except (FileNotFoundError, BadFile):
            doc = {}
        spec = doc.get("spec") if isinstance(doc, dict) else None
        sandbox = spec.get("sandbox") if isinstance(spec, dict) else None
        kind = sandbox.get("kind", "local") if isinstance(sandbox, dict) else "local"
        try:
            task = load_task(tasks_dir / header.task_id)
            report = progress_for_run(
                run_dir, task, partial(make_sandbox, kind), grid=grid, exhaustive=exhaustive
            )
        except RealcliError as exc:
            print(f"error    {run_dir.name}: {exc}")
            failed += 1
            continue
        done += 1
        print(
            f"progress {run_dir.name} {header.task_id}: {report.method}"
            + (f" grid={report.grid}" if report.method == "bisection" else "")
            + f", {len(report.evaluations)}/{report.n_snapshots} snapshots evaluated"
            f" (last step {report.last_step}) in {report.seconds:.1f}s"
        )
        print(progress_table(report))
    print(f"{len(run_dirs)} runs, {done} replayed, {failed} failed")
    return 1 if failed else 0


def load_task_copy(run_dir: Path) -> dict[str, object]:
    import tomllib

    path = run_dir / TASK_COPY
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TaskError(str(path), None, f"unreadable ({exc})", "rerun this run") from exc
