"""The model gateway: a local HTTP server on a Unix socket (and optionally TCP loopback).

Endpoints (OpenAI Chat Completions wire format, ``wire_format="openai_chat"``):

- ``POST /v1/chat/completions``: ``stream: false`` -> one ``chat.completion`` JSON object;
  ``stream: true`` -> Server-Sent Events, ``data: {chunk}`` lines then ``data: [DONE]``.
- ``GET /v1/models``: the one model this gateway serves.

Every chat call (answered, rejected with 400 or failed with 500) is reported once through
``on_call`` as a :class:`ModelCallEvent` (with ``seq=0``: the ledger writer stamps it).
API keys of upstream providers would live only in this process.
"""

from __future__ import annotations

import contextlib
import json
import socketserver
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Self

from realcli.gateway.backends import Backend
from realcli.gateway.wire import (
    ChatReply,
    ChatRequest,
    ReplyMeta,
    WireError,
    completion_body,
    parse_chat_request,
    reply_tokens,
    request_tokens,
    stream_chunks,
)
from realcli.schema.events import ModelCallEvent

__all__ = ["WIRE_FORMAT", "Gateway"]

WIRE_FORMAT = "openai_chat"
MAX_BODY_BYTES = 64 * 1024 * 1024
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


class Gateway:
    """Serves ``backend`` over HTTP; reports every call to ``on_call``.

    ``on_call`` runs on the server's request threads and must be thread-safe (the ledger
    writer is). An exception in it is recorded in :attr:`callback_errors`, not raised.
    """

    def __init__(
        self,
        backend: Backend,
        on_call: Callable[[ModelCallEvent], None],
        *,
        model_id: str = "realcli/model",
    ) -> None:
        self.backend = backend
        self.on_call = on_call
        self.model_id = model_id
        self.callback_errors: list[str] = []
        self._servers: list[socketserver.BaseServer] = []
        self._threads: list[threading.Thread] = []
        self._socket_path: Path | None = None
        self._counter = 0
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

    def event(
        self,
        *,
        model: str,
        started: float,
        status: int,
        tokens: tuple[int, int] = (0, 0),
        reply: ChatReply | None = None,
        request: ChatRequest | None = None,
    ) -> ModelCallEvent:
        """The ``model_call`` event of one call (``seq=0``; the ledger writer stamps it)."""
        return ModelCallEvent(
            seq=0,
            wire_format=WIRE_FORMAT,
            backend=self.backend.name,
            model=model,
            tokens_in=tokens[0],
            tokens_out=tokens[1],
            latency_ms=(time.monotonic() - started) * 1000.0,
            n_tool_calls=len(reply.tool_calls) if reply is not None else 0,
            finish_reason=reply.finish_reason if reply is not None else "error",
            status=status,
            tools_offered=request.tool_names if request is not None else (),
        )


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


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
        if self._route() == "/models":
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
        if self._route() != "/chat/completions":
            # Read the body so the client is not cut off mid-send (too large: closed anyway).
            with contextlib.suppress(ValueError):
                self._drain()
            self._send_json(404, _error(f"no such endpoint: POST {self.path}", "not_found"))
            return
        self._chat()

    def _drain(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self.close_connection = True
            raise WireError(f"request body too large ({length} bytes)")
        return self.rfile.read(length) if length > 0 else b""

    def _chat(self) -> None:
        gw = self.gateway
        started = time.monotonic()
        model = gw.model_id
        try:
            body = json.loads(self._drain() or b"null")
            if isinstance(body, dict) and isinstance(body.get("model"), str) and body["model"]:
                model = body["model"]
            request = parse_chat_request(body)
        except (ValueError, UnicodeDecodeError) as exc:  # WireError and JSONDecodeError
            gw.report(gw.event(model=model, started=started, status=400))
            self._send_json(400, _error(f"bad request: {exc}", "invalid_request_error"))
            return
        if gw.backend.latency_ms:
            time.sleep(gw.backend.latency_ms / 1000.0)
        try:
            reply = gw.backend.respond(request)
        except Exception as exc:
            message = f"{gw.backend.name} backend failed: {type(exc).__name__}: {exc}"
            tokens_in = request_tokens(request)
            gw.report(
                gw.event(
                    model=model,
                    started=started,
                    status=500,
                    tokens=(tokens_in, 0),
                    request=request,
                )
            )
            self._send_json(500, _error(message, "server_error"))
            return
        tokens = (request_tokens(request), reply_tokens(reply))
        meta = ReplyMeta(gw.next_completion_id(), model, int(time.time()), tokens)
        # Recorded before the reply leaves: the ledger has the call before its tool calls.
        gw.report(
            gw.event(
                model=model,
                started=started,
                status=200,
                tokens=tokens,
                reply=reply,
                request=request,
            )
        )
        try:
            if request.stream:
                self._stream(reply, request, meta)
            else:
                self._send_json(200, completion_body(reply, meta))
        except OSError:  # the client went away mid-reply; the call still happened
            self.close_connection = True

    def _stream(self, reply: ChatReply, request: ChatRequest, meta: ReplyMeta) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for chunk in stream_chunks(reply, meta, include_usage=request.include_usage):
            self._write_chunk(f"data: {json.dumps(chunk)}\n\n".encode())
        self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()
