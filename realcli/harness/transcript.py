"""Turn the builtin agent's JSONL stdout into ledger events, line by line, defensively.

The agent is untrusted: a line that is not JSON, not an object, of an unknown type or with
fields of the wrong shape is counted in :attr:`BuiltinTranscript.problems` and skipped; it
never stops the harness. (The raw line is still kept in ``native/``.)
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from realcli.harness.relay import ModelCallRelay
from realcli.ledger.writer import LedgerWriter
from realcli.schema.events import Channel, MessageEvent, ToolCallEvent, ToolResultEvent
from realcli.util.hashing import sha256_bytes
from realcli.util.redact import Redactor

__all__ = ["BUILTIN_TOOLS", "EXCERPT_CHARS", "BuiltinTranscript", "normalise_tool"]

EXCERPT_CHARS = 2000
ARG_CHARS = 20000  # longer string arguments (file contents) are clipped in the ledger
BUILTIN_TOOLS: dict[str, tuple[str, str]] = {
    "shell": ("shell", "exec: shell"),
    "read_file": ("read_file", "fs: read"),
    "write_file": ("write_file", "fs: write"),
    "edit_file": ("edit_file", "fs: edit"),
}
"""raw tool name -> (normalised name, atomic op)."""
WRITING_TOOLS = frozenset({"write_file", "edit_file"})
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def normalise_tool(raw_name: str) -> tuple[str, str]:
    """``(normalised name, atomic op)`` of a builtin tool; unknown tools keep their name."""
    return BUILTIN_TOOLS.get(raw_name, (raw_name or "unknown", f"other: {raw_name or '?'}"))


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


class BuiltinTranscript:
    """Feeds agent stdout lines in; emits ``tool_call``, ``tool_result`` and ``message``."""

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
        self._calls: dict[str, tuple[str, Mapping[str, Any]]] = {}

    def feed(self, line: str) -> None:
        line = line.strip()
        if not line:
            return
        try:
            record = json.loads(line)
        except ValueError:
            self.problems.append(f"not JSON: {line[:200]}")
            return
        if not isinstance(record, dict):
            self.problems.append(f"not an object: {line[:200]}")
            return
        handler = getattr(self, f"_on_{record.get('type')}", None)
        if handler is None:
            self.problems.append(f"unknown record type {record.get('type')!r}")
            return
        try:
            handler(record)
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            self.problems.append(f"bad {record.get('type')} record: {str(exc).splitlines()[0]}")

    # ----------------------------------------------------------------- records
    def _on_session_start(self, record: dict[str, Any]) -> None:
        pass

    def _on_model_response(self, record: dict[str, Any]) -> None:
        if self.model_calls is not None:  # the calls behind this reply come first
            for event in self.model_calls.take_turn():
                self.ledger.emit(event)
        turn = record.get("turn")
        if isinstance(turn, int) and not isinstance(turn, bool):
            self.turns = max(self.turns, turn)

    def _on_message(self, record: dict[str, Any]) -> None:
        text = record["text"]
        if not isinstance(text, str):
            raise TypeError("message text must be a string")
        self.ledger.emit(MessageEvent(seq=0, role="assistant", text=text))

    def _on_tool_call(self, record: dict[str, Any]) -> None:
        call_id, raw_name = str(record["id"]), str(record.get("name") or "")
        args = record.get("arguments")
        args = args if isinstance(args, dict) else {"_raw": args}
        self._calls[call_id] = (raw_name, args)
        name, atomic_op = normalise_tool(raw_name)
        self.ledger.emit(
            ToolCallEvent(
                seq=0,
                call_id=call_id,
                name=name,
                raw_name=raw_name,
                channel=Channel.cli,
                atomic_op=atomic_op,
                args=_clip(args),
            )
        )

    def _on_tool_result(self, record: dict[str, Any]) -> None:
        call_id = str(record["id"])
        output = record.get("output")
        output = output if isinstance(output, str) else json.dumps(output)
        digest = record.get("output_sha256")
        if not (isinstance(digest, str) and _SHA256.match(digest)):
            digest = sha256_bytes(output.encode())
        exit_code = record.get("exit_code")
        duration = record.get("duration_ms")
        ok = record.get("ok") is True
        self.ledger.emit(
            ToolResultEvent(
                seq=0,
                call_id=call_id,
                ok=ok,
                exit_code=exit_code if isinstance(exit_code, int) else None,
                duration_ms=max(float(duration), 0.0) if isinstance(duration, int | float) else 0.0,
                output_digest=digest,
                output_excerpt=self.redactor.text(output)[:EXCERPT_CHARS],
                touched_files=self._touched(call_id) if ok else (),
            )
        )

    def _on_session_end(self, record: dict[str, Any]) -> None:
        self.flush_model_calls()
        self.session_end = record
        turns = record.get("turns")
        if isinstance(turns, int) and not isinstance(turns, bool):
            self.turns = max(self.turns, turns)

    def flush_model_calls(self) -> None:
        """Write every model call still queued (failed calls, or a killed agent's last)."""
        if self.model_calls is not None:
            for event in self.model_calls.drain():
                self.ledger.emit(event)

    def _touched(self, call_id: str) -> tuple[str, ...]:
        raw_name, args = self._calls.get(call_id, ("", {}))
        path = args.get("path")
        if raw_name not in WRITING_TOOLS or not isinstance(path, str) or not path:
            return ()
        path = posixpath.normpath(path)
        prefix = self.workdir + "/"
        return (path[len(prefix) :] if path.startswith(prefix) else path,)
