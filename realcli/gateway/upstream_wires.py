"""How the ``upstream`` backend speaks each provider API: the :class:`UpstreamWire`
contract (path, auth headers, request encoding, reply decoding), the OpenAI wires
(``openai_chat``, ``openai_responses``) and the helpers every wire uses to read the canonical
(Chat Completions shaped) request. Anthropic's wire is in :mod:`realcli.gateway.upstream_anthropic`.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from realcli.gateway.wire import ChatReply, ChatRequest, ToolCall, Usage
from realcli.schema.run_spec import UpstreamSpec

__all__ = [
    "OpenAIChatWire",
    "OpenAIResponsesWire",
    "UpstreamWire",
    "arguments_json",
    "call_arguments",
    "content_text",
    "message_calls",
    "object_schema",
    "usage_int",
]

_CHAT_MESSAGE_KEYS = frozenset({"role", "content", "name", "tool_calls", "tool_call_id"})


def content_text(content: Any) -> str:
    """The text of a canonical ``content``: a string, or a list of parts with ``text``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [str(p.get("text", "")) for p in content if isinstance(p, Mapping)]
        return "\n".join(p for p in parts if p)
    return "" if content is None else json.dumps(content)


def call_arguments(raw: Any) -> dict[str, Any]:
    """Tool-call arguments as an object; text that is not a JSON object is kept as
    ``{"_raw": text}`` (the builtin agent's convention) so nothing is lost."""
    if isinstance(raw, Mapping):
        return dict(raw)
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError:
            return {"_raw": raw}
        return dict(value) if isinstance(value, dict) else {"_raw": raw}
    return {"_raw": json.dumps(raw)}


def arguments_json(raw: Any) -> str:
    """Tool-call arguments as the JSON text OpenAI's APIs carry."""
    if isinstance(raw, str):
        return raw
    return json.dumps(raw if raw is not None else {})


def message_calls(msg: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
    """``(id, name, arguments)`` of each tool call of a canonical assistant message."""
    out: list[tuple[str, str, Any]] = []
    calls = msg.get("tool_calls")
    for call in calls if isinstance(calls, list) else []:
        if not isinstance(call, Mapping):
            continue
        fn = call.get("function")
        spec = fn if isinstance(fn, Mapping) else call
        out.append((str(call.get("id") or ""), str(spec.get("name") or ""), spec.get("arguments")))
    return out


def usage_int(obj: Any, *path: str) -> int:
    """The integer at ``path`` in a provider's usage object; 0 when absent or not an int."""
    for key in path:
        if not isinstance(obj, Mapping):
            return 0
        obj = obj.get(key)
    return obj if isinstance(obj, int) and not isinstance(obj, bool) else 0


def object_schema(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A tool's JSON schema (``parameters`` or ``input_schema``); an empty object schema
    when it has none."""
    schema = spec.get("parameters")
    if not isinstance(schema, Mapping):
        schema = spec.get("input_schema")
    return dict(schema) if isinstance(schema, Mapping) else {"type": "object", "properties": {}}


class UpstreamWire(ABC):
    """How one provider API is spoken: path, auth headers, request and reply shapes."""

    name: ClassVar[str]
    path: ClassVar[str]

    @abstractmethod
    def headers(self, key: str) -> dict[str, str]:
        """The authentication (and version) headers."""

    @abstractmethod
    def encode(self, request: ChatRequest, spec: UpstreamSpec) -> dict[str, Any]:
        """The provider's request body for the canonical ``request``."""

    @abstractmethod
    def decode(self, body: Any) -> ChatReply:
        """The reply in the provider's response body. Raises ValueError when malformed."""


class OpenAIChatWire(UpstreamWire):
    name = "openai_chat"
    path = "/chat/completions"

    def headers(self, key: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {key}"}

    def encode(self, request: ChatRequest, spec: UpstreamSpec) -> dict[str, Any]:
        messages: list[dict[str, Any]] = []
        for msg in request.messages:
            # only the standard fields: strict servers reject unknown ones
            out = {k: v for k, v in msg.items() if k in _CHAT_MESSAGE_KEYS}
            if out.get("role") == "developer":
                out["role"] = "system"  # what every compatible server understands
            if out.get("role") == "assistant" and out.get("tool_calls"):
                out["tool_calls"] = [
                    {
                        "id": cid,
                        "type": "function",
                        "function": {"name": name, "arguments": arguments_json(args)},
                    }
                    for cid, name, args in message_calls(msg)
                ]
            messages.append(out)
        body: dict[str, Any] = {"model": spec.model, "messages": messages}
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        k: v
                        for k, v in {
                            "name": name,
                            "description": tool.get("description"),
                            "parameters": object_schema(tool),
                            "strict": tool.get("strict"),
                        }.items()
                        if v is not None
                    },
                }
                for name, tool in request.tool_schemas()
            ]
        return body

    def decode(self, body: Any) -> ChatReply:
        choices = body.get("choices") if isinstance(body, Mapping) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
            raise ValueError("the response has no choices[0]")
        message = choices[0].get("message")
        if not isinstance(message, Mapping):
            raise ValueError("choices[0] has no message")
        content = (
            content_text(message.get("content")) or content_text(message.get("refusal")) or None
        )
        calls = tuple(
            ToolCall(name=name, arguments=call_arguments(args), id=cid)
            for cid, name, args in message_calls(message)
        )
        usage = body.get("usage")
        reported = None
        if isinstance(usage, Mapping):
            reported = Usage(
                usage_int(usage, "prompt_tokens"),
                usage_int(usage, "completion_tokens"),
                usage_int(usage, "prompt_tokens_details", "cached_tokens"),
            )
        return ChatReply(content=content, tool_calls=calls, usage=reported)


class OpenAIResponsesWire(UpstreamWire):
    name = "openai_responses"
    path = "/responses"

    def headers(self, key: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {key}"}

    @staticmethod
    def _content(content: Any) -> str | list[dict[str, Any]]:
        if not isinstance(content, list):
            return content_text(content)
        parts: list[dict[str, Any]] = []
        for part in content:
            if not isinstance(part, Mapping):
                continue
            if part.get("type") == "image_url":
                image = part.get("image_url")
                url = image.get("url") if isinstance(image, Mapping) else image
                parts.append({"type": "input_image", "image_url": str(url)})
            elif "text" in part:
                parts.append({"type": "input_text", "text": str(part["text"])})
        return parts

    def encode(self, request: ChatRequest, spec: UpstreamSpec) -> dict[str, Any]:
        items: list[dict[str, Any]] = []
        leading = True
        for msg in request.messages:
            role = msg.get("role")
            if role in ("system", "developer"):
                if not leading:  # a mid-conversation system turn stays in place
                    text = content_text(msg.get("content"))
                    items.append({"type": "message", "role": "developer", "content": text})
                continue  # the leading ones are in ``instructions``
            leading = False
            if role == "tool":
                items.append(
                    {
                        "type": "function_call_output",
                        "call_id": str(msg.get("tool_call_id") or ""),
                        "output": content_text(msg.get("content")),
                    }
                )
            elif role == "assistant":
                text = content_text(msg.get("content"))
                if text:
                    items.append({"role": "assistant", "content": text})
                for cid, name, args in message_calls(msg):
                    items.append(
                        {
                            "type": "function_call",
                            "call_id": cid,
                            "name": name,
                            "arguments": arguments_json(args),
                        }
                    )
            else:
                items.append({"role": "user", "content": self._content(msg.get("content"))})
        body: dict[str, Any] = {"model": spec.model, "input": items, "store": False}
        if request.system:
            body["instructions"] = request.system
        if request.tools:
            body["tools"] = [
                {
                    k: v
                    for k, v in {
                        "type": "function",
                        "name": name,
                        "description": tool.get("description"),
                        "parameters": object_schema(tool),
                        "strict": False,  # the Responses API defaults to strict schemas
                    }.items()
                    if v is not None
                }
                for name, tool in request.tool_schemas()
            ]
        return body

    def decode(self, body: Any) -> ChatReply:
        if not isinstance(body, Mapping) or not isinstance(body.get("output"), list):
            raise ValueError("the response has no output array")
        if body.get("status") == "failed":
            error = body.get("error")
            message = error.get("message") if isinstance(error, Mapping) else error
            raise ValueError(f"the response failed: {message}")
        texts: list[str] = []
        calls: list[ToolCall] = []
        for item in body["output"]:
            if not isinstance(item, Mapping):
                continue
            if item.get("type") == "message":
                parts = item.get("content")
                for part in parts if isinstance(parts, list) else []:
                    if isinstance(part, Mapping) and part.get("type") in ("output_text", "text"):
                        texts.append(str(part.get("text", "")))
                    elif isinstance(part, Mapping) and part.get("type") == "refusal":
                        texts.append(str(part.get("refusal", "")))
            elif item.get("type") == "function_call":
                calls.append(
                    ToolCall(
                        name=str(item.get("name") or ""),
                        arguments=call_arguments(item.get("arguments")),
                        id=str(item.get("call_id") or item.get("id") or ""),
                    )
                )
        usage = body.get("usage")
        reported = None
        if isinstance(usage, Mapping):
            reported = Usage(
                usage_int(usage, "input_tokens"),
                usage_int(usage, "output_tokens"),
                usage_int(usage, "input_tokens_details", "cached_tokens"),
            )
        return ChatReply(content="".join(texts) or None, tool_calls=tuple(calls), usage=reported)
