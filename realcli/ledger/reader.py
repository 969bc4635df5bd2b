"""Tolerant ledger reader: a truncated or corrupt line marks the run incomplete, nothing more."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from realcli.schema.events import Event, EventAdapter, HeaderEvent
from realcli.util.errors import LedgerError

__all__ = ["LedgerContents", "read_ledger"]


@dataclass
class LedgerContents:
    path: Path
    header: HeaderEvent
    events: list[Event] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when every line parsed and the run reached its ``run_end`` event."""
        return not self.problems and any(e.kind == "run_end" for e in self.events)


def read_ledger(path: Path) -> LedgerContents:
    """Parse ``path``. Raises :class:`LedgerError` only when the header itself is unusable."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LedgerError(
            str(path), None, f"cannot read ledger: {exc}", "check the run folder"
        ) from exc
    lines = raw.split(b"\n")
    if not lines or not lines[0].strip():
        raise LedgerError(str(path), "line 1", "empty ledger, no header", "rerun this run")
    try:
        header = HeaderEvent.model_validate(json.loads(lines[0]))
    except (ValueError, ValidationError) as exc:
        raise LedgerError(
            str(path), "line 1", f"unreadable header ({_first_line(exc)})", "rerun this run"
        ) from exc
    contents = LedgerContents(path=path, header=header)
    last = len(lines) - 1
    for i, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            contents.events.append(EventAdapter.validate_python(json.loads(line)))
        except (ValueError, ValidationError) as exc:
            where = "truncated last line" if i - 1 == last else "corrupt line"
            contents.problems.append(f"{path}: line {i}: {where} ({_first_line(exc)})")
    if not raw.endswith(b"\n") and not contents.problems:
        contents.problems.append(f"{path}: line {last + 1}: last line has no newline")
    return contents


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:200]
