"""Headless Chromium (Debian's ``chromium``) driven over the DevTools protocol on a pipe.

``--remote-debugging-pipe`` makes the browser read protocol commands from fd 3 and write
replies and events to fd 4, each a JSON message ended by a NUL byte: no port, no websocket
library, nothing downloaded. Name resolution is mapped to nothing, so a page that tried to
fetch from the network would fail to (the report must not need it).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["Chromium", "chromium_path"]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Chromium:
    """One headless browser with one tab; use as a context manager."""

    def __init__(self, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self._id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        self._profile = tempfile.mkdtemp(prefix="rc-chromium-")
        browser = chromium_path()
        if browser is None:
            raise FileNotFoundError("chromium is not installed (apt-get install chromium)")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # above 4, so that placing them on 3 and 4 in the child cannot overwrite one another
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser_r, from_browser_w)]
        os.close(to_browser_r)
        os.close(from_browser_w)
        to_browser_r, from_browser_w = high

        def wire_fds() -> None:  # in the child: fd 3 = commands in, fd 4 = replies out
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self._proc = subprocess.Popen(
            [
                browser,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--host-resolver-rules=MAP * ~NOTFOUND",
                f"--user-data-dir={self._profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire_fds,
            pass_fds=(3, 4),  # kept open after wire_fds (the other fds are closed after it)
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        self.send("Page.enable")
        self.send("Runtime.enable")

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, TimeoutError):
            self._call("Browser.close")
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self._profile, ignore_errors=True)

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError(f"chromium exited (code {self._proc.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        parsed: dict[str, Any] = json.loads(message)
        return parsed

    def _call(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self._events.append(reply)

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """A protocol command in the tab's session."""
        return self._call(method, params, self._session)

    def wait_event(self, method: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, event in enumerate(self._events):
                if event.get("method") == method:
                    del self._events[i]
                    return event
            self._events.append(self._read_message(deadline))

    def open(self, url: str) -> float:
        """Navigate to ``url`` and wait for its load event; the seconds it took."""
        self._events = [e for e in self._events if e.get("method") != "Page.loadEventFired"]
        start = time.monotonic()
        reply = self.send("Page.navigate", {"url": url})
        if reply.get("errorText"):
            raise RuntimeError(f"{url}: {reply['errorText']}")
        self.wait_event("Page.loadEventFired")
        return time.monotonic() - start

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited when a promise)."""
        reply = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(self, path: Path, width: int = 1280, height: int = 900) -> None:
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))
