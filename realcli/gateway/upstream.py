"""The ``upstream`` backend: a real provider behind the gateway.

The agent talks to the gateway in its own wire format; the gateway's codec turns that into
the canonical :class:`ChatRequest` (Chat Completions shaped), and this backend re-encodes it
for the provider's API (``model.upstream.wire``; :mod:`realcli.gateway.upstream_wires`,
:mod:`realcli.gateway.upstream_anthropic`):

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

The API key is read once at construction from ``api_key_env`` or ``api_key_file``
(:mod:`realcli.gateway.upstream_key`); it is never in the spec, and
:meth:`UpstreamBackend.secrets` hands it to the run's redactor. No exception message this
module raises contains it.
"""

from __future__ import annotations

import http.client
import json
import random
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from realcli import __version__
from realcli.gateway.backends import BACKENDS, Backend, BackendError, BackendInputs
from realcli.gateway.provider_limits import ProviderLimit
from realcli.gateway.upstream_anthropic import AnthropicMessagesWire
from realcli.gateway.upstream_key import load_api_key
from realcli.gateway.upstream_wires import OpenAIChatWire, OpenAIResponsesWire, UpstreamWire
from realcli.gateway.wire import ChatReply, ChatRequest
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
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


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
