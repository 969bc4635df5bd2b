"""OpenClaw's tailer stream -> ledger events, and what it says about the session (see
:mod:`realcli.harness.openclaw`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from realcli.harness.transcript import Transcript, json_objects
from realcli.schema.events import MessageEvent

__all__ = [
    "OPENCLAW_TOOLS",
    "OpenClawTranscript",
    "SessionSummary",
    "parse_envelope",
    "read_records",
    "summarize",
]

OPENCLAW_TOOLS: dict[str, tuple[str, str]] = {
    "exec": ("shell", "exec: shell"),
    "bash": ("shell", "exec: shell"),
    "process": ("process", "exec: process"),
    "read": ("read_file", "fs: read"),
    "write": ("write_file", "fs: write"),
    "edit": ("edit_file", "fs: edit"),
    "apply_patch": ("apply_patch", "fs: patch"),
    "ls": ("list_dir", "fs: list"),
}
"""raw tool name -> (normalised name, atomic op)."""
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.MULTILINE)


# ----------------------------------------------------------------- native records
def read_records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The JSON-object lines of the tailer's stream (anything else is skipped)."""
    return json_objects(lines)


def parse_envelope(stdout: str) -> dict[str, Any] | None:
    """OpenClaw's ``--json`` envelope from its stdout, which may carry other lines: the
    whole text, else the text from the first line that opens an object, else the last
    parseable object that starts a line."""
    text = stdout.strip()
    candidates = [text]
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("{")]
    candidates += ["\n".join(lines[i:]) for i in starts]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    decoder = json.JSONDecoder()
    for i in reversed(starts):
        try:
            value, _ = decoder.raw_decode("\n".join(lines[i:]))
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text") or ""))
            elif isinstance(block, dict):
                parts.append(f"[{block.get('type')}]")
        return "\n".join(parts)
    return "" if content is None else json.dumps(content, ensure_ascii=False)


def _is_model_reply(message: Mapping[str, Any]) -> bool:
    """An assistant row that is a model's answer (not OpenClaw's terminal-error row)."""
    return message.get("role") == "assistant" and message.get("stopReason") != "error"


@dataclass
class SessionSummary:
    """What the tailer's stream says about the session (for the fidelity check)."""

    model_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    tool_call_ids: list[str] = field(default_factory=list)
    tool_pool: list[str] | None = None
    errors: list[str] = field(default_factory=list)
    exit: dict[str, Any] | None = None


def summarize(records: Iterable[Mapping[str, Any]]) -> SessionSummary:
    """Model replies (assistant rows but OpenClaw's terminal-error rows) with their usage:
    tokens in = ``input`` + ``cacheRead`` + ``cacheWrite``; tool call ids in order; the tool
    pool of the first ``context.compiled`` trajectory event; terminal model errors."""
    out = SessionSummary()
    for record in records:
        kind = record.get("type")
        event = record.get("event")
        if kind == "openclaw.exit":
            out.exit = dict(record)
        if not isinstance(event, Mapping):
            continue
        if kind == "openclaw.trajectory" and event.get("type") == "context.compiled":
            tools = (event.get("data") or {}).get("tools")
            if out.tool_pool is None and isinstance(tools, list):
                out.tool_pool = [str(t.get("name")) for t in tools if isinstance(t, Mapping)]
        if kind != "openclaw.transcript" or event.get("type") != "message":
            continue
        message = event.get("message")
        if not isinstance(message, Mapping) or message.get("role") != "assistant":
            continue
        if not _is_model_reply(message):
            out.errors.append(str(message.get("errorMessage") or "model error"))
            continue
        out.model_calls += 1
        usage = message.get("usage") if isinstance(message.get("usage"), Mapping) else {}
        assert isinstance(usage, Mapping)
        out.tokens_in += sum(int(usage.get(k) or 0) for k in ("input", "cacheRead", "cacheWrite"))
        out.tokens_out += int(usage.get("output") or 0)
        for block in message.get("content") or []:
            if isinstance(block, Mapping) and block.get("type") == "toolCall":
                call_id = str(block.get("id"))
                if call_id not in out.tool_call_ids:
                    out.tool_call_ids.append(call_id)
    return out


# ----------------------------------------------------------------- transcript
class OpenClawTranscript(Transcript):
    """The tailer's stream -> ledger events (see the module docstring)."""

    tools = OPENCLAW_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.envelope: dict[str, Any] | None = None
        self.exit: dict[str, Any] | None = None
        self.model_errors: list[str] = []
        self.tool_pool: list[str] | None = None

    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "openclaw.transcript":
            self._transcript(record["event"])
        elif kind == "openclaw.trajectory":
            self._trajectory(record["event"])
        elif kind == "openclaw.exit":
            self._exit(record)
        elif kind == "openclaw.tail_error":
            self.problems.append(f"tailer: {record.get('error')}")

    def _transcript(self, event: Mapping[str, Any]) -> None:
        if event.get("type") != "message":
            return  # session header, model/thinking changes, custom entries
        message = event["message"]
        role = message.get("role")
        if role == "assistant":
            self._assistant(message)
        elif role == "toolResult":
            self._tool_result(message)

    def _assistant(self, message: Mapping[str, Any]) -> None:
        if not _is_model_reply(message):
            self.model_errors.append(str(message.get("errorMessage") or "model error"))
            return
        self.turns += 1
        if self.model_calls is not None:  # this reply's calls (failed attempts first)
            self.emit_calls(self.model_calls.take_turn())
        for block in message.get("content") or []:
            if not isinstance(block, Mapping):
                continue
            if block.get("type") == "text" and block.get("text"):
                self.ledger.emit(MessageEvent(seq=0, role="assistant", text=str(block["text"])))
            elif block.get("type") == "toolCall":
                self.tool_call(
                    str(block["id"]), str(block.get("name") or ""), block.get("arguments")
                )

    def _tool_result(self, message: Mapping[str, Any]) -> None:
        call_id = str(message["toolCallId"])
        details = message.get("details") if isinstance(message.get("details"), Mapping) else {}
        assert isinstance(details, Mapping)
        failed = message.get("isError") is True
        exit_code = details.get("exitCode")
        exit_code = (
            exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None
        )
        duration = details.get("durationMs")
        self.tool_result(
            call_id,
            _text_of(message.get("content")),
            ok=not failed and exit_code in (None, 0),
            exit_code=exit_code,
            duration_ms=float(duration) if isinstance(duration, int | float) else 0.0,
            touched=self._patched(call_id),
        )

    def _patched(self, call_id: str) -> tuple[str, ...] | None:
        """Files an ``apply_patch`` call names (None: the default, a ``path`` argument)."""
        raw_name, args = self._calls.get(call_id, ("", {}))
        if raw_name != "apply_patch":
            return None
        patch = args.get("input")
        names = _PATCH_FILE.findall(patch) if isinstance(patch, str) else []
        return tuple(dict.fromkeys(self.relative(n) for n in names))

    def _trajectory(self, event: Mapping[str, Any]) -> None:
        if event.get("type") == "context.compiled" and self.tool_pool is None:
            tools = (event.get("data") or {}).get("tools")
            if isinstance(tools, list):
                self.tool_pool = [str(t.get("name")) for t in tools if isinstance(t, Mapping)]

    def _exit(self, record: Mapping[str, Any]) -> None:
        self.flush_model_calls()
        self.exit = dict(record)
        stdout = record.get("stdout")
        self.envelope = parse_envelope(stdout) if isinstance(stdout, str) else None
        self.session_end = {
            "code": record.get("code"),
            "signal": record.get("signal"),
            "envelope": self.envelope,
        }
