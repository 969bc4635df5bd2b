"""Wire formats: the canonical request/reply every backend sees, the codec interface, and
the OpenAI Chat Completions codec (requests in, completions and SSE chunks out).

Every wire format (:class:`WireCodec`: Chat Completions here, OpenAI Responses in
``wire_responses``, Anthropic Messages in ``wire_anthropic``) parses its request into the
canonical :class:`ChatRequest` (Chat Completions shaped: ``messages`` with ``system``/``user``/
``assistant`` (with ``tool_calls``)/``tool`` roles, ``tools`` as function tools) and encodes a
:class:`ChatReply` back, streamed or not. Backends never see a wire format.

Also the gateway's token counter. It is deterministic and approximate, not a real BPE:
``count_tokens(obj)`` serialises ``obj`` as canonical JSON (sorted keys, no spaces) and
counts the pieces matched by ``\\w+|[^\\w\\s]`` (runs of word characters, and every single
punctuation character). A request counts ``{"messages": ..., "tools": ...}``; a reply
counts its content plus, per tool call, ``{"name": ..., "arguments": ...}``.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from realcli.util.hashing import canonical_json

__all__ = [
    "ChatCompletionsCodec",
    "ChatReply",
    "ChatRequest",
    "ReplyMeta",
    "SseEvent",
    "ToolCall",
    "Usage",
    "WireCodec",
    "WireError",
    "completion_body",
    "count_tokens",
    "parse_chat_request",
    "stream_chunks",
    "text_of",
]

_TOKEN = re.compile(r"\w+|[^\w\s]")
_STREAM_PIECE = 48  # characters of content / arguments per streamed delta


class WireError(ValueError):
    """The request body is not a valid Chat Completions request (HTTP 400)."""


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: Mapping[str, Any]
    id: str = ""


@dataclass(frozen=True)
class ChatRequest:
    """The parts of a Chat Completions request a backend may look at."""

    model: str
    messages: tuple[Mapping[str, Any], ...]
    tools: tuple[Mapping[str, Any], ...] = ()
    stream: bool = False
    include_usage: bool = False
    wire: str = "openai_chat"
    """The wire format the request came in (:attr:`WireCodec.name`)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Wire-specific facts the codec needs to encode the reply (e.g. which tools are
    free-form custom tools), and the raw request for an ``upstream`` of the same wire."""

    @property
    def system(self) -> str:
        """The system prompt: the text of the ``system``/``developer`` messages before the
        first other message (later system turns, e.g. Claude Code's reminders, are part of
        the conversation, not of the prompt)."""
        parts: list[str] = []
        for msg in self.messages:
            if msg.get("role") not in ("system", "developer"):
                break
            parts.append(text_of(msg.get("content")))
        return "\n\n".join(p for p in parts if p)

    def tool_schemas(self) -> tuple[tuple[str, Mapping[str, Any]], ...]:
        """``(name, tool JSON)`` per offered tool, nested (``function``) or flat."""
        out: list[tuple[str, Mapping[str, Any]]] = []
        for tool in self.tools:
            fn = tool.get("function")
            spec = fn if isinstance(fn, Mapping) else tool
            name = spec.get("name")
            if isinstance(name, str) and name:
                out.append((name, spec))
        return tuple(out)

    @property
    def tool_names(self) -> tuple[str, ...]:
        """Names of the function tools offered, in order (nested or flat tool JSON)."""
        names: list[str] = []
        for tool in self.tools:
            fn = tool.get("function")
            name = fn.get("name") if isinstance(fn, Mapping) else tool.get("name")
            if isinstance(name, str) and name:
                names.append(name)
        return tuple(names)

    def last_tool_result_id(self) -> str | None:
        """The tool-call id of the conversation's latest tool result (None: there is none)."""
        for msg in reversed(self.messages):
            if msg.get("role") == "tool":
                return str(msg.get("tool_call_id") or "") or None
        return None

    def assistant_tool_calls(self) -> int:
        """How many tool calls the assistant has made so far in this conversation."""
        n = 0
        for msg in self.messages:
            if msg.get("role") == "assistant":
                calls = msg.get("tool_calls")
                if isinstance(calls, list):
                    n += len(calls)
        return n


def text_of(content: Any) -> str:
    """The text of a message ``content``: a string, or a list of text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(p.get("text", "")) for p in content if isinstance(p, Mapping) and "text" in p
        )
    return ""


@dataclass(frozen=True)
class Usage:
    """Token usage as a provider reports it (``upstream``), recorded as is."""

    tokens_in: int
    tokens_out: int
    tokens_cached: int = 0


@dataclass(frozen=True)
class ChatReply:
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = field(default_factory=tuple)
    usage: Usage | None = None
    """The provider's own count; None: the gateway counts with :func:`count_tokens`."""

    @property
    def finish_reason(self) -> str:
        return "tool_calls" if self.tool_calls else "stop"


def count_tokens(obj: Any) -> int:
    """Approximate, deterministic token count (see the module docstring)."""
    text = obj if isinstance(obj, str) else canonical_json(obj)
    return sum(1 for _ in _TOKEN.finditer(text))


def request_tokens(request: ChatRequest) -> int:
    return count_tokens({"messages": list(request.messages), "tools": list(request.tools)})


def reply_tokens(reply: ChatReply) -> int:
    n = count_tokens(reply.content) if reply.content else 0
    for call in reply.tool_calls:
        n += count_tokens({"name": call.name, "arguments": dict(call.arguments)})
    return n


def parse_chat_request(body: Any) -> ChatRequest:
    """Validate the JSON body of ``POST /v1/chat/completions``. Raises :class:`WireError`."""
    if not isinstance(body, dict):
        raise WireError("request body must be a JSON object")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise WireError("'messages' must be a non-empty array")
    for i, msg in enumerate(messages):
        if not isinstance(msg, dict) or not isinstance(msg.get("role"), str):
            raise WireError(f"messages[{i}] must be an object with a string 'role'")
    tools = body.get("tools") or []
    if not isinstance(tools, list) or not all(isinstance(t, dict) for t in tools):
        raise WireError("'tools' must be an array of objects")
    model = body.get("model", "")
    if not isinstance(model, str):
        raise WireError("'model' must be a string")
    options = body.get("stream_options") or {}
    return ChatRequest(
        model=model,
        messages=tuple(messages),
        tools=tuple(tools),
        stream=bool(body.get("stream", False)),
        include_usage=isinstance(options, dict) and bool(options.get("include_usage")),
    )


def _usage(meta: ReplyMeta) -> dict[str, Any]:
    tokens_in, tokens_out = meta.tokens
    usage: dict[str, Any] = {
        "prompt_tokens": tokens_in,
        "completion_tokens": tokens_out,
        "total_tokens": tokens_in + tokens_out,
    }
    if meta.tokens_cached:
        usage["prompt_tokens_details"] = {"cached_tokens": meta.tokens_cached}
    return usage


def _wire_tool_calls(calls: Sequence[ToolCall]) -> list[dict[str, Any]]:
    return [
        {
            "id": c.id,
            "type": "function",
            "function": {"name": c.name, "arguments": json.dumps(dict(c.arguments))},
        }
        for c in calls
    ]


@dataclass(frozen=True)
class ReplyMeta:
    """What a reply says about itself besides the message: ids, model, token usage."""

    completion_id: str
    model: str
    created: int
    tokens: tuple[int, int]
    tokens_cached: int = 0


def completion_body(reply: ChatReply, meta: ReplyMeta) -> dict[str, Any]:
    """A non-streaming ``chat.completion`` object."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = _wire_tool_calls(reply.tool_calls)
    return {
        "id": meta.completion_id,
        "object": "chat.completion",
        "created": meta.created,
        "model": meta.model,
        "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
        "usage": _usage(meta),
    }


def _pieces(text: str) -> Iterator[str]:
    for i in range(0, len(text), _STREAM_PIECE):
        yield text[i : i + _STREAM_PIECE]


def stream_chunks(
    reply: ChatReply, meta: ReplyMeta, *, include_usage: bool
) -> Iterator[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects of a streamed reply (without ``[DONE]``)."""
    head = {
        "id": meta.completion_id,
        "object": "chat.completion.chunk",
        "created": meta.created,
        "model": meta.model,
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(reply.content or ""):
        yield chunk({"content": piece})
    for index, call in enumerate(_wire_tool_calls(reply.tool_calls)):
        opening = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        yield chunk({"tool_calls": [opening]})
        for piece in _pieces(call["function"]["arguments"]):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, reply.finish_reason)
    if include_usage:
        yield {**head, "choices": [], "usage": _usage(meta)}


@dataclass(frozen=True)
class SseEvent:
    """One Server-Sent Event: ``event: <event>`` (if any) and ``data: <JSON or text>``."""

    data: Mapping[str, Any] | str
    event: str | None = None

    def encode(self) -> bytes:
        data = self.data if isinstance(self.data, str) else json.dumps(self.data)
        head = f"event: {self.event}\n" if self.event else ""
        return f"{head}data: {data}\n\n".encode()


class WireCodec(ABC):
    """One wire format the gateway speaks. Registered in ``realcli.gateway.codecs``.

    ``routes`` are the POST paths it answers (after an optional ``/v1`` prefix); model calls
    go through :meth:`parse` -> backend -> :meth:`body` / :meth:`stream`. ``aux`` answers
    side endpoints that are not model calls (e.g. token counting) and are not recorded.
    """

    name: ClassVar[str]
    routes: ClassVar[tuple[str, ...]]
    aux_routes: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def parse(self, body: Any) -> ChatRequest:
        """The canonical request of a JSON body. Raises :class:`WireError` (HTTP 400)."""

    @abstractmethod
    def body(self, reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> dict[str, Any]:
        """The non-streaming response body."""

    @abstractmethod
    def stream(self, reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> Iterator[SseEvent]:
        """Every SSE event of the streamed response, terminal marker included."""

    def error(self, status: int, message: str, kind: str) -> dict[str, Any]:
        """An error body in this wire's shape."""
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}

    def aux(self, route: str, body: Any) -> dict[str, Any]:  # pragma: no cover - optional
        """The answer to a side endpoint in :attr:`aux_routes`. Raises :class:`WireError`."""
        raise WireError(f"{route} is not answered by {self.name}")


class ChatCompletionsCodec(WireCodec):
    """OpenAI Chat Completions (``POST /v1/chat/completions``)."""

    name = "openai_chat"
    routes = ("/chat/completions",)

    def parse(self, body: Any) -> ChatRequest:
        return parse_chat_request(body)

    def body(self, reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> dict[str, Any]:
        return completion_body(reply, meta)

    def stream(self, reply: ChatReply, meta: ReplyMeta, request: ChatRequest) -> Iterator[SseEvent]:
        for chunk in stream_chunks(reply, meta, include_usage=request.include_usage):
            yield SseEvent(chunk)
        yield SseEvent("[DONE]")
