"""``model.upstream.max_concurrent``: several processes, each with several threads, calling
one provider never have more than that many requests in flight at once. The provider is a
real HTTP server on loopback that holds each request a while and records how many it served
at the same time."""

from __future__ import annotations

import json
import multiprocessing
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from realcli.gateway.upstream import UpstreamBackend
from realcli.gateway.wire import parse_chat_request
from realcli.schema.run_spec import UpstreamSpec

HOLD_S = 0.15
PROCESSES, THREADS, CALLS = 3, 3, 2


class _Provider(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.lock = threading.Lock()
        self.now = self.peak = self.served = 0


class _Handler(BaseHTTPRequestHandler):
    server: _Provider

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with self.server.lock:
            self.server.now += 1
            self.server.peak = max(self.server.peak, self.server.now)
        time.sleep(HOLD_S)
        with self.server.lock:
            self.server.now -= 1
            self.server.served += 1
        body = {
            "id": "c",
            "object": "chat.completion",
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "ok"},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def provider() -> Iterator[_Provider]:
    server = _Provider()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _spec(port: int, max_concurrent: int | None) -> UpstreamSpec:
    return UpstreamSpec(
        wire="openai_chat",
        base_url=f"http://127.0.0.1:{port}/v1",
        model="provider-model",
        api_key_env="REALCLI_TEST_PROVIDER_KEY",
        max_concurrent=max_concurrent,
    )


def _calls(port: int, max_concurrent: int | None, limits_dir: str) -> None:
    """One "run": THREADS threads, each CALLS model calls through the upstream backend."""
    backend = UpstreamBackend(
        _spec(port, max_concurrent), api_key="sk-test", limits_dir=Path(limits_dir)
    )
    request = parse_chat_request(
        {"model": "agent-model", "messages": [{"role": "user", "content": "hi"}]}
    )

    def work(_: int) -> None:
        for _ in range(CALLS):
            assert backend.respond(request).content == "ok"

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(work, range(THREADS)))


def _run_processes(port: int, max_concurrent: int | None, limits_dir: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    procs = [
        ctx.Process(target=_calls, args=(port, max_concurrent, str(limits_dir)))
        for _ in range(PROCESSES)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0


@pytest.mark.parametrize("limit", [1, 2])
def test_processes_and_threads_keep_to_the_providers_limit(
    provider: _Provider, tmp_path: Path, limit: int
) -> None:
    _run_processes(provider.server_address[1], limit, tmp_path / "limits")
    assert provider.served == PROCESSES * THREADS * CALLS
    assert provider.peak == limit
    assert not list((tmp_path / "limits").glob("*/slot-*.lease")), "every slot released"


def test_without_a_limit_they_overlap(provider: _Provider, tmp_path: Path) -> None:
    """The control: the same load without ``max_concurrent`` runs calls side by side."""
    _run_processes(provider.server_address[1], None, tmp_path / "limits")
    assert provider.served == PROCESSES * THREADS * CALLS
    assert provider.peak > 2
