"""Attack: flooding the model gateway with huge concurrent requests to blow up realcli's
memory (12 x 62 MB once pushed it to 641 MB). Bodies over ``sandbox.gateway_max_body_mb`` get
413 before a byte of them is read; under the cap, at most ``gateway_max_concurrent`` requests
and ``gateway_max_inflight_mb`` of bodies are handled at once. The real gateway runs in a
process of its own here, and its peak RSS (VmHWM) is measured against the documented bound:
idle + 4 x max(max_inflight, max_body). Loopback (a Unix socket) only, bounded loops.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from realcli.gateway.server import MAX_BODY_BYTES, MAX_CONCURRENT, MAX_INFLIGHT_BYTES

MB = 1024 * 1024
GATEWAY_PROC = Path(__file__).with_name("gateway_proc.py")
FLOOD = 12


def _status(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {key} for {pid}")


class _GatewayProcess:
    def __init__(self, tmp: Path, max_body: int, concurrent: int, inflight: int) -> None:
        self.socket = tmp / "gw.sock"
        argv = [sys.executable, str(GATEWAY_PROC), str(self.socket), str(tmp / "log.jsonl")]
        argv += [str(max_body), str(concurrent), str(inflight)]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "ready"
        self.idle_rss = _status(self.proc.pid, "VmRSS")

    def peak_growth(self) -> int:
        return _status(self.proc.pid, "VmHWM") - self.idle_rss

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


StartGateway = Callable[[int, int, int], _GatewayProcess]
"""``start(max_body_bytes, max_concurrent, max_inflight_bytes)``"""


@pytest.fixture
def start_gateway(tmp_path: Path) -> Iterator[StartGateway]:
    started: list[_GatewayProcess] = []

    def start(max_body: int, concurrent: int, inflight: int) -> _GatewayProcess:
        gw = _GatewayProcess(tmp_path, max_body, concurrent, inflight)
        started.append(gw)
        return gw

    yield start
    for gw in started:
        gw.close()


def _post(path: Path, body: bytes, statuses: list[str]) -> None:
    """One POST of ``body``; records the status line's code, or ``reset`` when the gateway
    closed the connection while the body was still being sent (after its 413)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(120)
    data = b""
    try:
        s.connect(str(path))
        head = (
            "POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        s.sendall(head.encode())
        with contextlib.suppress(OSError):  # refused early: the reply may still be there
            s.sendall(body)
        while chunk := s.recv(65536):
            data += chunk
            header, sep, rest = data.partition(b"\r\n\r\n")
            if sep:
                length = [
                    h for h in header.split(b"\r\n") if h.lower().startswith(b"content-length:")
                ]
                if length and len(rest) >= int(length[0].split(b":")[1]):
                    break
    except OSError:
        pass
    finally:
        s.close()
    statuses.append(data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "reset")


def _flood(path: Path, body: bytes) -> list[str]:
    statuses: list[str] = []
    threads = [threading.Thread(target=_post, args=(path, body, statuses)) for _ in range(FLOOD)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    return sorted(statuses)


def _chat_body(size: int) -> bytes:
    text = "x" * (size - 100)
    return json.dumps({"model": "m", "messages": [{"role": "user", "content": text}]}).encode()


def test_flood_of_62mb_requests_is_refused_unread_and_memory_stays_flat(
    start_gateway: StartGateway,
) -> None:
    gw = start_gateway(MAX_BODY_BYTES, MAX_CONCURRENT, MAX_INFLIGHT_BYTES)  # the defaults
    statuses = _flood(gw.socket, b"x" * (62 * MB))
    assert set(statuses) <= {"413", "reset"} and "413" in statuses, statuses
    bound = 4 * max(MAX_INFLIGHT_BYTES, MAX_BODY_BYTES)
    assert gw.peak_growth() < bound
    assert gw.peak_growth() < 8 * MB  # not one body was read into memory


def test_flood_under_the_cap_is_served_within_the_documented_bound(
    start_gateway: StartGateway,
) -> None:
    max_body, inflight = 8 * MB, 16 * MB  # the defaults scaled down 4x: a cheap test
    gw = start_gateway(max_body, MAX_CONCURRENT, inflight)
    statuses = _flood(gw.socket, _chat_body(max_body - MB // 2))
    assert statuses == ["200"] * FLOOD  # all served, in turn
    assert gw.peak_growth() < 4 * max(inflight, max_body), gw.peak_growth() / MB


def test_413_names_the_limit_and_the_config_key(start_gateway: StartGateway) -> None:
    gw = start_gateway(MB, MAX_CONCURRENT, MAX_INFLIGHT_BYTES)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(str(gw.socket))
    s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: gw\r\nContent-Length: 2000000\r\n\r\n")
    reply = b""
    while chunk := s.recv(65536):  # answered and closed without waiting for the body
        reply += chunk
    s.close()
    assert reply.startswith(b"HTTP/1.1 413")
    assert b"2000000 bytes exceeds the gateway's limit of 1048576" in reply
    assert b"sandbox.gateway_max_body_mb" in reply
