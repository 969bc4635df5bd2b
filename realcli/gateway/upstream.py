"""The ``upstream`` backend: a real provider behind the gateway.

The agent talks to the gateway in its own wire format; the gateway's codec turns that into
the canonical :class:`ChatRequest` (Chat Completions shaped), and this backend re-encodes it
for the provider's API (``model.upstream.wire``):

- ``openai_chat``: ``POST {base_url}/chat/completions`` (OpenAI, OpenRouter, vLLM, any
  compatible server), ``Authorization: Bearer <key>``;
- ``openai_responses``: ``POST {base_url}/responses`` (``input`` items: messages,
  ``function_call``, ``function_call_output``; flat function tools; ``store: false``);
- ``anthropic_messages``: ``POST {base_url}/messages``, ``x-api-key`` and
  ``anthropic-version: 2023-06-01`` (top-level ``system``, ``tool_use``/``tool_result``
  blocks, tools as ``{name, description, input_schema}``).

The upstream call is never streamed, even when the agent asked for a stream: the gateway
streams the finished reply itself. Usage is the provider's own numbers (``tokens_in``
includes cached and cache-write input tokens; ``tokens_cached`` is the cache reads), so the
ledger and the cost meter record what the provider bills.

Retries: HTTP 408/429/5xx and connection errors/timeouts are retried up to
``max_retries`` times with exponential backoff, or after the provider's ``Retry-After``
(``retry-after-ms``) when it sends one. Any other status raises :class:`BackendError` with
the provider's error message (the gateway answers the agent with HTTP 500).

The API key is read once at construction from ``api_key_env`` or ``api_key_file``; it is
never in the spec, and :meth:`UpstreamBackend.secrets` hands it to the run's redactor. No
exception message this module raises contains it.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, ClassVar

from realcli import __version__
from realcli.gateway.backends import BACKENDS, Backend, BackendError, BackendInputs
from realcli.gateway.provider_limits import ProviderLimit
from realcli.gateway.wire import ChatReply, ChatRequest, ToolCall, Usage
from realcli.schema.run_spec import ModelSpec, UpstreamSpec
from realcli.util.errors import ConfigError
from realcli.util.redact import REDACTED

__all__ = ["UPSTREAM_WIRES", "UpstreamBackend", "UpstreamWire", "load_api_key"]

RETRY_STATUSES = frozenset({408, 429})
"""Retried besides every 5xx (Anthropic's 529 "overloaded" included)."""
BACKOFF_BASE_S = 1.0
BACKOFF_MAX_S = 30.0
RETRY_AFTER_MAX_S = 120.0
"""A longer ``Retry-After`` (e.g. a quota reset) is not waited for: the call fails."""
ERROR_CHARS = 600
ANTHROPIC_VERSION = "2023-06-01"
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_ANTHROPIC_ID = re.compile(r"[^A-Za-z0-9_-]")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CHAT_MESSAGE_KEYS = frozenset({"role", "content", "name", "tool_calls", "tool_call_id"})


# ----------------------------------------------------------------------------- the key
def load_api_key(spec: UpstreamSpec, model_name: str) -> str:
    """The API key of ``spec``: ``$api_key_env`` if set and not empty, else the first line
    of ``api_key_file`` (stripped).

    Raises:
        ConfigError: no key configured, the variable is unset/empty, the file is missing,
            unreadable or empty, or the key is not one printable token. The message names
            ``conf/model/<model_name>.yaml`` and the field, never the key.
    """
    where = f"conf/model/{model_name}.yaml"
    tried: list[str] = []
    if spec.api_key_env and not _ENV_NAME.match(spec.api_key_env):
        raise ConfigError(  # never echo the value: it may be the key itself, pasted here
            where,
            "model.upstream.api_key_env",
            "is not an environment variable name",
            "put the variable's name here (e.g. OPENAI_API_KEY), never the key itself",
        )
    if spec.api_key_env:
        key = os.environ.get(spec.api_key_env, "").strip()
        if key:
            return _checked(key, where, "model.upstream.api_key_env", f"${spec.api_key_env}")
        tried.append(f"environment variable {spec.api_key_env} is not set or empty")
    if spec.api_key_file:
        path = Path(spec.api_key_file).expanduser()
        try:
            lines = path.read_text(encoding="utf-8").strip().splitlines()
        except FileNotFoundError:
            tried.append(f"key file {path} does not exist")
        except (OSError, UnicodeDecodeError) as exc:
            tried.append(f"key file {path} cannot be read ({type(exc).__name__})")
        else:
            key = lines[0].strip() if lines else ""
            if key:
                return _checked(key, where, "model.upstream.api_key_file", f"file {path}")
            tried.append(f"key file {path} is empty")
    if not spec.api_key_env and not spec.api_key_file:
        tried.append("no API key is configured")
    only_file = spec.api_key_file and not spec.api_key_env
    field = "model.upstream.api_key_file" if only_file else "model.upstream.api_key_env"
    env = spec.api_key_env or "PROVIDER_API_KEY"
    raise ConfigError(
        where,
        field,
        "; ".join(tried),
        f"export {env}=<your key> (model.upstream.api_key_env names the variable), or set "
        "model.upstream.api_key_file=PATH to a file holding the key",
    )


def _checked(key: str, where: str, field: str, source: str) -> str:
    if any(not ch.isprintable() or ch.isspace() for ch in key):
        raise ConfigError(
            where,
            field,
            f"the API key in {source} contains whitespace or control characters",
            "store the key alone, on one line",
        )
    return key


# ----------------------------------------------------------------------------- helpers
def _text(content: Any) -> str:
    """The text of a canonical ``content``: a string, or a list of parts with ``text``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [str(p.get("text", "")) for p in content if isinstance(p, Mapping)]
        return "\n".join(p for p in parts if p)
    return "" if content is None else json.dumps(content)


def _arguments(raw: Any) -> dict[str, Any]:
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


def _arguments_json(raw: Any) -> str:
    """Tool-call arguments as the JSON text OpenAI's APIs carry."""
    if isinstance(raw, str):
        return raw
    return json.dumps(raw if raw is not None else {})


def _calls(msg: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
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


def _int(obj: Any, *path: str) -> int:
    for key in path:
        if not isinstance(obj, Mapping):
            return 0
        obj = obj.get(key)
    return obj if isinstance(obj, int) and not isinstance(obj, bool) else 0


def _object_schema(spec: Mapping[str, Any]) -> dict[str, Any]:
    schema = spec.get("parameters")
    if not isinstance(schema, Mapping):
        schema = spec.get("input_schema")
    return dict(schema) if isinstance(schema, Mapping) else {"type": "object", "properties": {}}


# ----------------------------------------------------------------------------- wires
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
                        "function": {"name": name, "arguments": _arguments_json(args)},
                    }
                    for cid, name, args in _calls(msg)
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
                            "parameters": _object_schema(tool),
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
        content = _text(message.get("content")) or _text(message.get("refusal")) or None
        calls = tuple(
            ToolCall(name=name, arguments=_arguments(args), id=cid)
            for cid, name, args in _calls(message)
        )
        usage = body.get("usage")
        reported = None
        if isinstance(usage, Mapping):
            reported = Usage(
                _int(usage, "prompt_tokens"),
                _int(usage, "completion_tokens"),
                _int(usage, "prompt_tokens_details", "cached_tokens"),
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
            return _text(content)
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
                    text = _text(msg.get("content"))
                    items.append({"type": "message", "role": "developer", "content": text})
                continue  # the leading ones are in ``instructions``
            leading = False
            if role == "tool":
                items.append(
                    {
                        "type": "function_call_output",
                        "call_id": str(msg.get("tool_call_id") or ""),
                        "output": _text(msg.get("content")),
                    }
                )
            elif role == "assistant":
                text = _text(msg.get("content"))
                if text:
                    items.append({"role": "assistant", "content": text})
                for cid, name, args in _calls(msg):
                    items.append(
                        {
                            "type": "function_call",
                            "call_id": cid,
                            "name": name,
                            "arguments": _arguments_json(args),
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
                        "parameters": _object_schema(tool),
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
                        arguments=_arguments(item.get("arguments")),
                        id=str(item.get("call_id") or item.get("id") or ""),
                    )
                )
        usage = body.get("usage")
        reported = None
        if isinstance(usage, Mapping):
            reported = Usage(
                _int(usage, "input_tokens"),
                _int(usage, "output_tokens"),
                _int(usage, "input_tokens_details", "cached_tokens"),
            )
        return ChatReply(content="".join(texts) or None, tool_calls=tuple(calls), usage=reported)


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
            text = _text(content)
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
                    text = _text(msg.get("content"))
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
                    "content": _text(msg.get("content")),
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
                for j, (cid, name, args) in enumerate(_calls(msg)):
                    blocks.append(
                        {
                            "type": "tool_use",
                            "id": self._id(cid, f"call_{i}_{j}"),
                            "name": name,
                            "input": _arguments(args),
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
                        "input_schema": _object_schema(tool),
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
                        arguments=_arguments(block.get("input")),
                        id=str(block.get("id") or ""),
                    )
                )
        usage = body.get("usage")
        reported = None
        if isinstance(usage, Mapping):
            cache_read = _int(usage, "cache_read_input_tokens")
            # tokens_in counts every input token: uncached, cache writes and cache reads
            tokens_in = (
                _int(usage, "input_tokens")
                + _int(usage, "cache_creation_input_tokens")
                + cache_read
            )
            reported = Usage(tokens_in, _int(usage, "output_tokens"), cache_read)
        return ChatReply(content="".join(texts) or None, tool_calls=tuple(calls), usage=reported)


UPSTREAM_WIRES: dict[str, UpstreamWire] = {
    w.name: w for w in (OpenAIChatWire(), OpenAIResponsesWire(), AnthropicMessagesWire())
}
"""The provider APIs ``model.upstream.wire`` may name."""


# ----------------------------------------------------------------------------- transport
class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an error: following it could send the key to another host."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class _Retry(Exception):
    def __init__(self, message: str, delay: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.delay = delay


def _retry_after(headers: Any) -> float | None:
    """Seconds the provider asks us to wait (``retry-after-ms`` or ``Retry-After``)."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _error_message(raw: bytes) -> str:
    """The provider's error message in an error body (OpenAI and Anthropic shapes)."""
    text = raw.decode("utf-8", errors="replace")
    try:
        body = json.loads(text)
    except ValueError:
        return text.strip()[:ERROR_CHARS] or "(empty body)"
    if isinstance(body, Mapping):
        error = body.get("error", body)
        if isinstance(error, Mapping):
            message = error.get("message")
            kind = error.get("type") or error.get("code")
            if message:
                return (f"{kind}: {message}" if kind else str(message))[:ERROR_CHARS]
        elif isinstance(error, str):
            return error[:ERROR_CHARS]
    return text.strip()[:ERROR_CHARS]


@BACKENDS.register("upstream")
class UpstreamBackend(Backend):
    """Answers every call by one non-streaming request to the provider ``spec`` names.

    ``sleep`` waits between retries (tests pass a recorder). Thread-safe: no state but the
    configuration. With ``spec.max_concurrent``, each HTTP attempt holds one of the provider's
    slots in ``limits_dir`` (:mod:`realcli.gateway.provider_limits`), waiting up to
    ``spec.timeout_s`` for one.
    """

    name = "upstream"

    @classmethod
    def from_spec(cls, model: ModelSpec, inputs: BackendInputs) -> Backend:
        if model.upstream is None:
            raise ConfigError(
                f"conf/model/{model.name}.yaml",
                "model.upstream",
                "the upstream backend needs an upstream section",
                "add upstream: {wire, base_url, model, api_key_env} (see conf/model/"
                "upstream_openai.yaml)",
            )
        return cls(
            model.upstream,
            model_name=model.name,
            latency_ms=model.latency_ms,
            limits_dir=inputs.limits_dir,  # model.upstream.max_concurrent's slots
        )

    def __init__(
        self,
        spec: UpstreamSpec,
        *,
        model_name: str = "upstream",
        api_key: str | None = None,
        latency_ms: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        limits_dir: Path | None = None,
    ) -> None:
        super().__init__(latency_ms=latency_ms)
        self.spec = spec
        self.limit = (
            ProviderLimit(spec.base_url, spec.max_concurrent, limits_dir)
            if spec.max_concurrent is not None
            else None
        )
        self.wire = UPSTREAM_WIRES[spec.wire]
        self._key = api_key if api_key is not None else load_api_key(spec, model_name)
        self.url = spec.base_url.rstrip("/") + self.wire.path
        self._sleep = sleep
        host = urllib.parse.urlsplit(self.url).hostname or ""
        handlers: list[urllib.request.BaseHandler] = [_NoRedirect()]
        if host in _LOOPBACK:
            handlers.append(urllib.request.ProxyHandler({}))  # never proxy loopback
        self._opener = urllib.request.build_opener(*handlers)

    def secrets(self) -> tuple[str, ...]:
        return (self._key,)

    def __repr__(self) -> str:  # never the key
        return f"UpstreamBackend(wire={self.spec.wire!r}, url={self.url!r})"

    def _scrub(self, text: str) -> str:
        return text.replace(self._key, REDACTED) if self._key else text

    def _fail(self, message: str) -> BackendError:
        return BackendError(self._scrub(f"{self.spec.wire} {self.url}: {message}"))

    def respond(self, request: ChatRequest) -> ChatReply:
        data = json.dumps(self.wire.encode(request, self.spec)).encode()
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"realcli/{__version__}",
            **self.spec.headers,
            **self.wire.headers(self._key),
        }
        attempts = self.spec.max_retries + 1
        for attempt in range(attempts):
            try:
                raw = self._post_limited(data, headers)
            except _Retry as retry:
                if attempt + 1 >= attempts:
                    raise self._fail(
                        f"{retry.message} (gave up after {attempts} attempts)"
                    ) from None
                delay = retry.delay
                if delay is None:
                    delay = min(BACKOFF_MAX_S, BACKOFF_BASE_S * 2**attempt)
                    delay *= 0.5 + random.random() / 2  # jitter: parallel runs spread out
                elif delay > RETRY_AFTER_MAX_S:
                    raise self._fail(
                        f"{retry.message}; the provider asks to retry after {delay:.0f}s "
                        f"(more than {RETRY_AFTER_MAX_S:.0f}s): giving up"
                    ) from None
                self._sleep(delay)
                continue
            try:
                return self.wire.decode(json.loads(raw))
            except ValueError as exc:
                raise self._fail(f"unexpected response: {exc}") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _post_limited(self, data: bytes, headers: Mapping[str, str]) -> bytes:
        """:meth:`_post` holding one of the provider's slots (with ``max_concurrent``)."""
        if self.limit is None:
            return self._post(data, headers)
        try:
            slot = self.limit.acquire(self.spec.timeout_s)
        except TimeoutError as exc:
            raise self._fail(str(exc)) from None
        try:
            return self._post(data, headers)
        finally:
            slot.release()

    def _post(self, data: bytes, headers: Mapping[str, str]) -> bytes:
        """The body of a 2xx answer. Raises :class:`_Retry` or :class:`BackendError`."""
        req = urllib.request.Request(self.url, data=data, headers=dict(headers), method="POST")
        try:
            with self._opener.open(req, timeout=self.spec.timeout_s) as resp:
                return bytes(resp.read())
        except urllib.error.HTTPError as exc:
            try:
                raw = exc.read()
            except (OSError, http.client.HTTPException):
                raw = b""
            message = f"HTTP {exc.code}: {_error_message(raw)}"
            if exc.code in RETRY_STATUSES or exc.code >= 500:
                raise _Retry(message, _retry_after(exc.headers)) from None
            if 300 <= exc.code < 400:
                message += f" (redirected to {exc.headers.get('Location')}; fix base_url)"
            raise self._fail(message) from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, ssl.SSLError):  # a bad certificate does not heal
                raise self._fail(f"TLS failed: {exc.reason}") from None
            raise _Retry(f"cannot connect: {exc.reason}") from None
        except TimeoutError as exc:
            raise _Retry(f"timed out after {self.spec.timeout_s:g}s ({exc})") from None
        except (ConnectionError, http.client.HTTPException) as exc:
            raise _Retry(f"connection failed: {type(exc).__name__}: {exc}") from None
