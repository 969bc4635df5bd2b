"""The gateway's /gui routes in front of a real GuiService (and 404 without one)."""

from __future__ import annotations

import base64
import hashlib
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gui_helpers import Probe, wait_until

from realcli.gateway import Gateway, NoopBackend
from realcli.gui import GUI_TOOLS, Desktop, GuiDriver, GuiService
from realcli.schema.events import ScreenshotEvent

pytestmark = pytest.mark.gui


def _http(base: str, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture
def gateway(
    desktop: Desktop, tmp_path: Path
) -> Iterator[tuple[str, list[ScreenshotEvent], GuiService]]:
    events: list[ScreenshotEvent] = []
    service = GuiService(GuiDriver(desktop), tmp_path / "screenshots", tmp_path, events.append)
    gw = Gateway(NoopBackend(), lambda e: None, gui=service).start(tcp_port=0)
    assert gw.tcp_address is not None
    yield f"http://127.0.0.1:{gw.tcp_address[1]}", events, service
    gw.stop()


def test_tools_are_listed(gateway: tuple[str, list[ScreenshotEvent], GuiService]) -> None:
    base, _, service = gateway
    status, reply = _http(base, "GET", "/gui/tools")
    assert status == 200 and reply == {"tools": service.tools()}
    assert [t["name"] for t in reply["tools"]] == list(GUI_TOOLS)
    assert _http(base, "GET", "/v1/gui/tools") == (status, reply)  # like every route


def test_screenshot_and_actions(
    gateway: tuple[str, list[ScreenshotEvent], GuiService], probe: Probe
) -> None:
    base, events, _ = gateway
    status, reply = _http(base, "POST", "/gui/screenshot", {"call_id": "toolu_01"})
    assert status == 200 and reply["ok"] is True
    png = base64.b64decode(reply["image_png_base64"])
    assert png.startswith(b"\x89PNG") and f"{len(png)} bytes" in reply["text"]
    assert events[-1].sha256 == hashlib.sha256(png).hexdigest()
    assert events[-1].call_id == "toolu_01"
    x, y = probe.entry
    status, reply = _http(base, "POST", "/gui/click", {"x": x, "y": y})
    assert (status, reply) == (200, {"ok": True, "text": f"clicked left at ({x}, {y})"})
    _http(base, "POST", "/gui/keypress", {"keys": "End shift+Home BackSpace"})
    status, reply = _http(base, "POST", "/gui/type", {"text": "网关"})
    assert status == 200 and reply["ok"] and "image_png_base64" not in reply
    wait_until(lambda: probe.name() == "probe:网关", 5, "the typed text")


def test_errors(gateway: tuple[str, list[ScreenshotEvent], GuiService]) -> None:
    base, events, _ = gateway
    status, reply = _http(base, "POST", "/gui/click", {"x": 1, "y": 99999})
    assert status == 400 and reply["ok"] is False
    assert "y: 99999 is greater than the maximum of 799" in reply["text"]
    assert reply["error"]["type"] == "invalid_request_error"
    status, reply = _http(base, "POST", "/gui/keypress", {"keys": "ctrl+bogus"})
    assert status == 400 and "unknown key name(s) 'bogus'" in reply["text"]
    status, reply = _http(base, "POST", "/gui/teleport", {})
    assert status == 404 and "no GUI tool named 'teleport'" in reply["text"]
    status, reply = _http(base, "POST", "/gui/click", [1, 2])
    assert status == 400 and "must be a JSON object" in reply["text"]
    status, reply = _http(base, "POST", "/gui/screenshot", {"call_id": 7})
    assert status == 400 and "call_id" in reply["text"]
    assert events == []


def test_a_run_without_gui_answers_404() -> None:
    gw = Gateway(NoopBackend(), lambda e: None).start(tcp_port=0)
    try:
        assert gw.tcp_address is not None
        base = f"http://127.0.0.1:{gw.tcp_address[1]}"
        for method, path, body in (("GET", "/gui/tools", None), ("POST", "/gui/click", {})):
            status, reply = _http(base, method, path, body)
            assert status == 404 and reply["ok"] is False
            assert "this run has no GUI channel" in reply["text"]
        assert _http(base, "GET", "/v1/models")[0] == 200  # the rest is unchanged
    finally:
        gw.stop()
