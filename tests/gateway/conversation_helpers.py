"""A minimal Chat Completions agent loop over a gateway's Unix socket, streamed or not, and a
fake provider (a threaded HTTP server on 127.0.0.1) for upstream tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from gateway_helpers import BUILTIN_TOOL_NAMES, tool

from realcli.gateway import UnixHTTPConnection


def post_chat(socket_path: Path, body: dict[str, Any]) -> dict[str, Any]:
    """One chat completion; returns ``{"status", "content", "tool_calls", "usage"}`` with
    ``tool_calls`` as ``[{id, name, arguments (JSON text)}]``, streamed replies reassembled."""
    conn = UnixHTTPConnection(socket_path, timeout=30)
    try:
        conn.request(
            "POST", "/v1/chat/completions", json.dumps(body), {"Content-Type": "application/json"}
        )
        resp = conn.getresponse()
        raw = resp.read()
    finally:
        conn.close()
    if resp.status != 200:
        return {"status": resp.status, "error": json.loads(raw)}
    if not body.get("stream"):
        message = json.loads(raw)["choices"][0]["message"]
        calls = [
            {"id": c["id"], "name": c["function"]["name"], "arguments": c["function"]["arguments"]}
            for c in message.get("tool_calls") or []
        ]
        usage = json.loads(raw)["usage"]
        return {"status": 200, "content": message["content"], "tool_calls": calls, "usage": usage}
    content, calls, usage = "", [], None
    for event in raw.decode().split("\n\n"):
        if not event.strip() or event == "data: [DONE]":
            continue
        chunk = json.loads(event.removeprefix("data: "))
        if chunk.get("usage"):
            usage = chunk["usage"]
        for choice in chunk["choices"]:
            delta = choice["delta"]
            content += delta.get("content") or ""
            for part in delta.get("tool_calls") or []:
                if part["index"] == len(calls):
                    calls.append({"id": part["id"], "name": part["function"]["name"]})
                    calls[-1]["arguments"] = ""
                calls[part["index"]]["arguments"] += part["function"]["arguments"]
    return {"status": 200, "content": content or None, "tool_calls": calls, "usage": usage}


def drive(
    socket_path: Path,
    *,
    stream: bool,
    tools: tuple[str, ...] = BUILTIN_TOOL_NAMES,
    max_turns: int = 30,
) -> list[dict[str, Any]]:
    """Run a whole conversation (tool results: ``ok <name>``) until a reply without tool
    calls; returns every reply."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a careful coding agent."},
        {"role": "user", "content": "Fix the bug in src/a.py."},
    ]
    replies = []
    for _ in range(max_turns):
        body: dict[str, Any] = {
            "model": "agent-model",
            "messages": messages,
            "tools": [tool(t) for t in tools],
            "stream": stream,
        }
        if stream:
            body["stream_options"] = {"include_usage": True}
        reply = post_chat(socket_path, body)
        assert reply["status"] == 200, reply
        replies.append(reply)
        if not reply["tool_calls"]:
            return replies
        wire_calls = [
            {
                "id": c["id"],
                "type": "function",
                "function": {"name": c["name"], "arguments": c["arguments"]},
            }
            for c in reply["tool_calls"]
        ]
        messages.append(
            {"role": "assistant", "content": reply["content"], "tool_calls": wire_calls}
        )
        for c in reply["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": f"ok {c['name']}"})
    raise AssertionError(f"no final reply after {max_turns} turns")


# ----------------------------------------------------------------------------- fake provider
@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    """Lower-cased names."""
    body: Any


@dataclass
class FakeProvider:
    """Answers POSTs from ``answers`` in order: ``(status, headers, JSON body or bytes)``;
    the last answer repeats. Records every request in ``seen``."""

    answers: list[tuple[int, dict[str, str], Any]]
    seen: list[Seen] = field(default_factory=list)
    port: int = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def answer(self) -> tuple[int, dict[str, str], Any]:
        index = min(len(self.seen) - 1, len(self.answers) - 1)
        return self.answers[index]


def _handler(provider: FakeProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {k.lower(): v for k, v in self.headers.items()}  # case-insensitive
            provider.seen.append(Seen(self.path, headers, json.loads(raw)))
            status, headers, body = provider.answer()
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def serve(provider: FakeProvider) -> Iterator[FakeProvider]:
    """Run ``provider`` on a free loopback port while the generator is suspended."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(provider))
    server.daemon_threads = True
    provider.port = int(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02})
    thread.start()
    try:
        yield provider
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
