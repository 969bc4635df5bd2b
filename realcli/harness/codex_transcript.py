"""The codex harness's transcript: the tap's JSON lines -> ledger events, and the rollout
(Codex's session file) read back for the fidelity check (see :mod:`realcli.harness.codex`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realcli.harness.transcript import Transcript, json_objects

__all__ = ["CODEX_TOOLS", "CodexTranscript", "read_rollout", "rollout_summary"]

CODEX_TOOLS: dict[str, tuple[str, str]] = {
    "exec_command": ("shell", "exec: shell"),
    "write_stdin": ("write_stdin", "exec: stdin"),
    "apply_patch": ("apply_patch", "fs: patch"),
    "view_image": ("view_image", "fs: read image"),
    "update_plan": ("update_plan", "other: plan"),
    "exec": ("exec", "exec: code"),
}
"""raw tool name -> (normalised name, atomic op)."""
_EXIT_CODE = re.compile(r"^Process exited with code (-?\d+)$", re.M)
_PATCH_EXIT = re.compile(r"^Exit code: (-?\d+)$", re.M)
_RUNNING = re.compile(r"^Process running with session ID (\d+)$", re.M)
_FAILED_CALL = ("unsupported call:", "failed to parse function arguments")


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {"_raw": raw}


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "\n".join(
            str(p.get("text", f"[{p.get('type', 'part')}]")) for p in output if isinstance(p, dict)
        )
    return "" if output is None else json.dumps(output)


def _call_name(payload: Mapping[str, Any]) -> str:
    name = str(payload.get("name") or "")
    namespace = payload.get("namespace")
    if isinstance(namespace, str) and namespace and namespace != "functions":
        return f"{namespace}__{name}"
    return name


def _duration_ms(item: Mapping[str, Any]) -> float:
    duration = item.get("duration")
    if isinstance(duration, Mapping):
        secs, nanos = duration.get("secs", 0), duration.get("nanos", 0)
        if isinstance(secs, int | float) and isinstance(nanos, int | float):
            return float(secs) * 1000.0 + float(nanos) / 1e6
    return 0.0


class CodexTranscript(Transcript):
    """The tap's JSON lines (Codex's rollout records and stdout events) -> ledger events."""

    tools = CODEX_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.items: dict[str, dict[str, Any]] = {}
        """``item_completed`` items by id (a call's exit code, duration, changed files)."""
        self.usage: list[tuple[int, int]] = []
        """(input, output) tokens of each model response, as Codex recorded them."""
        self.catalog: dict[str, Any] | None = None
        self.errors: list[str] = []
        """Codex's error events (gateway retries, a failed turn)."""
        self.failed: str | None = None
        self.task_complete: dict[str, Any] | None = None
        self.exec_events = 0

    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "rollout":
            self._rollout(record["record"])
        elif kind == "exec":
            self._exec(record.get("event"))
        elif kind == "catalog":
            self.catalog = record
        elif kind == "tap_error":
            self.problems.append(f"tap {record.get('stage')}: {record.get('error')}")
        elif kind == "tap_end":
            self.calls_before(None)
            self.session_end = record
        # tap_start: nothing to record

    # ----------------------------------------------------------------- stdout
    def _exec(self, event: Any) -> None:
        if not isinstance(event, dict):
            return
        self.exec_events += 1
        kind = event.get("type")
        if kind == "error":
            self.errors.append(str(event.get("message", "")))
        elif kind == "turn.failed":
            error = event.get("error")
            message = error.get("message") if isinstance(error, dict) else error
            self.failed = str(message or "turn failed")

    # ----------------------------------------------------------------- rollout
    def _rollout(self, record: Any) -> None:
        if not isinstance(record, dict):
            raise TypeError("a rollout record must be an object")
        payload = record.get("payload")
        if not isinstance(payload, dict):
            return
        kind = record.get("type")
        if kind == "response_item":
            self._response_item(payload)
        elif kind == "token_usage_record":
            usage = payload.get("usage") or {}
            self.usage.append(
                (int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)))
            )
            self.turns = len(self.usage)
        elif kind == "event_msg":
            self._event(payload)

    def _response_item(self, item: dict[str, Any]) -> None:
        kind = item.get("type")
        if kind == "message" and item.get("role") == "assistant":
            text = "\n".join(
                str(p.get("text", ""))
                for p in item.get("content") or []
                if isinstance(p, dict) and p.get("type") == "output_text"
            )
            if text:
                self.message(text)
        elif kind == "function_call":
            self.tool_call(
                str(item["call_id"]), _call_name(item), _arguments(item.get("arguments"))
            )
        elif kind == "custom_tool_call":
            self.tool_call(str(item["call_id"]), _call_name(item), {"input": item.get("input", "")})
        elif kind in ("function_call_output", "custom_tool_call_output"):
            self._result(str(item["call_id"]), item.get("output"))

    def _result(self, call_id: str, output: Any) -> None:
        text = _output_text(output)
        raw_name = self._calls.get(call_id, ("", {}))[0]
        item = self.items.get(call_id, {})
        exit_code: int | None = None
        touched: tuple[str, ...] | None = None
        if text.startswith(_FAILED_CALL):
            ok = False
        elif item.get("type") == "FileChange" or raw_name == "apply_patch":
            match = _PATCH_EXIT.search(text)
            exit_code = int(match.group(1)) if match else None
            ok = item.get("status") == "completed" if item else exit_code == 0
            changes = item.get("changes")
            if isinstance(changes, dict):
                touched = tuple(self.relative(str(p)) for p in changes)
        elif raw_name in ("exec_command", "write_stdin") or item.get("type") == "CommandExecution":
            match = _EXIT_CODE.search(text)
            code = item.get("exit_code") if item.get("type") == "CommandExecution" else None
            exit_code = code if isinstance(code, int) else int(match.group(1)) if match else None
            ok = exit_code == 0 if exit_code is not None else bool(_RUNNING.search(text))
        else:
            ok = True
        self.tool_result(
            call_id,
            text,
            ok=ok,
            exit_code=exit_code,
            duration_ms=_duration_ms(item),
            touched=touched,
        )

    def _event(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "item_completed":
            item = payload.get("item")
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                self.items[item["id"]] = item
                if item["id"] not in self._calls and item.get("type") in (
                    "CommandExecution",
                    "FileChange",
                ):
                    self._nested(item)
        elif kind == "task_complete":
            self.task_complete = payload
            error = payload.get("error")
            if isinstance(error, dict) and error.get("message"):
                self.failed = self.failed or str(error["message"])

    def _nested(self, item: dict[str, Any]) -> None:
        """A tool call made by a code-mode ``exec`` script (Codex's own id, ``exec-...``)."""
        call_id = str(item["id"])
        if item.get("type") == "CommandExecution":
            command = item.get("command")
            cmd = command[-1] if isinstance(command, list) and command else str(command)
            self.tool_call(call_id, "exec_command", {"cmd": cmd})
            code = item.get("exit_code")
            exit_code = code if isinstance(code, int) else None
            output = str(item.get("aggregated_output", ""))
            self.tool_result(
                call_id,
                output,
                ok=exit_code == 0,
                exit_code=exit_code,
                duration_ms=_duration_ms(item),
            )
        else:
            changes = item.get("changes")
            paths = [str(p) for p in changes] if isinstance(changes, dict) else []
            self.tool_call(call_id, "apply_patch", {"paths": paths})
            output = str(item.get("stdout", "")) + str(item.get("stderr", ""))
            touched = tuple(self.relative(p) for p in paths)
            self.tool_result(call_id, output, ok=item.get("status") == "completed", touched=touched)


def read_rollout(path: Path) -> list[dict[str, Any]]:
    """The records of a rollout file (lines that are not JSON objects are skipped)."""
    return list(json_objects(path.read_text(encoding="utf-8").splitlines()))


def rollout_summary(records: list[dict[str, Any]]) -> tuple[int, int, int, tuple[str, ...]]:
    """``(model responses, input tokens, output tokens, tool call ids)`` of a rollout."""
    calls = tokens_in = tokens_out = 0
    ids: list[str] = []
    for record in records:
        payload = record.get("payload")
        if not isinstance(payload, dict):
            continue
        if record.get("type") == "token_usage_record":
            usage = payload.get("usage") or {}
            calls += 1
            tokens_in += int(usage.get("input_tokens", 0))
            tokens_out += int(usage.get("output_tokens", 0))
        elif record.get("type") == "response_item" and payload.get("type") in (
            "function_call",
            "custom_tool_call",
        ):
            ids.append(str(payload.get("call_id")))
        elif record.get("type") == "event_msg" and payload.get("type") == "item_completed":
            item = payload.get("item")
            if isinstance(item, dict) and str(item.get("id", "")).startswith("exec-"):
                ids.append(str(item["id"]))  # a code-mode script's nested call
    return calls, tokens_in, tokens_out, tuple(ids)
