"""The ``recorded`` backend: replays the model replies of an earlier run.

``model.recorded_from`` names a run folder; its gateway call log
(``native/gateway.jsonl``, written by :class:`~realcli.gateway.server.Gateway`) holds, per
answered call (``status: 200``), the reply (``content``, ``tool_calls``), the provider's
``usage`` and ``assistant_turns``: how many assistant messages the request carried.

Stateless like ``replay``: a request with *n* assistant messages gets the reply the
recorded run got for its request with *n* assistant messages (the first one, if the agent
repeated a call), so retries and resumed sessions get the same answer. The recorded usage
is reported as is, so tokens (and, with the same ``pricing``, cost) match the original
run. A conversation longer than the recorded one is a :class:`BackendError`.

Replies are replayed as recorded, i.e. as redacted in the log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realcli.gateway.backends import BACKENDS, Backend, BackendError, BackendInputs
from realcli.gateway.wire import ChatReply, ChatRequest, ToolCall, Usage
from realcli.schema.run_spec import ModelSpec
from realcli.util.errors import ConfigError

__all__ = ["CALL_LOG", "RecordedBackend"]

CALL_LOG = Path("native") / "gateway.jsonl"
"""The gateway's call log, relative to a run folder."""


def _usage(raw: Any) -> Usage:
    if not isinstance(raw, Mapping):
        raise ValueError("'usage' must be an object")
    values = [raw.get(k, 0) for k in ("tokens_in", "tokens_out", "tokens_cached")]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
        raise ValueError("'usage' tokens_in/tokens_out/tokens_cached must be integers >= 0")
    return Usage(*values)


def _reply(record: Mapping[str, Any]) -> ChatReply:
    raw = record.get("reply")
    if not isinstance(raw, Mapping):
        raise ValueError("'reply' must be an object")
    content = raw.get("content")
    if content is not None and not isinstance(content, str):
        raise ValueError("'reply.content' must be a string or null")
    calls: list[ToolCall] = []
    for i, call in enumerate(raw.get("tool_calls") or []):
        if not isinstance(call, Mapping) or not isinstance(call.get("name"), str):
            raise ValueError(f"'reply.tool_calls[{i}]' must be an object with a string 'name'")
        arguments = call.get("arguments", {})
        if not isinstance(arguments, Mapping):
            raise ValueError(f"'reply.tool_calls[{i}].arguments' must be an object")
        calls.append(
            ToolCall(name=call["name"], arguments=dict(arguments), id=str(call.get("id", "")))
        )
    return ChatReply(content=content, tool_calls=tuple(calls), usage=_usage(record.get("usage")))


@BACKENDS.register("recorded")
class RecordedBackend(Backend):
    """Serves the answered calls of the run folder ``run_dir``, by conversation position."""

    name = "recorded"

    @classmethod
    def from_spec(cls, model: ModelSpec, inputs: BackendInputs) -> Backend:
        if not model.recorded_from or model.recorded_from == "???":
            raise ConfigError(
                f"conf/model/{model.name}.yaml",
                "model.recorded_from",
                "the recorded backend needs the run folder to replay",
                "set model.recorded_from=PATH of an earlier run folder (runs/<experiment>/"
                "<run_key>)",
            )
        path = Path(model.recorded_from).expanduser()
        return cls(path, model_name=model.name, latency_ms=model.latency_ms)

    def __init__(
        self, run_dir: Path, *, model_name: str = "recorded", latency_ms: float = 0.0
    ) -> None:
        super().__init__(latency_ms=latency_ms)
        self.run_dir = run_dir
        where, field = f"conf/model/{model_name}.yaml", "model.recorded_from"
        fix = "set model.recorded_from=PATH of an earlier run folder (runs/<experiment>/<run_key>)"
        if not run_dir.is_dir():
            raise ConfigError(where, field, f"{run_dir} is not a directory", fix)
        log = run_dir / CALL_LOG
        if not log.is_file():
            raise ConfigError(
                where,
                field,
                f"{run_dir} has no {CALL_LOG} (not a run folder, or a run that made no calls)",
                fix,
            )
        replies: dict[int, ChatReply] = {}
        answered = 0
        try:
            lines = log.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(where, field, f"cannot read {log}: {exc}", fix) from exc
        for lineno, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise ValueError("a record must be a JSON object")
                if record.get("status") != 200:
                    continue  # refused or failed calls: nothing was answered
                turns = record.get("assistant_turns", answered)
                if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
                    raise ValueError("'assistant_turns' must be an integer >= 0")
                reply = _reply(record)
            except ValueError as exc:
                raise ConfigError(
                    where,
                    field,
                    f"{log} line {lineno} is not a valid call record: {exc}",
                    "point model.recorded_from at an unmodified run folder",
                ) from exc
            replies.setdefault(turns, reply)  # a repeated call: its first answer
            answered += 1
        if not replies:
            raise ConfigError(where, field, f"{log} records no answered model call", fix)
        self.replies: Mapping[int, ChatReply] = replies

    def respond(self, request: ChatRequest) -> ChatReply:
        turns = sum(1 for m in request.messages if m.get("role") == "assistant")
        reply = self.replies.get(turns)
        if reply is None:
            raise BackendError(
                f"the recorded run {self.run_dir} has no reply after {turns} assistant "
                f"message(s) (it recorded turns {min(self.replies)}..{max(self.replies)})"
            )
        return reply
