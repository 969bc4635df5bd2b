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

import json
import socketserver
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from realcli.gateway.backends import Backend
from realcli.gateway.handler import GatewayHandler, TcpServer, UnixServer
from realcli.gateway.interject import Interjector
from realcli.gateway.limits import (
    MAX_BODY_BYTES,
    MAX_CONCURRENT,
    MAX_INFLIGHT_BYTES,
    QUEUE_TIMEOUT_S,
    Slots,
    return_big_buffers,
)
from realcli.gateway.meter import Meter
from realcli.gateway.tool_pool import ToolPool, digest
from realcli.gateway.wire import ChatReply, ChatRequest, Usage
from realcli.gui import GuiService
from realcli.schema.actions import gui_primitive
from realcli.schema.events import ModelCallEvent
from realcli.util.redact import Redactor

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_CONCURRENT",
    "MAX_INFLIGHT_BYTES",
    "QUEUE_TIMEOUT_S",
    "WIRE_FORMAT",
    "Gateway",
    "ToolPool",
]

WIRE_FORMAT = "openai_chat"
"""The default wire format (the builtin agent's)."""
_UNIX_PATH_MAX = 107


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
        self.slots = Slots(max_concurrent, max_inflight_bytes)
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
        return_big_buffers()
        if socket_path is None and tcp_port is None:
            raise ValueError("give a socket_path, a tcp_port, or both")
        if socket_path is not None:
            if len(str(socket_path).encode()) > _UNIX_PATH_MAX:
                raise ValueError(
                    f"Unix socket path too long (max {_UNIX_PATH_MAX} bytes): {socket_path}"
                )
            socket_path.parent.mkdir(parents=True, exist_ok=True)
            socket_path.unlink(missing_ok=True)
            unix = UnixServer(str(socket_path), GatewayHandler)
            socket_path.chmod(0o666)
            self._socket_path = socket_path
            self._servers.append(unix)
        if tcp_port is not None:
            self._servers.append(TcpServer(("127.0.0.1", tcp_port), GatewayHandler))
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
            if isinstance(server, TcpServer):
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
        key = (digest([s for _, s in schemas]), digest(system))
        with self._lock:
            pool = self.pools.get(key)
            if pool is None:
                pool = self.pools[key] = ToolPool(
                    tools_digest=key[0],
                    system_digest=key[1],
                    tools=tuple(n for n, _ in schemas),
                    schema_digests=tuple(digest(s) for _, s in schemas),
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
