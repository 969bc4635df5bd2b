"""``realcli runs [filters] [--json]``: the run folders as a table, straight from the files.

No ingest needed, so it works mid-sweep. Per folder under ``runs_dir/<experiment>/``: the
ledger header (:class:`HeaderEvent`: key, experiment, task, the resolved spec validated as a
:class:`RunSpec`), ``spec.json``'s task kind, ``verdict.json`` (:class:`Verdict`: status, pass,
F2P step; none yet: ``incomplete``) and ``judgements/*.json`` (:class:`Judgement`: each judge's
final score). A folder whose header, spec or verdict cannot be used is a row with status
``unreadable`` and one warning naming the file and the field; it never stops the listing. An
unreadable judgement file is a warning; the row keeps its other scores.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.judge.store import read_judgements
from realcli.ledger.layout import LEDGER, SPEC, VERDICT, run_folders
from realcli.ledger.reader import MAX_LINE_BYTES
from realcli.runner.folders import read_verdict
from realcli.schema.events import HeaderEvent
from realcli.schema.run_spec import RunSpec
from realcli.schema.task_spec import TaskKind
from realcli.util.bounded import MIB, BadFile, describe_mode, load_json, read_json_file
from realcli.util.validation import describe_validation_error

__all__ = ["RunFilters", "RunRow", "list_runs", "read_run_row", "runs_command"]

UNREADABLE = "unreadable"
INCOMPLETE = "incomplete"


@dataclass(frozen=True)
class RunFilters:
    """Empty tuples mean every value; within one filter values are alternatives."""

    experiment: tuple[str, ...] = ()
    task: tuple[str, ...] = ()
    model: tuple[str, ...] = ()
    harness: tuple[str, ...] = ()
    mode: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    kind: tuple[str, ...] = ()

    def admits(self, row: RunRow) -> bool:
        return all(
            not wanted or getattr(row, name) in wanted for name, wanted in asdict(self).items()
        )


@dataclass
class RunRow:
    run_key: str
    experiment: str
    task: str = "?"
    kind: str = "?"
    model: str = "?"
    harness: str = "?"
    mode: str = "?"
    protocol: str = "?"
    seed: int | None = None
    status: str = INCOMPLETE
    passed: bool | None = None
    f2p_step: float | None = None
    judged: dict[str, float | None] = field(default_factory=dict)
    """judge -> final score (None: the judge failed or did not apply)"""
    run_dir: str = ""
    warnings: list[str] = field(default_factory=list)


def read_run_row(run_dir: Path) -> RunRow:
    """The row of one run folder; problems go to ``row.warnings``, never raised."""
    row = RunRow(run_key=run_dir.name, experiment=run_dir.parent.name, run_dir=str(run_dir))
    if run_dir.is_symlink():  # the runner makes run folders itself; never read through a link
        row.status = UNREADABLE
        row.warnings.append(f"{run_dir}: is a symbolic link (not followed)")
        return row
    header = _header(run_dir / LEDGER, row)
    if header is not None:
        row.run_key, row.experiment, row.task = header.run_key, header.experiment, header.task_id
        _axes(run_dir / LEDGER, header.spec, row)
    row.kind = _kind(run_dir / SPEC, row)
    verdict, problem = read_verdict(run_dir, row.run_key)
    if problem is not None:
        row.status = UNREADABLE
        row.warnings.append(problem)
    elif verdict is not None and row.status != UNREADABLE:  # a damaged header stays unreadable
        row.status = verdict.status.value
        row.passed, row.f2p_step = verdict.passed, verdict.f2p_step
    judgements, problems = read_judgements(run_dir)
    row.judged = {j.judge: (j.final_score if j.status == "judged" else None) for j in judgements}
    row.warnings += problems
    return row


def _first_line(path: Path) -> bytes:
    """The first line of the regular file ``path`` (a link, FIFO... is :class:`BadFile`, as
    :func:`read_bounded` has it), read without loading the rest of the ledger."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        what = "is a symbolic link (not followed)" if exc.errno == errno.ELOOP else None
        raise BadFile(what or f"cannot be read ({exc.strerror})") from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise BadFile(f"is {describe_mode(mode)}, not a regular file")
        with os.fdopen(os.dup(fd), "rb") as f:
            line = f.readline(MAX_LINE_BYTES + 1)
    finally:
        os.close(fd)
    if len(line) > MAX_LINE_BYTES:
        raise BadFile(f"its first line is more than the {MAX_LINE_BYTES // MIB} MiB line cap")
    return line


def _header(path: Path, row: RunRow) -> HeaderEvent | None:
    try:
        line = _first_line(path)
    except FileNotFoundError:
        problem = "missing (the run never started, or the folder is damaged)"
    except BadFile as exc:
        problem = str(exc)
    else:
        try:
            return HeaderEvent.model_validate(load_json(line, ints=False))
        except (BadFile, ValueError) as exc:
            first = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            if isinstance(exc, ValidationError) and exc.errors():
                err = exc.errors()[0]
                first = f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
            problem = f"line 1: unreadable header ({first})"
    row.status = UNREADABLE
    row.warnings.append(f"{path}: {problem}")
    return None


def _axes(path: Path, spec: dict[str, Any], row: RunRow) -> None:
    try:
        run_spec = RunSpec.model_validate(spec)
    except ValidationError as exc:
        where, problem, _ = describe_validation_error(exc, RunSpec, "spec.")
        row.status = UNREADABLE
        row.warnings.append(f"{path}: line 1: {where}: {problem}")
        return
    row.model, row.harness = run_spec.model.name, run_spec.harness.name
    row.mode, row.protocol, row.seed = run_spec.mode.name, run_spec.protocol.name, run_spec.seed


def _kind(path: Path, row: RunRow) -> str:
    try:
        doc = read_json_file(path, 16 * MIB)
    except FileNotFoundError:
        row.warnings.append(f"{path}: missing (task kind unknown)")
        return "?"
    except (OSError, BadFile) as exc:
        row.warnings.append(f"{path}: {exc}")
        return "?"
    task = doc.get("task") if isinstance(doc, dict) else None
    kind = task.get("kind") if isinstance(task, dict) else None
    if kind not in {k.value for k in TaskKind}:
        row.warnings.append(
            f"{path}: task.kind: {kind!r} is not one of {[k.value for k in TaskKind]}"
        )
        return "?"
    return str(kind)


def list_runs(runs_dir: Path, filters: RunFilters = RunFilters()) -> list[RunRow]:
    """Rows of the run folders that ``filters`` admit, in folder order."""
    if not runs_dir.is_dir():
        return []
    rows = []
    for run_dir in run_folders(runs_dir):
        if not any((run_dir / name).exists() for name in (LEDGER, SPEC, VERDICT)):
            continue  # being created: nothing written yet
        row = read_run_row(run_dir)
        if filters.admits(row):
            rows.append(row)
    return rows


def _score(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _judged(judged: dict[str, float | None]) -> str:
    return " ".join(f"{j}={_score(s)}" for j, s in sorted(judged.items())) or "—"


def runs_command(runs_dir: Path, filters: RunFilters, *, as_json: bool = False) -> int:
    """Print the table (or ``--json``: every field, the full key, the warnings); warnings go to
    stderr too. Exit 0, also when no run matches (the last line says 0 runs)."""
    rows = list_runs(runs_dir, filters)
    for row in rows:
        for warning in row.warnings:
            print(f"warning: {warning}", file=sys.stderr)
    if as_json:
        print(json.dumps([asdict(r) for r in rows], indent=1))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False, header_style="bold")
    for name in ("key", "experiment", "task", "model", "harness", "mode", "protocol"):
        table.add_column(name, no_wrap=True)
    table.add_column("seed", justify="right")
    table.add_column("status", no_wrap=True)
    for name in ("pass", "F2P step", "judged final"):
        table.add_column(name, justify="left" if name == "judged final" else "right")
    for r in rows:
        table.add_row(
            r.run_key[:12],
            r.experiment,
            r.task,
            r.model,
            r.harness,
            r.mode,
            r.protocol,
            "?" if r.seed is None else str(r.seed),
            r.status,
            "—" if r.passed is None else str(int(r.passed)),
            _score(r.f2p_step),
            _judged(r.judged),
        )
    console = Console(width=200 if not sys.stdout.isatty() else None)
    if rows:
        console.print(table)
    counts = Counter(r.status for r in rows)
    print(
        f"{len(rows)} runs in {runs_dir}"
        + (": " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) if rows else "")
    )
    return 0
