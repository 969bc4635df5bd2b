"""Anthropic Messages wire format (``POST /v1/messages``): what Claude Code speaks.

Requests are rebuilt into the canonical, Chat Completions shaped :class:`ChatRequest`:

- the top-level ``system`` (a string or text blocks) becomes the leading ``system`` message;
  a block holding only the ``x-anthropic-billing-header: ...`` line (request metadata that
  differs per session, not prompt text) is left out;
- ``role: "system"`` turns inside ``messages`` (Claude Code's mid-conversation system
  turns: environment, date, notices) stay ``system`` messages at their position;
- a user turn's ``tool_result`` blocks become ``tool`` messages (``tool_call_id``; text of
  the result; ``is_error: true`` kept), followed by one ``user`` message with its other
  blocks (text parts; base64/url images as ``image_url`` parts; other blocks as they are,
  without ``cache_control``);
- an assistant turn's ``text`` blocks become its ``content`` and its ``tool_use`` blocks its
  ``tool_calls`` (ids kept, ``input`` as a JSON string); thinking blocks are dropped;
- tools ``{name, description, input_schema}`` become flat ``{name, description, parameters}``
  (``cache_control`` dropped; other keys such as ``defer_loading`` or a server tool's
  ``type`` kept).

``extra["raw"]`` holds the request body as received (for an upstream of the same wire).

Replies: one ``message`` object, or the SSE events ``message_start``,
``content_block_start``/``content_block_delta`` (``text_delta``, ``input_json_delta``)/
``content_block_stop`` per block, ``message_delta`` (``stop_reason``, usage) and
``message_stop``. Usage: ``input_tokens`` is the uncached part of the gateway's input count,
``cache_read_input_tokens`` the cached part, ``output_tokens`` the output count (so
``input_tokens + cache_read_input_tokens`` is the gateway's ``tokens_in``).
``POST /v1/messages/count_tokens`` answers ``{"input_tokens": N}`` with the gateway's counter.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from realcli.gateway.wire import (
    ChatReply,
    ChatRequest,
    ReplyMeta,
    SseEvent,
    WireCodec,
    WireError,
    request_tokens,
)

__all__ = ["BILLING_HEADER", "AnthropicMessagesCodec", "parse_messages_request"]

BILLING_HEADER = "x-anthropic-billing-header:"
ROLES = ("user", "assistant", "system")
_STREAM_PIECE = 48  # characters of text / tool input JSON per streamed delta
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


# ----------------------------------------------------------------------------- requests
def _blocks(content: Any, where: str) -> list[Mapping[str, Any]]:
    """A message's content as a list of blocks (a string is one text block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if content is None:
        return []
    if not isinstance(content, list):
        raise WireError(f"{where}.content must be a string or an array of content blocks")
    for i, block in enumerate(content):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise WireError(f"{where}.content[{i}] must be an object with a string 'type'")
    return content


def _text(blocks: list[Mapping[str, Any]]) -> str:
    return "\n".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")


def _part(block: Mapping[str, Any]) -> dict[str, Any]:
    """A user content block as a Chat Completions content part (images as ``image_url``)."""
    if block.get("type") == "text":
        return {"type": "text", "text": str(block.get("text", ""))}
    source = block.get("source")
    if block.get("type") == "image" and isinstance(source, Mapping):
        if source.get("type") == "base64":
            url = f"data:{source.get('media_type')};base64,{source.get('data')}"
            return {"type": "image_url", "image_url": {"url": url}}
        if source.get("type") == "url":
            return {"type": "image_url", "image_url": {"url": str(source.get("url"))}}
    return {k: v for k, v in block.items() if k != "cache_control"}


def _result_text(content: Any) -> str:
    """The text of a ``tool_result``'s content (a string or blocks; images as a marker)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return "" if content is None else json.dumps(content)
    parts = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif isinstance(block, dict):
            parts.append(f"[{block.get('type', 'block')}]")
    return "\n".join(parts)


def _user_messages(blocks: list[Mapping[str, Any]], where: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    parts: list[dict[str, Any]] = []
    for i, block in enumerate(blocks):
        if block.get("type") != "tool_result":
            parts.append(_part(block))
            continue
        call_id = block.get("tool_use_id")
        if not isinstance(call_id, str) or not call_id:
            raise WireError(f"{where}.content[{i}].tool_use_id must be a non-empty string")
        tool: dict[str, Any] = {
            "role": "tool",
            "tool_call_id": call_id,
            "content": _result_text(block.get("content")),
        }
        if block.get("is_error") is True:
            tool["is_error"] = True
        out.append(tool)
    if parts or not out:
        out.append({"role": "user", "content": parts})
    return out


def _assistant_message(blocks: list[Mapping[str, Any]], where: str) -> dict[str, Any]:
    calls: list[dict[str, Any]] = []
    for i, block in enumerate(blocks):
        if block.get("type") != "tool_use":
            continue
        call_id, name, args = block.get("id"), block.get("name"), block.get("input", {})
        if not isinstance(call_id, str) or not isinstance(name, str):
            raise WireError(f"{where}.content[{i}]: a tool_use needs string 'id' and 'name'")
        calls.append(
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
        )
    text = _text(blocks)
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = calls
    return message


def _system_text(system: Any) -> str:
    if system is None:
        return ""
    blocks = _blocks(system, "system")
    kept = [b for b in blocks if not str(b.get("text", "")).startswith(BILLING_HEADER)]
    return "\n\n".join(str(b.get("text", "")) for b in kept if b.get("type") == "text")


def _tool(tool: Any, i: int) -> dict[str, Any]:
    if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or not tool["name"]:
        raise WireError(f"tools[{i}] must be an object with a non-empty string 'name'")
    schema = tool.get("input_schema", {})
    if not isinstance(schema, dict):
        raise WireError(f"tools[{i}].input_schema must be an object")
    out: dict[str, Any] = {
        "name": tool["name"],
        "description": str(tool.get("description", "")),
        "parameters": schema,
    }
    for key, value in tool.items():
        if key not in ("name", "description", "input_schema", "cache_control"):
            out[key] = value
    return out


def parse_messages_request(body: Any, *, need_max_tokens: bool = True) -> ChatRequest:
    """Validate an Anthropic Messages request body. Raises :class:`WireError`."""
    if not isinstance(body, dict):
        raise WireError("request body must be a JSON object")
    model = body.get("model", "")
    if not isinstance(model, str):
        raise WireError("'model' must be a string")
    if need_max_tokens and not isinstance(body.get("max_tokens"), int):
        raise WireError("'max_tokens' must be an integer")
    raw_messages = body.get("messages")
    if not isinstance(raw_messages, list) or not raw_messages:
        raise WireError("'messages' must be a non-empty array")
    messages: list[dict[str, Any]] = []
    system = _system_text(body.get("system"))
    if system:
        messages.append({"role": "system", "content": system})
    for i, msg in enumerate(raw_messages):
        where = f"messages[{i}]"
        if not isinstance(msg, dict) or msg.get("role") not in ROLES:
            raise WireError(f"{where} must be an object with 'role' one of {list(ROLES)}")
        blocks = _blocks(msg.get("content"), where)
        if msg["role"] == "user":
            messages.extend(_user_messages(blocks, where))
        elif msg["role"] == "assistant":
            messages.append(_assistant_message(blocks, where))
        else:
            messages.append({"role": "system", "content": _text(blocks)})
    tools = body.get("tools") or []
    if not isinstance(tools, list):
        raise WireError("'tools' must be an array")
    return ChatRequest(
        model=model,
        messages=tuple(messages),
        tools=tuple(_tool(t, i) for i, t in enumerate(tools)),
        stream=body.get("stream") is True,
        wire=AnthropicMessagesCodec.name,
        extra={"raw": body},
    )


# ----------------------------------------------------------------------------- replies
def _message_id(meta: ReplyMeta) -> str:
    return (
        meta.completion_id if meta.completion_id.startswith("msg_") else f"msg_{meta.completion_id}"
    )


def _usage(meta: ReplyMeta) -> dict[str, int]:
    tokens_in, tokens_out = meta.tokens
    cached = min(meta.tokens_cached, tokens_in)
    return {
        "input_tokens": tokens_in - cached,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": cached,
        "output_tokens": tokens_out,
    }


def _content(reply: ChatReply) -> list[dict[str, Any]]:
    content: list[dict[str, Any]] = []
    if reply.content:
        content.append({"type": "text", "text": reply.content})
    for call in reply.tool_calls:
        content.append(
            {"type": "tool_use", "id": call.id, "name": call.name, "input": dict(call.arguments)}
        )
    return content


def _stop_reason(reply: ChatReply) -> str:
    return "tool_use" if reply.tool_calls else "end_turn"


def _pieces(text: str) -> Iterator[str]:
    for i in range(0, len(text), _STREAM_PIECE):
        yield text[i : i + _STREAM_PIECE]


class AnthropicMessagesCodec(WireCodec):
    """Anthropic Messages (``POST /v1/messages``; ``/v1/messages/count_tokens`` on the side)."""

    name = "anthropic_messages"
    routes = ("/messages",)
    aux_routes = ("/messages/count_tokens",)

    def parse(self, body: Any) -> ChatRequest:
        return parse_messages_request(body)

    def body(self, reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> dict[str, Any]:
        return {
            "id": _message_id(meta),
            "type": "message",
            "role": "assistant",
            "model": meta.model,
            "content": _content(reply),
            "stop_reason": _stop_reason(reply),
            "stop_sequence": None,
            "usage": _usage(meta),
        }

    def stream(self, reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> Iterator[SseEvent]:
        usage = _usage(meta)
        start: dict[str, Any] = {
            "id": _message_id(meta),
            "type": "message",
            "role": "assistant",
            "model": meta.model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {**usage, "output_tokens": 0},
        }
        yield SseEvent({"type": "message_start", "message": start}, "message_start")
        for index, block in enumerate(_content(reply)):
            if block["type"] == "text":
                opening: dict[str, Any] = {"type": "text", "text": ""}
                deltas = [{"type": "text_delta", "text": p} for p in _pieces(block["text"])]
            else:
                opening = {**block, "input": {}}
                deltas = [
                    {"type": "input_json_delta", "partial_json": p}
                    for p in _pieces(json.dumps(block["input"]))
                ]
            yield SseEvent(
                {"type": "content_block_start", "index": index, "content_block": opening},
                "content_block_start",
            )
            for delta in deltas:
                yield SseEvent(
                    {"type": "content_block_delta", "index": index, "delta": delta},
                    "content_block_delta",
                )
            yield SseEvent({"type": "content_block_stop", "index": index}, "content_block_stop")
        yield SseEvent(
            {
                "type": "message_delta",
                "delta": {"stop_reason": _stop_reason(reply), "stop_sequence": None},
                "usage": usage,
            },
            "message_delta",
        )
        yield SseEvent({"type": "message_stop"}, "message_stop")

    def error(self, status: int, message: str, kind: str) -> dict[str, Any]:
        if status in _ERROR_TYPES:
            kind = _ERROR_TYPES[status]
        elif status >= 500:
            kind = "api_error"
        return {"type": "error", "error": {"type": kind, "message": message}}

    def aux(self, route: str, body: Any) -> dict[str, Any]:
        if route != "/messages/count_tokens":
            raise WireError(f"{route} is not answered by {self.name}")
        return {"input_tokens": request_tokens(parse_messages_request(body, need_max_tokens=False))}
