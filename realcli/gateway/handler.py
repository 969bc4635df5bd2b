"""The gateway's HTTP side: the request handler that routes each request (model calls in
each wire format, ``/v1/models``, the ``/gui`` routes), enforces the flood bounds before a
body is read, records every call through its :class:`~realcli.gateway.server.Gateway`, and
the threaded Unix-socket and TCP servers it runs in."""

from __future__ import annotations

import base64
import json
import socketserver
import time
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from realcli.gateway.codecs import codec_for
from realcli.gateway.tool_pool import digest
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
from realcli.gui import GuiArgumentError

if TYPE_CHECKING:
    from realcli.gateway.server import Gateway

__all__ = ["GatewayHandler", "TcpServer", "UnixServer"]


class UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    request_queue_size = 128  # a full Unix backlog fails connect() with EAGAIN, unlike TCP
    gateway: Gateway


class TcpServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    gateway: Gateway


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


_NO_GUI = "this run has no GUI channel (its mode has no 'gui'): no GUI tools here"


def _gui_error(message: str, kind: str) -> dict[str, Any]:
    return {"ok": False, "text": message, **_error(message, kind)}


class GatewayHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "realcli-gateway/1"
    server: UnixServer | TcpServer

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
                "request_sha256": digest({"messages": list(request.messages)}),
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
