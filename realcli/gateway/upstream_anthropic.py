"""The ``anthropic_messages`` upstream wire: ``POST {base_url}/messages`` with ``x-api-key``
and ``anthropic-version``; top-level ``system``, ``tool_use``/``tool_result`` blocks,
alternating roles, tools as ``{name, description, input_schema}``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from realcli.gateway.upstream_wires import (
    UpstreamWire,
    call_arguments,
    content_text,
    message_calls,
    object_schema,
    usage_int,
)
from realcli.gateway.wire import ChatReply, ChatRequest, ToolCall, Usage
from realcli.schema.run_spec import UpstreamSpec

__all__ = ["ANTHROPIC_VERSION", "AnthropicMessagesWire"]

ANTHROPIC_VERSION = "2023-06-01"
_ANTHROPIC_ID = re.compile(r"[^A-Za-z0-9_-]")


class AnthropicMessagesWire(UpstreamWire):
    name = "anthropic_messages"
    path = "/messages"

    def headers(self, key: str) -> dict[str, str]:
        return {"x-api-key": key, "anthropic-version": ANTHROPIC_VERSION}

    @staticmethod
    def _id(call_id: str, fallback: str) -> str:
        """Anthropic wants ``[A-Za-z0-9_-]+`` ids; the same mapping for use and result."""
        return _ANTHROPIC_ID.sub("_", call_id) or fallback

    @staticmethod
    def _blocks(content: Any) -> list[dict[str, Any]]:
        if not isinstance(content, list):
            text = content_text(content)
            return [{"type": "text", "text": text}] if text else []
        blocks: list[dict[str, Any]] = []
        for part in content:
            if not isinstance(part, Mapping):
                continue
            if part.get("type") == "image_url":
                image = part.get("image_url")
                url = str(image.get("url") if isinstance(image, Mapping) else image)
                match = re.match(r"data:([^;,]+);base64,(.*)", url, re.S)
                source = (
                    {"type": "base64", "media_type": match[1], "data": match[2]}
                    if match
                    else {"type": "url", "url": url}
                )
                blocks.append({"type": "image", "source": source})
            elif part.get("text"):
                blocks.append({"type": "text", "text": str(part["text"])})
        return blocks

    def encode(self, request: ChatRequest, spec: UpstreamSpec) -> dict[str, Any]:
        messages: list[dict[str, Any]] = []

        def add(role: str, blocks: list[dict[str, Any]]) -> None:
            if not blocks:
                return
            if messages and messages[-1]["role"] == role:  # roles must alternate
                messages[-1]["content"].extend(blocks)
            else:
                messages.append({"role": role, "content": blocks})

        leading = True
        for i, msg in enumerate(request.messages):
            role = msg.get("role")
            if role in ("system", "developer"):
                if not leading:  # a mid-conversation system turn: user text, as Claude Code
                    text = content_text(msg.get("content"))
                    add(
                        "user",
                        [{"type": "text", "text": f"<system-reminder>{text}</system-reminder>"}],
                    )
                continue  # the leading ones are the top-level ``system``
            leading = False
            if role == "tool":
                result = {
                    "type": "tool_result",
                    "tool_use_id": self._id(str(msg.get("tool_call_id") or ""), f"call_{i}"),
                    "content": content_text(msg.get("content")),
                }
                if messages and messages[-1]["role"] == "user":
                    # tool results lead their user message
                    content = messages[-1]["content"]
                    n = sum(1 for b in content if b.get("type") == "tool_result")
                    content.insert(n, result)
                else:
                    add("user", [result])
            elif role == "assistant":
                blocks = self._blocks(msg.get("content"))
                for j, (cid, name, args) in enumerate(message_calls(msg)):
                    blocks.append(
                        {
                            "type": "tool_use",
                            "id": self._id(cid, f"call_{i}_{j}"),
                            "name": name,
                            "input": call_arguments(args),
                        }
                    )
                add("assistant", blocks)
            else:
                add("user", self._blocks(msg.get("content")))
        body: dict[str, Any] = {
            "model": spec.model,
            "max_tokens": spec.max_tokens,
            "messages": messages,
        }
        if request.system:
            body["system"] = request.system
        if request.tools:
            body["tools"] = [
                {
                    k: v
                    for k, v in {
                        "name": name,
                        "description": tool.get("description"),
                        "input_schema": object_schema(tool),
                    }.items()
                    if v is not None
                }
                for name, tool in request.tool_schemas()
            ]
        return body

    def decode(self, body: Any) -> ChatReply:
        if not isinstance(body, Mapping) or not isinstance(body.get("content"), list):
            raise ValueError("the response has no content array")
        texts: list[str] = []
        calls: list[ToolCall] = []
        for block in body["content"]:
            if not isinstance(block, Mapping):
                continue
            if block.get("type") == "text":
                texts.append(str(block.get("text", "")))
            elif block.get("type") == "tool_use":
                calls.append(
                    ToolCall(
                        name=str(block.get("name") or ""),
                        arguments=call_arguments(block.get("input")),
                        id=str(block.get("id") or ""),
                    )
                )
        usage = body.get("usage")
        reported = None
        if isinstance(usage, Mapping):
            cache_read = usage_int(usage, "cache_read_input_tokens")
            # tokens_in counts every input token: uncached, cache writes and cache reads
            tokens_in = (
                usage_int(usage, "input_tokens")
                + usage_int(usage, "cache_creation_input_tokens")
                + cache_read
            )
            reported = Usage(tokens_in, usage_int(usage, "output_tokens"), cache_read)
        return ChatReply(content="".join(texts) or None, tool_calls=tuple(calls), usage=reported)
