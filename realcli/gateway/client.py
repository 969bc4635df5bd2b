"""A minimal HTTP client for the gateway's Unix socket (health checks, tests, tools)."""

from __future__ import annotations

import http.client
import json
import socket
from pathlib import Path
from typing import Any

__all__ = ["UnixHTTPConnection", "request_json"]


class UnixHTTPConnection(http.client.HTTPConnection):
    """``http.client.HTTPConnection`` over a Unix stream socket."""

    def __init__(self, socket_path: Path | str, timeout: float = 60.0) -> None:
        super().__init__("localhost", timeout=timeout)
        self.socket_path = str(socket_path)

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self.socket_path)
        self.sock = sock


def request_json(
    socket_path: Path | str, method: str, path: str, body: Any = None, *, timeout: float = 60.0
) -> tuple[int, Any]:
    """Send one request with an optional JSON body; return ``(status, parsed JSON body)``.

    Raises:
        OSError: the socket cannot be reached.
        ValueError: the response body is not JSON.
    """
    conn = UnixHTTPConnection(socket_path, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()
