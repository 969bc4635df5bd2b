"""Tolerant ledger reader: a truncated or corrupt line marks the run incomplete, nothing more.

Bounded (``realcli.util.bounded``): the ledger is opened without following a link and must be a
regular file of at most :data:`MAX_LEDGER_BYTES`; a line longer than :data:`MAX_LINE_BYTES`,
nested deeper than ``json.loads`` can parse (about 1,000 levels) or with one of the event's own
fields an integer outside int64 is a corrupt line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from realcli.schema.events import Event, EventAdapter, HeaderEvent
from realcli.util.bounded import MIB, BadFile, check_ints, load_json, read_bounded
from realcli.util.errors import LedgerError

__all__ = ["MAX_LEDGER_BYTES", "MAX_LINE_BYTES", "LedgerContents", "read_ledger"]

MAX_LEDGER_BYTES = 1024 * MIB
"""A ledger larger than this is not read (a long run's ledger is a few MiB)."""
MAX_LINE_BYTES = 64 * MIB
"""One event larger than this is a corrupt line."""


@dataclass
class LedgerContents:
    path: Path
    header: HeaderEvent
    events: list[Event] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    bad_lines: list[tuple[int, str]] = field(default_factory=list)
    """(line number, what is wrong) of each line in ``problems``."""

    @property
    def complete(self) -> bool:
        """True when every line parsed and the run reached its ``run_end`` event."""
        return not self.problems and any(e.kind == "run_end" for e in self.events)


def read_ledger(path: Path) -> LedgerContents:
    """Parse ``path``. Raises :class:`LedgerError` only when the header itself is unusable."""
    try:
        raw = read_bounded(path, MAX_LEDGER_BYTES)
    except FileNotFoundError as exc:
        raise LedgerError(
            str(path), None, "cannot read ledger: missing", "check the run folder"
        ) from exc
    except BadFile as exc:
        raise LedgerError(
            str(path), None, f"cannot read ledger: {exc}", "check the run folder"
        ) from exc
    lines = raw.split(b"\n")
    if not lines or not lines[0].strip():
        raise LedgerError(str(path), "line 1", "empty ledger, no header", "rerun this run")
    try:
        header = HeaderEvent.model_validate(_load_line(lines[0]))
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
            contents.events.append(EventAdapter.validate_python(_load_line(line)))
        except (ValueError, ValidationError) as exc:
            where = "truncated last line" if i - 1 == last else "corrupt line"
            contents.problems.append(f"{path}: line {i}: {where} ({_first_line(exc)})")
            contents.bad_lines.append((i, f"{where} ({_first_line(exc)})"))
    if not raw.endswith(b"\n") and not contents.problems:
        contents.problems.append(f"{path}: line {last + 1}: last line has no newline")
        contents.bad_lines.append((last + 1, "last line has no newline"))
    return contents


def _load_line(line: bytes) -> object:
    if len(line) > MAX_LINE_BYTES:
        raise BadFile(f"{len(line)} bytes, more than the {MAX_LINE_BYTES // MIB} MiB line cap")
    value = load_json(line, ints=False)
    if not isinstance(value, dict):
        raise BadFile(f"not a JSON object but {type(value).__name__}")
    # the event's own fields become warehouse columns: int64. Free-form objects (a tool call's
    # ``args``, the header's ``spec``) are stored as JSON text, so the agent's big numbers there
    # never make its line corrupt.
    check_ints({k: v for k, v in value.items() if not isinstance(v, dict)})
    return value


def _first_line(exc: Exception) -> str:
    """One line about ``exc``; for a validation error, its first error's field and message."""
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return (f"{where}: " if where else "") + str(first["msg"])[:200]
    return str(exc).splitlines()[0][:200]
