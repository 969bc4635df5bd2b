"""The tap's JSON lines (Hermes's ``state.db`` rows) -> ledger events (see
:mod:`realcli.harness.hermes`)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from realcli.harness.transcript import Transcript, json_objects
from realcli.schema.events import MessageEvent

__all__ = [
    "HERMES_TOOLS",
    "MAX_ITERATIONS_PROMPT",
    "SUMMARY_FAILED",
    "HermesTranscript",
    "json_prefix",
    "read_rows",
]

HERMES_TOOLS: dict[str, tuple[str, str]] = {
    "terminal": ("shell", "exec: shell"),
    "process": ("process", "other: process"),
    "read_file": ("read_file", "fs: read"),
    "write_file": ("write_file", "fs: write"),
    "patch": ("edit_file", "fs: edit"),
    "search_files": ("search_files", "fs: search"),
}
"""raw tool name -> (normalised name, atomic op)."""
MAX_ITERATIONS_PROMPT = "You've reached the maximum number of tool-calling iterations allowed."
"""Start of the user message Hermes adds when ``--max-turns`` runs out (asking for a summary)."""
SUMMARY_FAILED = re.compile(r"I reached the maximum iterations \(\d+\) but couldn't summarize\.")
"""The text Hermes stores as the assistant's answer when its summary call failed (made up,
not a model reply)."""


UNTRUSTED = re.compile(
    r'^<untrusted_tool_result source="[^"]*">\n.*?\n\n(?P<body>.*)\n</untrusted_tool_result>',
    re.DOTALL,
)
"""The frame Hermes puts around a longer result of a tool it deems a source of untrusted data
(MCP tools, e.g. the GUI server's ``mcp__gui__*``, web, browser): one warning line, a blank
line, the tool's JSON result."""


def unframed(text: str) -> str:
    """A tool result without Hermes's ``<untrusted_tool_result>`` frame (if it has one)."""
    match = UNTRUSTED.match(text)
    return match.group("body") if match else text


def json_prefix(text: Any) -> Any:
    """The JSON value at the start of ``text`` (Hermes appends notes such as a "[Tool loop
    warning: ...]" after a tool's JSON result), or None."""
    if not isinstance(text, str):
        return None
    try:
        return json.JSONDecoder().raw_decode(text.lstrip())[0]
    except ValueError:
        return None


class HermesTranscript(Transcript):
    """The tap's JSON lines (Hermes's ``state.db`` rows) -> ledger events."""

    tools = HERMES_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sessions: list[dict[str, Any]] = []
        self.totals: list[dict[str, Any]] = []
        """The ``sessions`` rows (counters, no system prompt) as last seen by the tap."""
        self.stdout: list[str] = []
        self.rows = 0
        self.user_rows = 0
        self.max_iterations = False
        """Hermes ran out of ``--max-turns`` and asked for a summary."""
        self.summary: str | None = None
        """``answered`` / ``failed``: how that summary call went."""

    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "message":
            self._row(record["row"])
        elif kind == "stdout":
            self.stdout.append(str(record.get("text", "")))
        elif kind == "session":
            self.sessions.append(record["row"])
        elif kind == "totals":
            totals = record["sessions"]
            if not isinstance(totals, list):
                raise TypeError("totals.sessions must be a list")
            self.totals = totals
        elif kind == "tap_end":
            self.calls_before(None)
            self.session_end = record
        # tap_start: nothing to record

    def _row(self, row: dict[str, Any]) -> None:
        self.rows += 1
        role = row.get("role")
        if role == "assistant":
            self._assistant(row)
        elif role == "tool":
            self._tool(row)
        elif role == "user":
            self.user_rows += 1
            text = row.get("content")
            if self.user_rows > 1 and isinstance(text, str):  # the first is the instruction
                self.max_iterations |= text.startswith(MAX_ITERATIONS_PROMPT)
                self.ledger.emit(MessageEvent(seq=0, role="user", text=text))

    def _take_turn(self, first_call: str | None) -> None:
        """Write the model calls behind one assistant row: through the reply that issued
        ``first_call``, else (a text reply) through the first answered call."""
        if self.model_calls is None:
            return
        events = self.model_calls.take_through(first_call) if first_call else []
        if not events:
            events = self.model_calls.take_turn(timeout_s=2.0)
        self.emit_calls(events)

    def _assistant(self, row: dict[str, Any]) -> None:
        text = row.get("content")
        if self.max_iterations and self.summary is None:
            failed = isinstance(text, str) and SUMMARY_FAILED.match(text) is not None
            self.summary = "failed" if failed else "answered"
            if failed:  # Hermes's own words; its failed call stays queued for the end
                return
        self.turns += 1
        calls = json_prefix(row.get("tool_calls")) if row.get("tool_calls") else []
        if not isinstance(calls, list):
            self.problems.append(f"row {row.get('id')}: tool_calls is not a JSON list")
            calls = []
        calls = [c for c in calls if isinstance(c, dict) and c.get("id")]
        self._take_turn(str(calls[0]["id"]) if calls else None)
        if isinstance(text, str) and text.strip():
            self.ledger.emit(MessageEvent(seq=0, role="assistant", text=text))
        for call in calls:
            fn = call.get("function") or {}
            raw = fn.get("arguments")
            args = json_prefix(raw) if isinstance(raw, str) else raw
            if not isinstance(args, dict):
                args = {"_raw": raw}
            self.tool_call(str(call["id"]), str(fn.get("name") or ""), args)

    def _tool(self, row: dict[str, Any]) -> None:
        call_id = str(row["tool_call_id"])
        output = row.get("content")
        output = output if isinstance(output, str) else ""
        result = json_prefix(unframed(output))
        raw_name = self._calls.get(call_id, (str(row.get("tool_name") or ""), {}))[0]
        exit_code: int | None = None
        touched: tuple[str, ...] | None = None
        if not isinstance(result, dict):
            ok = False  # e.g. "Tool 'x' does not exist. Available tools: ..."
        elif raw_name == "terminal":
            code = result.get("exit_code")
            exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
            ok = exit_code == 0 and not result.get("error")
        else:
            ok = not result.get("error") and result.get("success") is not False
            modified = result.get("files_modified")
            if isinstance(modified, list):
                touched = tuple(self.relative(str(p)) for p in modified if p)
        self.tool_result(call_id, output, ok=ok, exit_code=exit_code, touched=touched)


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The ``state.db`` message rows in a kept tap stream (``stdout.jsonl``), in order."""
    out: list[dict[str, Any]] = []
    for record in json_objects(path.read_text(encoding="utf-8").splitlines()):
        row = record.get("row")
        if record.get("type") == "message" and isinstance(row, dict):
            out.append(row)
    return out
