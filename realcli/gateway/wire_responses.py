"""OpenAI Responses wire format (``POST /v1/responses``): what the Codex CLI speaks.

Requests are rebuilt into the canonical, Chat Completions shaped :class:`ChatRequest` by
:mod:`realcli.gateway.wire_responses_request` (its docstring says how each input item and
tool maps); this module answers them and holds the codec.

Replies: one ``response`` object, or the SSE events ``response.created``,
``response.in_progress``, per output item ``response.output_item.added``, its deltas
(``response.output_text.delta`` inside ``content_part.added``/``.done``,
``response.function_call_arguments.delta``/``.done``,
``response.custom_tool_call_input.delta``/``.done``) and ``response.output_item.done``, then
``response.completed`` with the whole response and its usage: ``input_tokens`` = the
gateway's ``tokens_in`` (cached ones included, as OpenAI counts them),
``input_tokens_details.cached_tokens``, ``output_tokens`` = ``tokens_out``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from realcli.gateway.wire import ChatReply, ChatRequest, ReplyMeta, SseEvent, ToolCall, WireCodec
from realcli.gateway.wire_responses_request import (
    NAMESPACE_SEP,
    WIRE_NAME,
    parse_responses_request,
)

__all__ = ["NAMESPACE_SEP", "ResponsesCodec", "parse_responses_request", "response_body"]

_STREAM_PIECE = 48  # characters of text / arguments per streamed delta


# ----------------------------------------------------------------------------- replies
def _suffix(meta: ReplyMeta) -> str:
    return meta.completion_id.rsplit("-", 1)[-1]


def _usage(meta: ReplyMeta) -> dict[str, Any]:
    tokens_in, tokens_out = meta.tokens
    return {
        "input_tokens": tokens_in,
        "input_tokens_details": {"cached_tokens": meta.tokens_cached},
        "output_tokens": tokens_out,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": tokens_in + tokens_out,
    }


def _items(reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> list[dict[str, Any]]:
    """The response's output items: the text as one message, then one item per call."""
    suffix = _suffix(meta)
    custom = set(request.extra.get("custom_tools") or ())
    namespaced: Mapping[str, Any] = request.extra.get("namespaced") or {}
    items: list[dict[str, Any]] = []
    if reply.content:
        part = {"type": "output_text", "text": reply.content, "annotations": []}
        items.append(
            {
                "type": "message",
                "id": f"msg_{suffix}",
                "status": "completed",
                "role": "assistant",
                "content": [part],
            }
        )
    for i, call in enumerate(reply.tool_calls):
        items.append(_call_item(call, f"{suffix}_{i}", custom, namespaced))
    return items


def _call_item(
    call: ToolCall, suffix: str, custom: set[str], namespaced: Mapping[str, Any]
) -> dict[str, Any]:
    pair = namespaced.get(call.name)
    namespace, name = (pair[0], pair[1]) if isinstance(pair, list | tuple) else (None, call.name)
    if call.name in custom:
        value = call.arguments.get("input", "")
        return {
            "type": "custom_tool_call",
            "id": f"ctc_{suffix}",
            "status": "completed",
            "call_id": call.id,
            "name": name,
            "input": value if isinstance(value, str) else json.dumps(value),
            **({"namespace": namespace} if namespace else {}),
        }
    return {
        "type": "function_call",
        "id": f"fc_{suffix}",
        "status": "completed",
        "call_id": call.id,
        "name": name,
        "arguments": json.dumps(dict(call.arguments)),
        **({"namespace": namespace} if namespace else {}),
    }


def response_body(
    reply: ChatReply,
    meta: ReplyMeta,
    request: ChatRequest,
    *,
    status: str = "completed",
    output: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A ``response`` object (``status``; ``output`` and usage only once completed)."""
    done = status == "completed"
    return {
        "id": f"resp_{_suffix(meta)}",
        "object": "response",
        "created_at": meta.created,
        "status": status,
        "error": None,
        "incomplete_details": None,
        "model": meta.model,
        "output": (output if output is not None else _items(reply, meta, request)) if done else [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "usage": _usage(meta) if done else None,
    }


def _pieces(text: str) -> Iterator[str]:
    for i in range(0, len(text), _STREAM_PIECE):
        yield text[i : i + _STREAM_PIECE]


def _item_events(item: dict[str, Any], index: int) -> Iterator[dict[str, Any]]:
    """The events of one output item, from ``output_item.added`` to ``output_item.done``."""
    at = {"output_index": index, "item_id": item["id"]}
    kind = item["type"]
    if kind == "message":
        text = item["content"][0]["text"]
        opening = {**item, "status": "in_progress", "content": []}
        yield {"type": "response.output_item.added", "output_index": index, "item": opening}
        empty = {"type": "output_text", "text": "", "annotations": []}
        yield {"type": "response.content_part.added", **at, "content_index": 0, "part": empty}
        for piece in _pieces(text):
            yield {"type": "response.output_text.delta", **at, "content_index": 0, "delta": piece}
        yield {"type": "response.output_text.done", **at, "content_index": 0, "text": text}
        part = item["content"][0]
        yield {"type": "response.content_part.done", **at, "content_index": 0, "part": part}
    elif kind == "function_call":
        args = item["arguments"]
        opening = {**item, "status": "in_progress", "arguments": ""}
        yield {"type": "response.output_item.added", "output_index": index, "item": opening}
        for piece in _pieces(args):
            yield {"type": "response.function_call_arguments.delta", **at, "delta": piece}
        yield {"type": "response.function_call_arguments.done", **at, "arguments": args}
    else:  # custom_tool_call
        text = item["input"]
        opening = {**item, "status": "in_progress", "input": ""}
        yield {"type": "response.output_item.added", "output_index": index, "item": opening}
        for piece in _pieces(text):
            yield {"type": "response.custom_tool_call_input.delta", **at, "delta": piece}
        yield {"type": "response.custom_tool_call_input.done", **at, "input": text}
    yield {"type": "response.output_item.done", "output_index": index, "item": item}


class ResponsesCodec(WireCodec):
    """OpenAI Responses (``POST /v1/responses``), streamed and not (see the module docstring)."""

    name = WIRE_NAME
    routes = ("/responses",)

    def parse(self, body: Any) -> ChatRequest:
        return parse_responses_request(body)

    def body(self, reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> dict[str, Any]:
        return response_body(reply, meta, request)

    def stream(self, reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> Iterator[SseEvent]:
        items = _items(reply, meta, request)
        opening = response_body(reply, meta, request, status="in_progress")
        events: list[dict[str, Any]] = [
            {"type": "response.created", "response": opening},
            {"type": "response.in_progress", "response": opening},
        ]
        for index, item in enumerate(items):
            events.extend(_item_events(item, index))
        done = response_body(reply, meta, request, output=items)
        events.append({"type": "response.completed", "response": done})
        for number, event in enumerate(events):
            yield SseEvent({**event, "sequence_number": number}, event=event["type"])
