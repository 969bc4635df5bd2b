"""The model gateway: a local HTTP server on a Unix socket (and optionally TCP loopback).

Endpoints, one wire format each (:mod:`realcli.gateway.codecs`), ``/v1`` prefix optional:

- ``POST /v1/chat/completions``: OpenAI Chat Completions (``openai_chat``);
- ``POST /v1/responses``: OpenAI Responses (``openai_responses``, what Codex speaks);
- ``POST /v1/messages``: Anthropic Messages (``anthropic_messages``, what Claude Code speaks);
- ``GET /v1/models``: the one model this gateway serves;
- ``GET /gui/tools``, ``POST /gui/<tool>``: the run's trusted GUI tools
  (:class:`~realcli.gui.service.GuiService`; 404 when the run has no GUI channel).

Each answers ``stream: false`` with one JSON body and ``stream: true`` with Server-Sent
Events. Every model call (answered, rejected with 400, refused by a cost cap or failed with
500) is reported once through ``on_call`` as a :class:`ModelCallEvent` (``seq=0``: the ledger
writer stamps it), appended to the call log (``log_path``: request digest, tools, the reply
and its usage, redacted; what the ``recorded`` backend replays), and priced by the
:class:`~realcli.gateway.meter.Meter`. API keys of upstream providers live only in this
process (the ``upstream`` backend) and are redacted from everything it writes.

A flood keeps the gateway's memory bounded: a request whose ``Content-Length`` passes
``max_body_bytes`` gets 413 before any of its body is read (no ``Content-Length`` with a
chunked body: 411); a POST is read and handled only while at most ``max_concurrent`` others
are and their bodies total at most ``max_inflight_bytes`` (one request alone always fits);
the others wait, their bodies unread in the socket, up to ``queue_timeout_s``, then get 503
with ``Retry-After``. Buffers of 1 MiB and more are allocated with ``mmap`` (glibc's
``M_MMAP_THRESHOLD`` fixed at start), so a body's memory goes back to the OS when the request
ends instead of staying in a thread's malloc arena. Peak RSS stays under the idle process plus
``4 x max(max_inflight_bytes, max_body_bytes)`` (``tests/security/test_gateway_flood.py``).
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import ctypes.util
import json
import socketserver
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Self

from realcli.gateway.backends import Backend
from realcli.gateway.codecs import codec_for
from realcli.gateway.interject import Interjector
from realcli.gateway.meter import Meter
from realcli.gateway.wire import (
    ChatReply,
    ChatRequest,
    ReplyMeta,
    Usage,
    WireCodec,
    WireError,
    reply_tokens,
    request_tokens,
)
from realcli.gui import GuiArgumentError, GuiService
from realcli.schema.actions import gui_primitive
from realcli.schema.events import ModelCallEvent, ToolPoolEvent
from realcli.util.hashing import canonical_json, sha256_bytes
from realcli.util.redact import Redactor

__all__ = ["WIRE_FORMAT", "Gateway", "ToolPool"]

WIRE_FORMAT = "openai_chat"
"""The default wire format (the builtin agent's)."""
MAX_BODY_BYTES = 32 * 1024 * 1024
"""Default cap on a request body (the largest request Anthropic's API itself accepts)."""
MAX_CONCURRENT = 4
"""Default number of POSTs read and handled at once."""
MAX_INFLIGHT_BYTES = 64 * 1024 * 1024
"""Default total of the bodies read and handled at once."""
QUEUE_TIMEOUT_S = 120.0
"""Default wait of a request for a free slot before 503."""
_M_MMAP_THRESHOLD = -3  # mallopt(3)
_MMAP_FROM_BYTES = 1024 * 1024


def _return_big_buffers() -> None:
    """Allocate buffers of 1 MiB and more with mmap (glibc; elsewhere a no-op), so freed
    request bodies leave the process instead of growing each thread's malloc arena."""
    name = ctypes.util.find_library("c")
    if name is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(name).mallopt(_M_MMAP_THRESHOLD, _MMAP_FROM_BYTES)


class _Slots:
    """At most ``count`` requests and ``budget`` body bytes at once; a request alone always
    fits. :meth:`acquire` waits (bounded) for room."""

    def __init__(self, count: int, budget: int) -> None:
        self._cond = threading.Condition()
        self._free = count
        self._budget = self._room = budget

    def acquire(self, nbytes: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (self._free > 0 and (nbytes <= self._room or self._room == self._budget)):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            self._free -= 1
            self._room -= nbytes
            return True

    def release(self, nbytes: int) -> None:
        with self._cond:
            self._free += 1
            self._room += nbytes
            self._cond.notify_all()


_UNIX_PATH_MAX = 107


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    request_queue_size = 128  # a full Unix backlog fails connect() with EAGAIN, unlike TCP
    gateway: Gateway


class _TcpServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    gateway: Gateway


@dataclass
class ToolPool:
    """One distinct (tools, system prompt) pair offered to the model, and how often."""

    tools_digest: str
    system_digest: str
    tools: tuple[str, ...]
    schema_digests: tuple[str, ...]
    system_chars: int
    schemas: tuple[Any, ...]
    calls: int = 0

    def event(self) -> ToolPoolEvent:
        return ToolPoolEvent(
            seq=0,
            tools_digest=self.tools_digest,
            system_digest=self.system_digest,
            tools=self.tools,
            schema_digests=self.schema_digests,
            system_chars=self.system_chars,
            calls=self.calls,
        )


def _digest(obj: Any) -> str:
    return sha256_bytes((obj if isinstance(obj, str) else canonical_json(obj)).encode())


class Gateway:
    """Serves ``backend`` over HTTP; reports every call to ``on_call``.

    ``on_call`` runs on the server's request threads and must be thread-safe (the ledger
    writer is). An exception in it is recorded in :attr:`callback_errors`, not raised.
    ``meter`` prices calls and enforces cost caps; ``log_path`` receives one JSON line per
    model call (redacted with ``redactor``). ``gui`` serves the ``/gui`` routes (a run
    whose mode has the GUI channel); without it they answer 404.

    ``require_gui`` (a mode with the GUI channel): a request that offers tools but none of
    the GUI tools (the agent started before its GUI MCP server was up) is not given to the
    backend. It is recorded with status 503 (``finish_reason`` ``gui_tools_missing``),
    reported once to ``on_infra_error``, and answered with a final text reply without tool
    calls, so the agent ends its session at once instead of retrying: a run that cannot use
    the GUI is an infra error, never a silent skip of its GUI steps.
    """

    def __init__(
        self,
        backend: Backend,
        on_call: Callable[[ModelCallEvent], None],
        *,
        model_id: str = "realcli/model",
        meter: Meter | None = None,
        log_path: Path | None = None,
        redactor: Redactor | None = None,
        on_exchange: Callable[[Any, dict[str, Any]], None] | None = None,
        gui: GuiService | None = None,
        interjector: Interjector | None = None,
        first_call: int = 0,
        before_call: Callable[[ChatRequest], None] | None = None,
        require_gui: bool = False,
        on_infra_error: Callable[[str], None] | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
        max_concurrent: int = MAX_CONCURRENT,
        max_inflight_bytes: int = MAX_INFLIGHT_BYTES,
        queue_timeout_s: float = QUEUE_TIMEOUT_S,
    ) -> None:
        if min(max_body_bytes, max_concurrent, max_inflight_bytes) < 1 or queue_timeout_s <= 0:
            raise ValueError(
                "max_body_bytes, max_concurrent and max_inflight_bytes must be positive, "
                "queue_timeout_s > 0"
            )
        self.max_body_bytes = max_body_bytes
        self.queue_timeout_s = queue_timeout_s
        self.slots = _Slots(max_concurrent, max_inflight_bytes)
        self.backend = backend
        self.require_gui = require_gui
        self.on_infra_error = on_infra_error
        self.infra_errors: list[str] = []
        self.interjector = interjector
        self.before_call = before_call
        self.on_call = on_call
        self.model_id = model_id
        self.meter = meter or Meter()
        self.log_path = log_path
        self.redactor = redactor or Redactor()
        self.on_exchange = on_exchange
        self.gui = gui
        self.pools: dict[tuple[str, str], ToolPool] = {}
        self.callback_errors: list[str] = []
        self._servers: list[socketserver.BaseServer] = []
        self._threads: list[threading.Thread] = []
        self._socket_path: Path | None = None
        self._counter = first_call  # completion ids stay unique across a run's sessions
        self._lock = threading.Lock()

    # ----------------------------------------------------------------- lifecycle
    def start(self, socket_path: Path | None = None, *, tcp_port: int | None = None) -> Self:
        """Listen on the Unix ``socket_path`` (created, replaced if stale) and/or on TCP
        ``127.0.0.1:tcp_port`` (0 picks a free port; see :attr:`tcp_address`).

        Raises:
            ValueError: neither listener requested, or the socket path is too long.
            RuntimeError: already started.
            OSError: the socket cannot be bound.
        """
        if self._servers:
            raise RuntimeError("gateway already started")
        _return_big_buffers()
        if socket_path is None and tcp_port is None:
            raise ValueError("give a socket_path, a tcp_port, or both")
        if socket_path is not None:
            if len(str(socket_path).encode()) > _UNIX_PATH_MAX:
                raise ValueError(
                    f"Unix socket path too long (max {_UNIX_PATH_MAX} bytes): {socket_path}"
                )
            socket_path.parent.mkdir(parents=True, exist_ok=True)
            socket_path.unlink(missing_ok=True)
            unix = _UnixServer(str(socket_path), _Handler)
            socket_path.chmod(0o666)
            self._socket_path = socket_path
            self._servers.append(unix)
        if tcp_port is not None:
            self._servers.append(_TcpServer(("127.0.0.1", tcp_port), _Handler))
        for server in self._servers:
            server.gateway = self  # type: ignore[attr-defined]
            t = threading.Thread(
                target=server.serve_forever,
                kwargs={"poll_interval": 0.02},  # stop() waits at most this long
                name=f"gateway-{type(server).__name__}",
                daemon=True,
            )
            t.start()
            self._threads.append(t)
        return self

    def stop(self) -> None:
        """Stop listening and remove the socket file. Idempotent."""
        for server in self._servers:
            server.shutdown()
            server.server_close()
        for t in self._threads:
            t.join(timeout=5)
        self._servers.clear()
        self._threads.clear()
        if self._socket_path is not None:
            self._socket_path.unlink(missing_ok=True)
            self._socket_path = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def socket_path(self) -> Path | None:
        return self._socket_path

    @property
    def tcp_address(self) -> tuple[str, int] | None:
        for server in self._servers:
            if isinstance(server, _TcpServer):
                host, port = server.server_address[:2]
                return str(host), int(port)
        return None

    # ----------------------------------------------------------------- calls
    def next_completion_id(self) -> str:
        with self._lock:
            self._counter += 1
            return f"chatcmpl-realcli-{self._counter:06d}"

    def report(self, event: ModelCallEvent) -> None:
        try:
            self.on_call(event)
        except Exception as exc:  # the ledger failing must not take the agent down
            self.callback_errors.append(f"{type(exc).__name__}: {exc}")
            print(f"realcli gateway: on_call failed: {exc!r}", file=sys.stderr)

    def missing_gui(self, request: ChatRequest) -> str | None:
        """Why ``request`` cannot be served in a GUI mode (tools offered, no GUI tool)."""
        names = request.tool_names
        if not self.require_gui or not names or any(gui_primitive(n) for n in names):
            return None
        return (
            f"the mode has the GUI channel but this request offers no GUI tool "
            f"(tools: {', '.join(names)[:400]}): the agent started without its GUI tools "
            "(GUI MCP server not up?); realcli stopped the session as an infra error"
        )

    def infra_error(self, message: str) -> None:
        """Record an infra failure of the session; ``on_infra_error`` hears the first."""
        with self._lock:
            first = not self.infra_errors
            self.infra_errors.append(message)
        if first and self.on_infra_error is not None:
            try:
                self.on_infra_error(message)
            except Exception as exc:
                self.callback_errors.append(f"on_infra_error: {type(exc).__name__}: {exc}")

    def pool(self, request: ChatRequest) -> ToolPool:
        """The tool pool of ``request``, counted once more."""
        schemas = request.tool_schemas()
        system = request.system
        key = (_digest([s for _, s in schemas]), _digest(system))
        with self._lock:
            pool = self.pools.get(key)
            if pool is None:
                pool = self.pools[key] = ToolPool(
                    tools_digest=key[0],
                    system_digest=key[1],
                    tools=tuple(n for n, _ in schemas),
                    schema_digests=tuple(_digest(s) for _, s in schemas),
                    system_chars=len(system),
                    schemas=tuple(s for _, s in schemas),
                )
            pool.calls += 1
        return pool

    def event(
        self,
        *,
        model: str,
        started: float,
        status: int,
        wire: str = WIRE_FORMAT,
        usage: Usage | None = None,
        cost_usd: float = 0.0,
        reply: ChatReply | None = None,
        request: ChatRequest | None = None,
        finish_reason: str | None = None,
    ) -> ModelCallEvent:
        """The ``model_call`` event of one call (``seq=0``; the ledger writer stamps it)."""
        usage = usage or Usage(0, 0)
        pool = self.pool(request) if request is not None else None
        return ModelCallEvent(
            seq=0,
            wire_format=wire,
            backend=self.backend.name,
            model=model,
            tokens_in=usage.tokens_in,
            tokens_out=usage.tokens_out,
            tokens_cached=usage.tokens_cached,
            cost_usd=cost_usd,
            latency_ms=(time.monotonic() - started) * 1000.0,
            n_tool_calls=len(reply.tool_calls) if reply is not None else 0,
            finish_reason=finish_reason or (reply.finish_reason if reply is not None else "error"),
            status=status,
            tools_offered=request.tool_names if request is not None else (),
            tools_digest=pool.tools_digest if pool is not None else "",
            system_digest=pool.system_digest if pool is not None else "",
            tool_call_ids=tuple(c.id for c in reply.tool_calls) if reply is not None else (),
        )

    def log(self, record: dict[str, Any]) -> None:
        """Append one record to the call log (redacted), if there is one."""
        if self.log_path is None:
            return
        line = json.dumps(self.redactor.obj(record), ensure_ascii=False) + "\n"
        with self._lock, self.log_path.open("a", encoding="utf-8") as f:
            f.write(line)


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


_NO_GUI = "this run has no GUI channel (its mode has no 'gui'): no GUI tools here"


def _gui_error(message: str, kind: str) -> dict[str, Any]:
    return {"ok": False, "text": message, **_error(message, kind)}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "realcli-gateway/1"
    server: _UnixServer | _TcpServer

    def log_message(self, format: str, *args: Any) -> None:
        pass  # every call is in the ledger; no stderr noise

    def address_string(self) -> str:  # Unix peers have no (host, port)
        return "unix" if isinstance(self.client_address, str | bytes) else super().address_string()

    @property
    def gateway(self) -> Gateway:
        return self.server.gateway

    def _send_json(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _route(self) -> str:
        path = self.path.split("?", 1)[0].rstrip("/")
        return path[3:] if path.startswith("/v1/") else path

    def do_GET(self) -> None:
        if self._route() == "/gui/tools":
            gui = self.gateway.gui
            if gui is None:
                self._send_json(404, _gui_error(_NO_GUI, "not_found"))
            else:
                self._send_json(200, {"tools": gui.tools()})
        elif self._route() == "/models":
            model = {
                "id": self.gateway.model_id,
                "object": "model",
                "created": 0,
                "owned_by": "realcli",
            }
            self._send_json(200, {"object": "list", "data": [model]})
        else:
            self._send_json(404, _error(f"no such endpoint: GET {self.path}", "not_found"))

    def do_POST(self) -> None:
        """Bounds first (body size, then a free slot), then the route."""
        gw = self.gateway
        if self.headers.get("Transfer-Encoding", "identity").lower() != "identity":
            self._refuse(411, "send the request body with a Content-Length, not chunked")
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self._refuse(400, "bad request: Content-Length is not a number")
            return
        if length < 0:
            self._refuse(400, "bad request: Content-Length is negative")
            return
        if length > gw.max_body_bytes:
            self._refuse(
                413,
                f"request body of {length} bytes exceeds the gateway's limit of "
                f"{gw.max_body_bytes} bytes (sandbox.gateway_max_body_mb)",
            )
            return
        if not gw.slots.acquire(length, gw.queue_timeout_s):
            self._refuse(
                503,
                f"the gateway is busy: no free slot in {gw.queue_timeout_s:g}s "
                "(sandbox.gateway_max_concurrent, sandbox.gateway_max_inflight_mb); retry later",
                retry_after=True,
            )
            return
        try:
            self._post()
        finally:
            gw.slots.release(length)

    def _refuse(self, status: int, message: str, *, retry_after: bool = False) -> None:
        """Answer without reading the body, and close the connection (it is still unread)."""
        self.close_connection = True
        data = json.dumps(_error(message, "request_too_large" if status == 413 else "refused"))
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            if retry_after:
                self.send_header("Retry-After", "1")
            self.end_headers()
            self.wfile.write(data.encode())
        except OSError:  # the client went away
            pass

    def _post(self) -> None:
        route = self._route()
        if route.startswith("/gui/"):
            self._gui_call(route[len("/gui/") :])
            return
        codec = codec_for(route)
        if codec is not None:
            self._model_call(codec)
            return
        aux = codec_for(route, aux=True)
        try:
            body = json.loads(self._drain() or b"null")
        except (ValueError, UnicodeDecodeError) as exc:
            # Read the body so the client is not cut off mid-send (too large: closed anyway).
            self._send_json(400, _error(f"bad request: {exc}", "invalid_request_error"))
            return
        if aux is None:
            self._send_json(404, _error(f"no such endpoint: POST {self.path}", "not_found"))
            return
        try:
            self._send_json(200, aux.aux(route, body))
        except WireError as exc:
            self._send_json(400, aux.error(400, f"bad request: {exc}", "invalid_request_error"))

    def _gui_call(self, tool: str) -> None:
        """``POST /gui/<tool>`` with a JSON object of arguments (+ optional ``call_id``)."""
        gui = self.gateway.gui
        try:
            body = json.loads(self._drain() or b"{}")
        except (ValueError, UnicodeDecodeError) as exc:
            self._send_json(400, _gui_error(f"bad request: {exc}", "invalid_request_error"))
            return
        if gui is None:
            self._send_json(404, _gui_error(_NO_GUI, "not_found"))
            return
        if not isinstance(body, dict):
            message = f"{tool}: the body must be a JSON object of arguments"
            self._send_json(400, _gui_error(message, "invalid_request_error"))
            return
        call_id = body.pop("call_id", None)
        try:
            result = gui.call(tool, body, call_id=call_id)
        except GuiArgumentError as exc:  # unknown tool or bad arguments: nothing was done
            status = 404 if tool not in {t["name"] for t in gui.tools()} else 400
            kind = "not_found" if status == 404 else "invalid_request_error"
            self._send_json(status, _gui_error(str(exc), kind))
            return
        except Exception as exc:  # a bug in the service: the agent still gets an answer
            message = f"GUI service failed: {type(exc).__name__}: {exc}"
            self._send_json(500, _gui_error(message, "server_error"))
            return
        reply: dict[str, Any] = {"ok": result.ok, "text": result.text}
        if result.png is not None:
            reply["image_png_base64"] = base64.b64encode(result.png).decode("ascii")
        try:
            self._send_json(200, reply)
        except OSError:  # the client went away; the action still happened
            self.close_connection = True

    def _drain(self) -> bytes:
        """The body; its length was checked against the cap in :meth:`do_POST`."""
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _model_call(self, codec: WireCodec) -> None:
        gw = self.gateway
        started = time.monotonic()
        model = gw.model_id
        try:
            body = json.loads(self._drain() or b"null")
            if isinstance(body, dict) and isinstance(body.get("model"), str) and body["model"]:
                model = body["model"]
            request = codec.parse(body)
        except (ValueError, UnicodeDecodeError) as exc:  # WireError and JSONDecodeError
            gw.report(gw.event(model=model, started=started, status=400, wire=codec.name))
            self._send_json(400, codec.error(400, f"bad request: {exc}", "invalid_request_error"))
            return
        refusal = gw.meter.refuse()
        if refusal is not None:
            self._record_refusal(codec, request, model, started, 400, "cost_cap", refusal)
            self._send_json(400, codec.error(400, refusal, "budget_exceeded"))
            return
        missing = gw.missing_gui(request)
        if missing is not None:
            self._refuse_infra(codec, request, model, started, missing)
            return
        if gw.backend.latency_ms:
            time.sleep(gw.backend.latency_ms / 1000.0)
        if gw.before_call is not None:  # e.g. the runner's workspace snapshot
            try:
                gw.before_call(request)
            except Exception as exc:  # never the agent's failure
                gw.callback_errors.append(f"before_call: {type(exc).__name__}: {exc}")
        if gw.interjector is not None:  # guidance the runner queued for this session
            request = gw.interjector.apply(request)
        try:
            reply = gw.backend.respond(request)
        except Exception as exc:
            message = f"{gw.backend.name} backend failed: {type(exc).__name__}: {exc}"
            usage = Usage(request_tokens(request), 0)
            gw.report(
                gw.event(
                    model=model,
                    started=started,
                    status=500,
                    wire=codec.name,
                    usage=usage,
                    request=request,
                )
            )
            gw.log({"wire": codec.name, "status": 500, "error": message})
            self._send_json(500, codec.error(500, message, "server_error"))
            return
        usage = reply.usage or Usage(request_tokens(request), reply_tokens(reply))
        cost = gw.meter.cost(usage)
        gw.meter.add(cost)
        meta = ReplyMeta(
            gw.next_completion_id(),
            model,
            int(time.time()),
            (usage.tokens_in, usage.tokens_out),
            usage.tokens_cached,
        )
        # Recorded before the reply leaves: the ledger has the call before its tool calls.
        event = gw.event(
            model=model,
            started=started,
            status=200,
            wire=codec.name,
            usage=usage,
            cost_usd=cost,
            reply=reply,
            request=request,
        )
        gw.report(event)
        reply_json = {
            "content": reply.content,
            "tool_calls": [
                {"id": c.id, "name": c.name, "arguments": dict(c.arguments)}
                for c in reply.tool_calls
            ],
        }
        if gw.on_exchange is not None:
            try:
                gw.on_exchange(request.messages, reply_json)
            except Exception as exc:
                gw.callback_errors.append(f"on_exchange: {type(exc).__name__}: {exc}")
        gw.log(
            {
                "wire": codec.name,
                "status": 200,
                "model": model,
                "request_sha256": _digest({"messages": list(request.messages)}),
                "tools_digest": event.tools_digest,
                "assistant_turns": sum(1 for m in request.messages if m.get("role") == "assistant"),
                "reply": reply_json,
                "usage": {
                    "tokens_in": usage.tokens_in,
                    "tokens_out": usage.tokens_out,
                    "tokens_cached": usage.tokens_cached,
                },
                "cost_usd": cost,
            }
        )
        try:
            if request.stream:
                self._stream(codec, reply, request, meta)
            else:
                self._send_json(200, codec.body(reply, meta, request))
        except OSError:  # the client went away mid-reply; the call still happened
            self.close_connection = True

    def _record_refusal(
        self,
        codec: WireCodec,
        request: ChatRequest,
        model: str,
        started: float,
        status: int,
        finish_reason: str,
        why: str,
    ) -> None:
        """A request the gateway refused: a model-call event and a log line saying why."""
        gw = self.gateway
        gw.report(
            gw.event(
                model=model,
                started=started,
                status=status,
                wire=codec.name,
                request=request,
                finish_reason=finish_reason,
            )
        )
        gw.log({"wire": codec.name, "status": status, "refused": why})

    def _refuse_infra(
        self, codec: WireCodec, request: ChatRequest, model: str, started: float, why: str
    ) -> None:
        """Record an infra refusal (status 503) and end the agent's turn with ``why``."""
        gw = self.gateway
        self._record_refusal(codec, request, model, started, 503, "gui_tools_missing", why)
        gw.infra_error(why)
        reply = ChatReply(content=f"[realcli] {why}")
        meta = ReplyMeta(gw.next_completion_id(), model, int(time.time()), (0, 0), 0)
        try:
            if request.stream:
                self._stream(codec, reply, request, meta)
            else:
                self._send_json(200, codec.body(reply, meta, request))
        except OSError:
            self.close_connection = True

    def _stream(
        self, codec: WireCodec, reply: ChatReply, request: ChatRequest, meta: ReplyMeta
    ) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for event in codec.stream(reply, meta, request):
            self._write_chunk(event.encode())
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()
