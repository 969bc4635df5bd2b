"""The openhands harness's transcript: the CLI's ``--json`` events -> ledger events, and the
kept conversation read back (see :mod:`realcli.harness.openhands`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from realcli.harness.transcript import Transcript, normalise_tool

__all__ = ["FILE_EDITOR_OPS", "OPENHANDS_TOOLS", "OpenHandsTranscript", "read_events"]

OPENHANDS_TOOLS: dict[str, tuple[str, str]] = {
    "terminal": ("shell", "exec: shell"),
    "file_editor": ("file_editor", "fs: edit"),
    "finish": ("finish", "other: finish"),
    "think": ("think", "other: think"),
    "task_tracker": ("task_tracker", "other: task_tracker"),
    "task": ("task", "other: task"),
}
"""raw tool name -> (normalised name, atomic op); ``file_editor`` by its command below."""
FILE_EDITOR_OPS: dict[str, tuple[str, str]] = {
    "view": ("read_file", "fs: read"),
    "create": ("write_file", "fs: write"),
    "str_replace": ("edit_file", "fs: edit"),
    "insert": ("edit_file", "fs: edit"),
    "undo_edit": ("edit_file", "fs: edit"),
}
"""``file_editor`` command -> (normalised name, atomic op)."""
_EVENT_FILE = re.compile(r"^event-(\d+)-.*\.json$")


def _text(content: Any) -> str:
    """The text of an SDK content list (``[{"type": "text", "text": ...}, ...]``)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        str(part.get("text") or "")
        for part in content
        if isinstance(part, dict) and part.get("type") == "text"
    )


def _ts(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


class OpenHandsTranscript(Transcript):
    """``--json`` events -> ledger events."""

    tools = OPENHANDS_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.response_ids: list[str] = []
        self.errors: list[tuple[str, str]] = []
        """``(code, detail)`` of each ``ConversationErrorEvent``."""
        self.status: str | None = None
        """``execution_status`` of ``base_state.json`` (set after the run, when readable)."""
        self.finished = False
        """The agent called ``finish``."""
        self.user_messages = 0
        self.ignored: dict[str, int] = {}
        self._started: dict[str, datetime] = {}

    # ----------------------------------------------------------------- records
    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("kind")
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            key = str(kind)
            self.ignored[key] = self.ignored.get(key, 0) + 1
            return
        handler(record)

    def _turn(self, record: dict[str, Any]) -> None:
        reply = record.get("llm_response_id")
        if isinstance(reply, str) and reply and reply not in self.response_ids:
            self.response_ids.append(reply)
            self.turns = len(self.response_ids)

    def _on_MessageEvent(self, record: dict[str, Any]) -> None:
        message = record["llm_message"]
        text = _text(message.get("content"))
        if record.get("source") == "agent":
            self._turn(record)
            self.message(text)
            return
        self.user_messages += 1
        if self.user_messages > 1:  # the first is the instruction (already in the ledger)
            self.message(text, role="user")

    def _on_ActionEvent(self, record: dict[str, Any]) -> None:
        reply = record.get("llm_response_id")
        first_of_reply = not (isinstance(reply, str) and reply in self.response_ids)
        self._turn(record)
        call_id = str(record["tool_call_id"])
        name = str(record.get("tool_name") or "")
        call = record.get("tool_call") or {}
        raw = call.get("arguments") if isinstance(call, dict) else None
        try:
            args = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            args = {"_raw": raw}
        if not isinstance(args, dict):
            args = {"_raw": raw}
        thought = _text(record.get("thought"))
        if first_of_reply and thought.strip():
            self.message(thought)
        self.tool_call(call_id, name, args)
        started = _ts(record.get("timestamp"))
        if started is not None:
            self._started[call_id] = started
        action = record.get("action")
        if name == "finish" and isinstance(action, dict):
            self.finished = True
            self.message(str(action.get("message") or ""))

    def _on_ObservationEvent(self, record: dict[str, Any]) -> None:
        call_id = str(record["tool_call_id"])
        observation = record.get("observation") or {}
        output = _text(observation.get("content"))
        code = observation.get("exit_code")
        exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
        ok = observation.get("is_error") is not True and exit_code in (None, 0)
        self.tool_result(
            call_id, output, ok=ok, exit_code=exit_code, duration_ms=self._duration(call_id, record)
        )

    def _on_AgentErrorEvent(self, record: dict[str, Any]) -> None:
        call_id = record.get("tool_call_id")
        if call_id:  # the tool call's result: unknown tool, bad arguments, ...
            cid = str(call_id)
            error = str(record.get("error") or "")
            self.tool_result(cid, error, ok=False, duration_ms=self._duration(cid, record))
        else:
            self.problems.append(f"agent error: {str(record.get('error'))[:300]}")

    def _on_UserRejectObservation(self, record: dict[str, Any]) -> None:
        cid = str(record["tool_call_id"])
        reason = str(record.get("rejection_reason") or "rejected")
        self.tool_result(cid, reason, ok=False, duration_ms=self._duration(cid, record))

    def _on_ConversationErrorEvent(self, record: dict[str, Any]) -> None:
        self.calls_before(None)
        self.errors.append((str(record.get("code") or ""), str(record.get("detail") or "")))

    def _duration(self, call_id: str, record: dict[str, Any]) -> float:
        started, ended = self._started.get(call_id), _ts(record.get("timestamp"))
        if started is None or ended is None:
            return 0.0
        return max((ended - started).total_seconds() * 1000.0, 0.0)

    # ----------------------------------------------------------------- file_editor
    def normalise(self, raw_name: str, args: Mapping[str, Any]) -> tuple[str, str]:
        """``(normalised name, atomic op)`` of a call: ``file_editor`` by its command."""
        if raw_name == "file_editor":
            kind = FILE_EDITOR_OPS.get(str(args.get("command")))
            if kind is not None:
                return kind
        return normalise_tool(raw_name, self.tools)


def read_events(conversation: Path) -> list[dict[str, Any]]:
    """The event files of a kept conversation folder, in event order."""
    numbered: list[tuple[int, Path]] = []
    for path in (conversation / "events").glob("event-*.json"):
        m = _EVENT_FILE.match(path.name)
        if m:
            numbered.append((int(m.group(1)), path))
    out: list[dict[str, Any]] = []
    for _, path in sorted(numbered):
        record = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(record, dict):
            out.append(record)
    return out
