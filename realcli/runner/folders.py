"""Run folders: their file names, how a run's outcome is read back, atomic JSON writes.

Kept free of the execution stack (gateway, harness, sandbox) so that finding a finished run,
the common case of a rerun, imports nothing heavy.

A run is finished when its ``verdict.json`` is usable (read bounded, without following a link,
valid, for this run). An unreadable verdict (not JSON, a directory, another run's...) counts as
not finished: one line says so and the run is redone. A usable verdict whose ledger lacks the
``run_end`` event (the process stopped between the two writes) is **healed**: the ``run_end`` is
appended from the verdict (``healed: true``), dropping a half-written last line first; the
agent's work and the grading are already on disk, so nothing is run again.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from realcli.ledger import LedgerWriter, read_ledger
from realcli.ledger.layout import LEDGER, VERDICT
from realcli.ledger.reader import MAX_LEDGER_BYTES
from realcli.schema.events import ErrorType, RunEndEvent
from realcli.schema.run_spec import RunSpec
from realcli.schema.verdict import MAX_VERDICT_BYTES, Verdict
from realcli.util.bounded import BadFile, load_json, read_bounded, read_json_file
from realcli.util.errors import LedgerError
from realcli.util.redact import Redactor

__all__ = [
    "RunOutcome",
    "RunState",
    "finished_outcome",
    "read_verdict",
    "run_dir_for",
    "write_json_atomic",
]

RunState = Literal["finished", "skipped", "healed", "locked"]

_TAIL_BYTES = 64 * 1024


@dataclass(frozen=True)
class RunOutcome:
    run_key: str
    task_id: str
    state: RunState
    run_dir: Path
    verdict: Verdict | None = None

    def summary_line(self, spec: RunSpec | None = None) -> str:
        """``STATE RUN_KEY TASK [seed= model= harness= mode= protocol=]: STATUS pass= ...``"""
        head = f"{self.state:8s} {self.run_key} {self.task_id}"
        if spec is not None:
            head += (
                f" seed={spec.seed} model={spec.model.name} harness={spec.harness.name}"
                f" mode={spec.mode.name} protocol={spec.protocol.name}"
            )
        v = self.verdict
        if v is None:
            return head
        return (
            f"{head}: {v.status.value} pass={int(v.passed)} f2p_step={v.f2p_step:.2f}"
            f" p2p_step={'none' if v.p2p_step is None else f'{v.p2p_step:.2f}'}"
            f" wall={v.wall_time_s:.1f}s"
        )


def run_dir_for(spec: RunSpec, key: str) -> Path:
    return Path(spec.paths.runs_dir) / spec.experiment_name / key


def read_verdict(run_dir: Path, key: str | None = None) -> tuple[Verdict | None, str | None]:
    """``(verdict, None)`` when ``verdict.json`` is usable, ``(None, None)`` when it is absent,
    ``(None, problem)`` when it is not: one line naming the file, the field and what is wrong.
    ``key``: the run the verdict must be for."""
    path = run_dir / VERDICT
    try:
        verdict = Verdict.model_validate(read_json_file(path, MAX_VERDICT_BYTES))
    except FileNotFoundError:
        return None, None
    except BadFile as exc:
        return None, f"{path}: {exc}"
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return None, f"{path}: {where + ': ' if where else ''}{first['msg']}"
    if key is not None and verdict.run_key != key:
        return None, f"{path}: run_key: the verdict is for {verdict.run_key!r}, not {key!r}"
    return verdict, None


def finished_outcome(
    run_dir: Path,
    key: str,
    task_id: str,
    *,
    heal: bool = False,
    say: Callable[[str], None] | None = None,
) -> RunOutcome | None:
    """The outcome of a finished run, else None (the run is to be done).

    A usable verdict with a ledger that ended gives ``skipped``. Without ``heal`` (the quick
    check before the run's lock is taken), a verdict whose ledger has no ``run_end`` gives None
    too; with ``heal`` (under the lock) the ledger is healed and the outcome is ``healed``. An
    unreadable verdict, or a verdict whose ledger can't be read, gives None; with ``say`` one
    line tells why the run is redone.
    """
    if run_dir.is_symlink():  # never read through it: the runner makes run folders itself
        if say is not None:
            say(f"{run_dir}: is a symbolic link (not followed); the run is done again here")
        return None
    verdict, problem = read_verdict(run_dir, key)
    if verdict is None:
        if problem is not None and say is not None:
            say(f"{problem}; the run counts as not finished and is done again")
        return None
    if verdict.error_type is ErrorType.missing_tool:  # preflight: it never started
        if say is not None:
            say(
                f"{run_dir}: ended missing_tool ({verdict.error}); the run never started and "
                "is done again (its preflight decides)"
            )
        return None
    if _ledger_ended(run_dir / LEDGER):
        return RunOutcome(key, task_id, "skipped", run_dir, verdict)
    if not heal:
        return None
    try:
        healed = heal_ledger(run_dir / LEDGER, verdict)
    except (LedgerError, BadFile, OSError) as exc:
        if say is not None:
            say(f"{exc}; the run has a verdict but no usable ledger and is done again")
        return None
    if healed is not None and say is not None:
        say(f"{run_dir / LEDGER}: {healed}")
    return RunOutcome(key, task_id, "skipped" if healed is None else "healed", run_dir, verdict)


def heal_ledger(path: Path, verdict: Verdict) -> str | None:
    """Append ``run_end`` (from ``verdict``, ``healed: true``) to a ledger that lacks it; a
    half-written last line (no newline: the write the process died in) is dropped first.
    Returns what was done (one line), None when the ledger already ended. Raises
    :class:`LedgerError` when the ledger or its header can't be read."""
    ledger = read_ledger(path)
    raw = read_bounded(path, MAX_LEDGER_BYTES)
    if any(e.kind == "run_end" for e in ledger.events):
        if raw.endswith(b"\n"):
            return None
        with path.open("ab") as fh:  # the run_end was written whole but for its newline
            fh.write(b"\n")
        return "last line: the newline after it was missing; added"
    dropped = ""
    if not raw.endswith(b"\n"):
        cut = raw.rfind(b"\n")
        if cut < 0:  # the header itself lacks its newline: keep it, end the line
            with path.open("ab") as fh:
                fh.write(b"\n")
        else:
            os.truncate(path, cut + 1)
            dropped = f" (dropped the half-written last {len(raw) - cut - 1} bytes)"
    last_seq = max([ledger.header.seq, *(e.seq for e in ledger.events)])
    with LedgerWriter(path, Redactor(env={}), next_seq=last_seq + 1) as writer:
        writer.emit(
            RunEndEvent(
                seq=0,
                ts=verdict.graded_at,
                status=verdict.status.value,
                wall_time_s=max(verdict.wall_time_s, 0.0),
                healed=True,
            )
        )
    return (
        "run_end: missing after verdict.json (the run stopped between the two); appended from"
        f" verdict.json{dropped}, the agent was not run again"
    )


def _ledger_ended(path: Path) -> bool:
    """True when the ledger's last complete line is its ``run_end`` event (read from the
    tail: a rerun of a large sweep does not parse every ledger)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return False
        start = max(st.st_size - _TAIL_BYTES, 0)
        tail = os.pread(fd, _TAIL_BYTES, start)
    except OSError:
        return False
    finally:
        os.close(fd)
    if not tail.endswith(b"\n"):
        return False
    last = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    try:
        event = load_json(last)
    except BadFile:
        return False
    return isinstance(event, dict) and event.get("kind") == "run_end"


def write_json_atomic(path: Path, data: object) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
