"""The gateway over a real Unix socket (and TCP loopback) with a real HTTP client."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gateway_helpers import chat_body

from realcli.gateway import (
    Backend,
    ChatReply,
    ChatRequest,
    Gateway,
    ReplayBackend,
    UnixHTTPConnection,
    request_json,
)
from realcli.schema.actions import ShellAction, WriteAction
from realcli.schema.events import ModelCallEvent

StartGateway = Callable[..., Gateway]


class Exploding(Backend):
    name = "exploding"

    def respond(self, request: ChatRequest) -> ChatReply:
        raise RuntimeError("backend fell over")


def sock(gw: Gateway) -> Path:
    assert gw.socket_path is not None
    return gw.socket_path


def replay_backend() -> ReplayBackend:
    return ReplayBackend(
        [
            WriteAction(action="write", path="a.txt", content="x" * 150, note="write it"),
            ShellAction(action="shell", cmd="ls", note="look"),
        ]
    )


def read_sse(resp: http.client.HTTPResponse) -> list[Any]:
    """Parse Server-Sent Events: the JSON chunks, then the literal "[DONE]"."""
    events: list[Any] = []
    for raw in resp.read().decode().split("\n\n"):
        if not raw.strip():
            continue
        assert raw.startswith("data: "), raw
        data = raw[len("data: ") :]
        events.append(data if data == "[DONE]" else json.loads(data))
    return events


def test_non_stream_round_trip(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway(replay_backend())
    assert gw.socket_path is not None
    status, body = request_json(sock(gw), "POST", "/v1/chat/completions", chat_body())
    assert status == 200
    assert body["object"] == "chat.completion" and body["model"] == "test-model"
    choice = body["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] == "write it"
    (call,) = choice["message"]["tool_calls"]
    assert call["type"] == "function" and call["function"]["name"] == "write_file"
    assert json.loads(call["function"]["arguments"]) == {"path": "a.txt", "content": "x" * 150}
    assert body["usage"]["prompt_tokens"] > 0 and body["usage"]["completion_tokens"] > 0

    (event,) = events
    assert (event.wire_format, event.backend, event.model, event.status) == (
        "openai_chat",
        "replay",
        "test-model",
        200,
    )
    assert event.n_tool_calls == 1 and event.finish_reason == "tool_calls"
    assert (event.tokens_in, event.tokens_out) == (
        body["usage"]["prompt_tokens"],
        body["usage"]["completion_tokens"],
    )


def test_stream_round_trip(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway(replay_backend())
    conn = UnixHTTPConnection(sock(gw))
    body = chat_body(stream=True, stream_options={"include_usage": True})
    conn.request("POST", "/v1/chat/completions", json.dumps(body), {"Content-Type": "x/json"})
    resp = conn.getresponse()
    assert resp.status == 200 and resp.headers["Content-Type"] == "text/event-stream"
    chunks = read_sse(resp)
    conn.close()
    assert chunks[-1] == "[DONE]" and chunks[-2]["usage"]["completion_tokens"] > 0
    assert all(
        c["object"] == "chat.completion.chunk" and c["id"] == chunks[0]["id"] for c in chunks[:-1]
    )
    content, args, names, finish = "", "", [], None
    for chunk in chunks[:-2]:
        assert chunk["object"] == "chat.completion.chunk"
        (choice,) = chunk["choices"]
        delta = choice["delta"]
        content += delta.get("content") or ""
        for tc in delta.get("tool_calls", []):
            names += [tc["function"]["name"]] if "name" in tc["function"] else []
            args += tc["function"].get("arguments", "")
        finish = choice["finish_reason"] or finish
    assert content == "write it" and names == ["write_file"] and finish == "tool_calls"
    assert json.loads(args)["content"] == "x" * 150  # arguments arrive in several pieces
    assert len(events) == 1 and events[0].status == 200


def test_keep_alive_serves_several_requests_on_one_connection(start_gateway: StartGateway) -> None:
    gw = start_gateway()
    conn = UnixHTTPConnection(sock(gw))
    for stream in (False, True, False):
        conn.request("POST", "/v1/chat/completions", json.dumps(chat_body(stream=stream)))
        resp = conn.getresponse()
        data = resp.read()
        assert resp.status == 200 and b"done" in data
    conn.close()


def test_models_endpoint(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway()
    status, body = request_json(sock(gw), "GET", "/v1/models")
    assert status == 200 and [m["id"] for m in body["data"]] == ["test-model"]
    assert events == []  # only chat calls are model calls


@pytest.mark.parametrize(
    "payload",
    [b"{not json", b'{"messages": "nope"}', b"[]", b'{"messages": [{"content": "x"}]}'],
)
def test_bad_request_is_400_and_recorded(
    start_gateway: StartGateway, events: list[ModelCallEvent], payload: bytes
) -> None:
    gw = start_gateway()
    conn = UnixHTTPConnection(sock(gw))
    conn.request("POST", "/v1/chat/completions", payload)
    resp = conn.getresponse()
    body = json.loads(resp.read())
    conn.close()
    assert resp.status == 400 and body["error"]["type"] == "invalid_request_error"
    assert [e.status for e in events] == [400]


def test_backend_exception_is_500_and_recorded(
    start_gateway: StartGateway, events: list[ModelCallEvent]
) -> None:
    gw = start_gateway(Exploding())
    status, body = request_json(sock(gw), "POST", "/v1/chat/completions", chat_body())
    assert status == 500 and "backend fell over" in body["error"]["message"]
    (event,) = events
    assert event.status == 500 and event.backend == "exploding" and event.tokens_out == 0


def test_unknown_endpoint_is_404(start_gateway: StartGateway) -> None:
    gw = start_gateway()
    status, _ = request_json(sock(gw), "GET", "/v1/nothing")
    assert status == 404
    status, _ = request_json(sock(gw), "POST", "/v1/embeddings", {"x": 1})
    assert status == 404


def test_tcp_loopback_listener(start_gateway: StartGateway) -> None:
    gw = start_gateway(tcp_port=0)
    assert gw.tcp_address is not None
    host, port = gw.tcp_address
    assert host == "127.0.0.1"
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("POST", "/v1/chat/completions", json.dumps(chat_body()))
    resp = conn.getresponse()
    assert resp.status == 200 and json.loads(resp.read())["choices"][0]["message"]["content"]
    conn.close()


def test_synthetic_latency(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway(ReplayBackend([], latency_ms=120))
    request_json(sock(gw), "POST", "/v1/chat/completions", chat_body())
    assert events[0].latency_ms >= 120


def test_concurrent_calls_are_all_recorded(
    start_gateway: StartGateway, events: list[ModelCallEvent]
) -> None:
    gw = start_gateway(replay_backend())
    statuses: list[int] = []

    def call(n_done: int) -> None:
        status, _ = request_json(
            sock(gw),
            "POST",
            "/v1/chat/completions",
            chat_body(n_done=n_done % 3),
        )
        statuses.append(status)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * 12 and len(events) == 12


def test_on_call_failure_does_not_break_the_reply(socket_dir: Path) -> None:
    def broken(event: ModelCallEvent) -> None:
        raise OSError("disk full")

    with Gateway(replay_backend(), broken).start(socket_dir / "gw.sock") as gw:
        status, _ = request_json(
            socket_dir / "gw.sock", "POST", "/v1/chat/completions", chat_body()
        )
        assert status == 200 and gw.callback_errors == ["OSError: disk full"]
    assert not (socket_dir / "gw.sock").exists()  # stop() removes the socket


def test_start_validates(socket_dir: Path) -> None:
    gw = Gateway(replay_backend(), lambda e: None)
    with pytest.raises(ValueError):
        gw.start()
    with pytest.raises(ValueError, match="too long"):
        gw.start(socket_dir / ("x" * 120) / "gw.sock")
