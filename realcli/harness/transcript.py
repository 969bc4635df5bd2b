"""Turn an agent's native output into ledger events, record by record, defensively.

:class:`Transcript` is the base every harness's parser subclasses: it parses lines (a line
that is not a JSON object is counted in :attr:`Transcript.noise` and skipped: OpenClaw, for
one, mixes log lines into ``--json``), and offers :meth:`~Transcript.tool_call`,
:meth:`~Transcript.tool_result` and :meth:`~Transcript.message`, which normalise the tool
name (per-harness table: raw name -> normalised name, atomic operation), clip huge
arguments, redact outputs, and put the gateway's ``model_call`` events in agent order
(each model call is written just before the first tool call its reply issued).

The agent is untrusted: a record of the wrong shape is counted in
:attr:`Transcript.problems` and skipped; it never stops the harness. (The raw line is still
kept in ``native/``.)
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar, Literal

from pydantic import ValidationError

from realcli.harness.relay import ModelCallRelay
from realcli.ledger.atomic_ops import call_command, display_program
from realcli.ledger.writer import LedgerWriter
from realcli.schema.actions import gui_primitive
from realcli.schema.events import (
    Channel,
    MessageEvent,
    ModelCallEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from realcli.util.hashing import sha256_bytes
from realcli.util.redact import Redactor

__all__ = [
    "BUILTIN_TOOLS",
    "EXCERPT_CHARS",
    "BuiltinTranscript",
    "Transcript",
    "json_objects",
    "normalise_tool",
]

EXCERPT_CHARS = 2000
ARG_CHARS = 20000  # longer string arguments (file contents) are clipped in the ledger
BUILTIN_TOOLS: dict[str, tuple[str, str]] = {
    "shell": ("shell", "exec: shell"),
    "read_file": ("read_file", "fs: read"),
    "write_file": ("write_file", "fs: write"),
    "edit_file": ("edit_file", "fs: edit"),
}
"""raw tool name -> (normalised name, atomic op)."""
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def json_objects(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The JSON objects among ``lines`` (a native log or session file), in order; any other
    line (noise, a torn last line, a JSON value that is not an object) is skipped."""
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            yield record


def gui_via_shell(command: str) -> str | None:
    """The display-driving program a shell command runs, or None: the atomic-op classifier's
    verdict (:func:`realcli.ledger.atomic_ops.display_program`; ``which xclip`` runs ``which``),
    so the ledger's channel and the warehouse's re-attribution agree."""
    return display_program(command)


def normalise_tool(
    raw_name: str, table: Mapping[str, tuple[str, str]] = BUILTIN_TOOLS
) -> tuple[str, str]:
    """``(normalised name, atomic op)`` of a tool; unknown tools keep their name."""
    return table.get(raw_name, (raw_name or "unknown", f"other: {raw_name or '?'}"))


def _clip(value: Any) -> Any:
    if isinstance(value, str) and len(value) > ARG_CHARS:
        digest = sha256_bytes(value.encode())
        return (
            value[:ARG_CHARS] + f"\n[... clipped {len(value) - ARG_CHARS} chars; sha256 {digest}]"
        )
    if isinstance(value, dict):
        return {str(k): _clip(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clip(v) for v in value]
    return value


class Transcript:
    """Base of native-output parsers: feed lines in, ledger events come out.

    Subclasses set :attr:`tools` (raw name -> normalised name, atomic op), :attr:`writing_ops`
    and implement :meth:`on_record`.
    """

    tools: ClassVar[Mapping[str, tuple[str, str]]] = BUILTIN_TOOLS
    writing_ops: ClassVar[frozenset[str]] = frozenset({"fs: write", "fs: edit", "fs: patch"})
    path_keys: ClassVar[tuple[str, ...]] = ("path", "file_path", "filePath", "file")

    def __init__(
        self,
        ledger: LedgerWriter,
        redactor: Redactor,
        workdir: str,
        model_calls: ModelCallRelay | None = None,
    ) -> None:
        self.ledger = ledger
        self.model_calls = model_calls
        self.redactor = redactor
        self.workdir = workdir.rstrip("/") or "/"
        self.turns = 0
        self.session_end: dict[str, Any] | None = None
        self.problems: list[str] = []
        self.noise = 0
        self.call_ids: list[str] = []
        self._calls: dict[str, tuple[str, Mapping[str, Any]]] = {}
        self._results: set[str] = set()
        self._reply: ModelCallEvent | None = None
        """The last answered model call written: the reply being transcribed."""

    # ----------------------------------------------------------------- input
    def feed(self, line: str) -> None:
        """One line of native output. Never raises for bad input."""
        line = line.strip()
        if not line:
            return
        try:
            record = json.loads(line)
        except ValueError:
            self.noise += 1
            return
        if not isinstance(record, dict):
            self.noise += 1
            return
        try:
            self.on_record(record)
        except (ValidationError, ValueError, TypeError, KeyError, AttributeError) as exc:
            kind = record.get("type")
            self.problems.append(f"bad {kind} record: {str(exc).splitlines()[0][:300]}")

    def on_record(self, record: dict[str, Any]) -> None:
        """Handle one JSON object of native output (subclasses)."""
        raise NotImplementedError

    def normalise(self, raw_name: str, args: Mapping[str, Any]) -> tuple[str, str]:
        """``(normalised name, atomic op)`` of one call; adapters may look at the arguments
        (e.g. one editor tool whose ``command`` makes it a read, a write or an edit)."""
        return normalise_tool(raw_name, self.tools)

    # ----------------------------------------------------------------- output
    def calls_before(self, call_id: str | None) -> None:
        """Write the model calls that precede tool call ``call_id`` (all queued if None).

        Nothing when ``call_id`` belongs to the reply already written: the agent may be
        several turns ahead of its transcript, and a later reply may reuse the id."""
        if self.model_calls is None:
            return
        if call_id and self._reply is not None and call_id in self._reply.tool_call_ids:
            return
        events = self.model_calls.take_through(call_id) if call_id else self.model_calls.drain()
        self.emit_calls(events)

    def emit_calls(self, events: list[ModelCallEvent]) -> None:
        """Write model calls taken from the relay; the last answered one is the reply the
        records that follow belong to."""
        for event in events:
            self.ledger.emit(event)
            if event.status == 200:
                self._reply = event

    def _reply_needed(self) -> bool:
        """Whether assistant text read now starts a reply whose model call is not written:
        none written yet, or every tool call of the written one has its result."""
        reply = self._reply
        if reply is None:
            return True
        return bool(reply.tool_call_ids) and all(c in self._results for c in reply.tool_call_ids)

    def tool_call(
        self, call_id: str, raw_name: str, args: Any, *, channel: Channel = Channel.cli
    ) -> None:
        if call_id in self._calls:
            return  # the same call reported twice (started/completed): once in the ledger
        args = args if isinstance(args, dict) else {"_raw": args}
        self.calls_before(call_id)
        self._calls[call_id] = (raw_name, args)
        self.call_ids.append(call_id)
        name, atomic_op = self.normalise(raw_name, args)
        primitive = gui_primitive(raw_name)
        if primitive is not None:  # a GUI tool, by whatever name the harness gives it
            name, atomic_op, channel = f"gui_{primitive}", f"gui: {primitive}", Channel.gui
        elif atomic_op == "exec: shell":
            program = gui_via_shell(call_command(args))
            if program is not None:
                atomic_op, channel = f"gui: via shell ({program})", Channel.gui
        self.ledger.emit(
            ToolCallEvent(
                seq=0,
                call_id=call_id,
                name=name,
                raw_name=raw_name,
                channel=channel,
                atomic_op=atomic_op,
                args=_clip(args),
            )
        )

    def tool_result(
        self,
        call_id: str,
        output: Any,
        *,
        ok: bool,
        exit_code: int | None = None,
        duration_ms: float = 0.0,
        digest: str | None = None,
        touched: tuple[str, ...] | None = None,
    ) -> None:
        if call_id in self._results:
            return
        self._results.add(call_id)
        text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
        if not (isinstance(digest, str) and _SHA256.match(digest)):
            digest = sha256_bytes(text.encode())
        self.ledger.emit(
            ToolResultEvent(
                seq=0,
                call_id=call_id,
                ok=ok,
                exit_code=exit_code,
                duration_ms=max(float(duration_ms), 0.0),
                output_digest=digest,
                output_excerpt=self.redactor.text(text)[:EXCERPT_CHARS],
                touched_files=(touched if touched is not None else self._touched(call_id))
                if ok
                else (),
            )
        )

    def message(self, text: str, role: Literal["assistant", "user"] = "assistant") -> None:
        if not isinstance(text, str):
            raise TypeError("message text must be a string")
        if role == "assistant" and self.model_calls is not None and self._reply_needed():
            # the reply this text is part of; never the calls of turns the agent has made
            # since (its transcript can lag behind it)
            self.emit_calls(self.model_calls.take_answered())
        self.ledger.emit(MessageEvent(seq=0, role=role, text=text))

    def flush_model_calls(self) -> None:
        """Write every model call still queued (failed calls, or a killed agent's last)."""
        if self.model_calls is not None:
            self.emit_calls(self.model_calls.drain())

    def relative(self, path: str) -> str:
        path = posixpath.normpath(path)
        prefix = self.workdir + "/"
        return path[len(prefix) :] if path.startswith(prefix) else path

    def _touched(self, call_id: str) -> tuple[str, ...]:
        raw_name, args = self._calls.get(call_id, ("", {}))
        if self.normalise(raw_name, args)[1] not in self.writing_ops:
            return ()
        for key in self.path_keys:
            path = args.get(key)
            if isinstance(path, str) and path:
                return (self.relative(path),)
        return ()


class BuiltinTranscript(Transcript):
    """The builtin agent's JSONL records: ``session_start``, ``model_response``, ``message``,
    ``tool_call``, ``tool_result``, ``session_end``."""

    def feed(self, line: str) -> None:
        before = self.noise
        super().feed(line)
        if self.noise != before:
            self.problems.append(f"not a JSON object: {line.strip()[:200]}")

    def on_record(self, record: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{record.get('type')}", None)
        if handler is None:
            self.problems.append(f"unknown record type {record.get('type')!r}")
            return
        handler(record)

    def _on_session_start(self, record: dict[str, Any]) -> None:
        pass

    def _on_model_response(self, record: dict[str, Any]) -> None:
        if self.model_calls is not None:  # the calls behind this reply come first
            self.emit_calls(self.model_calls.take_turn())
        turn = record.get("turn")
        if isinstance(turn, int) and not isinstance(turn, bool):
            self.turns = max(self.turns, turn)

    def _on_message(self, record: dict[str, Any]) -> None:
        self.message(record["text"])

    def _on_tool_call(self, record: dict[str, Any]) -> None:
        self.tool_call(str(record["id"]), str(record.get("name") or ""), record.get("arguments"))

    def _on_tool_result(self, record: dict[str, Any]) -> None:
        exit_code = record.get("exit_code")
        duration = record.get("duration_ms")
        self.tool_result(
            str(record["id"]),
            record.get("output"),
            ok=record.get("ok") is True,
            exit_code=exit_code if isinstance(exit_code, int) else None,
            duration_ms=float(duration) if isinstance(duration, int | float) else 0.0,
            digest=record.get("output_sha256"),
        )

    def _on_session_end(self, record: dict[str, Any]) -> None:
        self.flush_model_calls()
        self.session_end = record
        turns = record.get("turns")
        if isinstance(turns, int) and not isinstance(turns, bool):
            self.turns = max(self.turns, turns)
