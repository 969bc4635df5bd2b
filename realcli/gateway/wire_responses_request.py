"""OpenAI Responses requests (``POST /v1/responses``, what the Codex CLI sends), parsed.

The gateway is stateless, so a request must carry the whole conversation in ``input``
(Codex always does: ``store: false``, no ``previous_response_id``; a request with a
``previous_response_id`` is refused with 400). It is rebuilt into the canonical, Chat
Completions shaped :class:`ChatRequest`:

- ``instructions`` becomes the leading ``system`` message; ``developer``/``system`` input
  messages become ``system`` messages at their position;
- a ``user`` message's ``input_text`` parts become its text (``input_image`` parts become
  ``image_url`` parts);
- consecutive model output items (``message`` with role ``assistant``, ``function_call``,
  ``custom_tool_call``; ``reasoning`` items are dropped) become one ``assistant`` message:
  the text of its messages, and its calls as ``tool_calls`` (``id`` = the item's
  ``call_id``; a ``custom_tool_call``'s free-form ``input`` as the arguments
  ``{"input": ...}``; a namespaced call as ``<namespace>__<name>``);
- ``function_call_output`` / ``custom_tool_call_output`` become ``tool`` messages
  (``tool_call_id`` = ``call_id``; an output given as content parts becomes their text);
- tools: ``function`` tools become flat ``{name, description, parameters}``; a ``custom``
  (free-form) tool gets ``parameters`` with one string ``input`` (its grammar kept under
  ``format``); a ``namespace``'s function tools are listed one by one as
  ``<namespace>__<name>`` (e.g. ``mcp__gui__click``); hosted tools (``web_search``,
  ``tool_search``, ...) are named by their ``type`` so they show in ``tools_offered``.
  Tools declared inside ``input`` by an ``additional_tools`` item (Codex's "code mode"
  models get their one ``exec`` tool, a JavaScript runner, that way) are offered tools too;
  the namespace ``functions`` is the default one and adds no prefix.

``extra``: ``custom_tools`` (names of the free-form tools), ``namespaced`` (canonical name ->
``[namespace, name]``), ``raw`` (the body as received, for an upstream of the same wire).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from realcli.gateway.wire import ChatRequest, WireError

__all__ = ["DEFAULT_NAMESPACE", "NAMESPACE_SEP", "WIRE_NAME", "parse_responses_request"]

WIRE_NAME = "openai_responses"
"""The wire format's name (:attr:`ResponsesCodec.name`, a request's ``wire``)."""
NAMESPACE_SEP = "__"
"""Joins a namespace and a tool name into the canonical name (``mcp__gui`` + ``click``)."""
_MODEL_ITEMS = ("function_call", "custom_tool_call")
_OUTPUT_ITEMS = ("function_call_output", "custom_tool_call_output")
_IGNORED_ITEMS = ("reasoning", "item_reference", "compaction", "web_search_call")
DEFAULT_NAMESPACE = "functions"


def _text_parts(content: Any, where: str) -> tuple[str, list[dict[str, Any]]]:
    """``(text, parts)`` of a message's content: a string, or input/output content parts.
    ``parts`` holds Chat Completions parts when there is more than text (images)."""
    if isinstance(content, str):
        return content, []
    if content is None:
        return "", []
    if not isinstance(content, list):
        raise WireError(f"{where}.content must be a string or an array of content parts")
    texts: list[str] = []
    parts: list[dict[str, Any]] = []
    rich = False
    for i, part in enumerate(content):
        if not isinstance(part, dict) or not isinstance(part.get("type"), str):
            raise WireError(f"{where}.content[{i}] must be an object with a string 'type'")
        kind = part["type"]
        if kind in ("input_text", "output_text", "text", "summary_text", "refusal"):
            text = str(part.get("text", part.get("refusal", "")))
            texts.append(text)
            parts.append({"type": "text", "text": text})
        elif kind == "input_image":
            rich = True
            url = part.get("image_url") or f"file:{part.get('file_id', '')}"
            parts.append({"type": "image_url", "image_url": {"url": str(url)}})
        else:
            rich = True
            parts.append(dict(part))
    return "\n".join(texts), parts if rich else []


def _output_text(output: Any) -> str:
    """The text of a tool output: a string, or content parts (images as a marker)."""
    if isinstance(output, str):
        return output
    if not isinstance(output, list):
        return "" if output is None else json.dumps(output)
    texts = []
    for part in output:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif isinstance(part, dict):
            texts.append(f"[{part.get('type', 'part')}]")
    return "\n".join(texts)


def _qualified(namespace: Any, name: str) -> str:
    if isinstance(namespace, str) and namespace and namespace != DEFAULT_NAMESPACE:
        return f"{namespace}{NAMESPACE_SEP}{name}"
    return name


def _canonical_name(item: Mapping[str, Any]) -> str:
    return _qualified(item.get("namespace"), str(item.get("name") or ""))


def _call(item: Mapping[str, Any], where: str) -> dict[str, Any]:
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        raise WireError(f"{where}.call_id must be a non-empty string")
    if not isinstance(item.get("name"), str) or not item["name"]:
        raise WireError(f"{where}.name must be a non-empty string")
    if item.get("type") == "custom_tool_call":
        arguments = json.dumps({"input": str(item.get("input", ""))})
    else:
        raw = item.get("arguments", "{}")
        arguments = raw if isinstance(raw, str) else json.dumps(raw)
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": _canonical_name(item), "arguments": arguments},
    }


class _History:
    """Builds the canonical messages item by item."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.tools: list[Any] = []  # declared by additional_tools items
        self._assistant: dict[str, Any] | None = None  # the open assistant turn

    def close(self) -> None:
        self._assistant = None

    def assistant(self) -> dict[str, Any]:
        if self._assistant is None:
            self._assistant = {"role": "assistant", "content": None}
            self.messages.append(self._assistant)
        return self._assistant

    def add(self, item: Any, where: str) -> None:
        if not isinstance(item, dict):
            raise WireError(f"{where} must be an object")
        kind = item.get("type", "message" if "role" in item else None)
        if kind == "message":
            self._message(item, where)
        elif kind in _MODEL_ITEMS:
            self.assistant().setdefault("tool_calls", []).append(_call(item, where))
        elif kind in _OUTPUT_ITEMS:
            self.close()
            call_id = item.get("call_id")
            if not isinstance(call_id, str) or not call_id:
                raise WireError(f"{where}.call_id must be a non-empty string")
            text = _output_text(item.get("output"))
            self.messages.append({"role": "tool", "tool_call_id": call_id, "content": text})
        elif kind == "additional_tools":
            tools = item.get("tools")
            if not isinstance(tools, list):
                raise WireError(f"{where}.tools must be an array")
            self.tools.extend(tools)
        elif kind in _IGNORED_ITEMS:
            pass  # not conversation content a backend needs (reasoning, hosted tool calls)
        else:
            raise WireError(f"{where}: unsupported input item type {kind!r}")

    def _message(self, item: Mapping[str, Any], where: str) -> None:
        role = item.get("role")
        text, parts = _text_parts(item.get("content"), where)
        if role == "assistant":
            turn = self.assistant()
            if text:
                turn["content"] = f"{turn['content']}\n\n{text}" if turn["content"] else text
            return
        self.close()
        if role in ("system", "developer"):
            self.messages.append({"role": "system", "content": text})
        elif role == "user":
            self.messages.append({"role": "user", "content": parts or text})
        else:
            raise WireError(f"{where}.role must be user, assistant, system or developer")


def _tools(tools: Any) -> tuple[list[dict[str, Any]], list[str], dict[str, list[str]]]:
    """Canonical tools, the names of the free-form ones, and namespaced names."""
    if tools is None:
        return [], [], {}
    if not isinstance(tools, list):
        raise WireError("'tools' must be an array of objects")
    out: list[dict[str, Any]] = []
    custom: list[str] = []
    namespaced: dict[str, list[str]] = {}
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict) or not isinstance(tool.get("type"), str):
            raise WireError(f"tools[{i}] must be an object with a string 'type'")
        kind = tool["type"]
        if kind == "function":
            out.append(_function_tool(tool, f"tools[{i}]"))
        elif kind == "custom":
            spec = _function_tool(tool, f"tools[{i}]", custom=True)
            custom.append(spec["name"])
            out.append(spec)
        elif kind == "namespace":
            namespace = tool.get("name")
            subs = tool.get("tools")
            if not isinstance(namespace, str) or not namespace or not isinstance(subs, list):
                raise WireError(f"tools[{i}]: a namespace needs a 'name' and a 'tools' array")
            for j, sub in enumerate(subs):
                if not isinstance(sub, dict):
                    raise WireError(f"tools[{i}].tools[{j}] must be an object")
                spec = _function_tool(
                    sub, f"tools[{i}].tools[{j}]", custom=sub.get("type") == "custom"
                )
                name = _qualified(namespace, spec["name"])
                if name != spec["name"]:
                    namespaced[name] = [namespace, spec["name"]]
                if sub.get("type") == "custom":
                    custom.append(name)
                out.append({**spec, "name": name})
        else:  # hosted tools: web_search, tool_search, file_search, image_generation, ...
            out.append({**tool, "name": str(tool.get("name") or kind)})
    return out, custom, namespaced


def _function_tool(tool: Mapping[str, Any], where: str, *, custom: bool = False) -> dict[str, Any]:
    name = tool.get("name")
    if not isinstance(name, str) or not name:
        raise WireError(f"{where} needs a non-empty string 'name'")
    spec: dict[str, Any] = {"name": name, "description": str(tool.get("description", ""))}
    if custom:
        spec["parameters"] = {
            "type": "object",
            "properties": {"input": {"type": "string", "description": "free-form input"}},
            "required": ["input"],
        }
        if "format" in tool:
            spec["format"] = tool["format"]
        return spec
    parameters = tool.get("parameters")
    if parameters is None:
        parameters = {"type": "object", "properties": {}}
    if not isinstance(parameters, dict):
        raise WireError(f"{where}.parameters must be an object")
    spec["parameters"] = parameters
    return spec


def parse_responses_request(body: Any) -> ChatRequest:
    """Validate a Responses request body and rebuild its history. Raises :class:`WireError`."""
    if not isinstance(body, dict):
        raise WireError("request body must be a JSON object")
    model = body.get("model", "")
    if not isinstance(model, str):
        raise WireError("'model' must be a string")
    if body.get("previous_response_id"):
        raise WireError(
            "previous_response_id is not supported: the gateway keeps no state, "
            "send the whole conversation in 'input' (store: false)"
        )
    history = _History()
    instructions = body.get("instructions")
    if isinstance(instructions, str) and instructions:
        history.messages.append({"role": "system", "content": instructions})
    raw_input = body.get("input")
    if isinstance(raw_input, str):
        history.messages.append({"role": "user", "content": raw_input})
    elif isinstance(raw_input, list):
        for i, item in enumerate(raw_input):
            history.add(item, f"input[{i}]")
    else:
        raise WireError("'input' must be a string or an array of items")
    if not history.messages:
        raise WireError("'input' is empty")
    declared = body.get("tools")
    if declared is not None and not isinstance(declared, list):
        raise WireError("'tools' must be an array of objects")
    tools, custom, namespaced = _tools([*(declared or []), *history.tools])
    return ChatRequest(
        model=model,
        messages=tuple(history.messages),
        tools=tuple(tools),
        stream=bool(body.get("stream", False)),
        wire=WIRE_NAME,
        extra={"custom_tools": custom, "namespaced": namespaced, "raw": body},
    )
