"""The GUI MCP server (official ``mcp`` library), both transports, against a real gateway and
desktop: every call is forwarded to the trusted service, screenshots land in its events.
Also run inside a bubblewrap sandbox, where realcli itself is not importable."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gui_helpers import APPS, Probe, wait_until
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import ImageContent, TextContent

import realcli.gui.mcp_server as mcp_server
from realcli.gateway import Gateway, NoopBackend
from realcli.gui import GUI_TOOLS, Desktop, GuiDriver, GuiService
from realcli.sandbox import LocalSandbox, SandboxOptions
from realcli.schema.events import ScreenshotEvent

pytestmark = pytest.mark.gui

SERVER_FILE = Path(mcp_server.__file__)


class Run:
    def __init__(self, gateway: Gateway, service: GuiService) -> None:
        self.gateway = gateway
        self.service = service
        self.events: list[ScreenshotEvent] = []

    @property
    def base(self) -> str:
        assert self.gateway.tcp_address is not None
        return f"http://127.0.0.1:{self.gateway.tcp_address[1]}"


@pytest.fixture
def run(desktop: Desktop, tmp_path: Path, socket_dir: Path) -> Iterator[Run]:
    events: list[ScreenshotEvent] = []
    service = GuiService(GuiDriver(desktop), tmp_path / "screenshots", tmp_path, events.append)
    gateway = Gateway(NoopBackend(), lambda e: None, gui=service)
    gateway.start(socket_dir / "gw.sock", tcp_port=0)
    r = Run(gateway, service)
    r.events = events
    yield r
    gateway.stop()


def _text(result: Any) -> str:
    block = result.content[-1]
    assert isinstance(block, TextContent)
    return block.text


async def _exercise(client: Client, run: Run, probe: Probe, text: str) -> dict[str, Any]:
    async with client as c:
        tools = (await c.list_tools()).tools
        shot = await c.call_tool("screenshot", {})
        x, y = probe.entry
        clicked = await c.call_tool("click", {"x": x, "y": y})
        await c.call_tool("keypress", {"keys": "End shift+Home BackSpace"})
        typed = await c.call_tool("type", {"text": text})
        bad = await c.call_tool("click", {"x": 5})
        return {"tools": tools, "shot": shot, "clicked": clicked, "typed": typed, "bad": bad}


def _check(out: dict[str, Any], run: Run, probe: Probe, text: str) -> None:
    tools = out["tools"]
    assert [t.name for t in tools] == list(GUI_TOOLS)
    assert [t.input_schema for t in tools] == [t["input_schema"] for t in run.service.tools()]
    shot = out["shot"]
    assert not shot.is_error and isinstance(shot.content[0], ImageContent)
    assert shot.content[0].mime_type == "image/png"
    png = base64.b64decode(shot.content[0].data)
    assert [e.sha256 for e in run.events] == [hashlib.sha256(png).hexdigest()]
    assert _text(shot).startswith("screenshot 1280x800 PNG")
    assert not out["clicked"].is_error and _text(out["clicked"]).startswith("clicked left at")
    assert not out["typed"].is_error
    assert out["bad"].is_error and "'y' is a required property" in _text(out["bad"])
    wait_until(lambda: probe.name() == f"probe:{text}", 5, "the text typed over MCP")
    active = probe.desktop.xdotool("getactivewindow", "getwindowname").stdout.strip()
    assert active == f"probe:{text}"


def test_stdio_transport(run: Run, probe: Probe) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "realcli.gui.mcp_server", "--gateway", run.base]
    )
    out = asyncio.run(_exercise(Client(params), run, probe, "标准输入 stdio"))
    _check(out, run, probe, "标准输入 stdio")


def test_streamable_http_transport(run: Run, probe: Probe, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = [sys.executable, "-m", "realcli.gui.mcp_server", "--transport", "http",
            "--port", str(port), "--gateway", run.base]  # fmt: skip
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(argv, stdout=log, stderr=log)
    try:

        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        wait_until(lambda: listening() or server.poll() is not None, 20, "the HTTP server")
        assert server.poll() is None, (tmp_path / "server.log").read_text()
        url = f"http://127.0.0.1:{port}/mcp"
        out = asyncio.run(_exercise(Client(url), run, probe, "HTTP 传输"))
        _check(out, run, probe, "HTTP 传输")
    finally:
        server.terminate()
        server.wait(10)
        log.close()


def test_gateway_url_from_environment() -> None:
    assert mcp_server.gateway_url({}) == "http://127.0.0.1:8765"
    env = {"REALCLI_GATEWAY_URL": "http://127.0.0.1:9000/v1"}
    assert mcp_server.gateway_url(env) == "http://127.0.0.1:9000"
    assert mcp_server.gateway_url({"REALCLI_GATEWAY_URL": "http://h:1/"}) == "http://h:1"


def test_no_gateway_is_a_clear_startup_error() -> None:
    proc = subprocess.run(
        [sys.executable, str(SERVER_FILE), "--gateway", "http://127.0.0.1:9",
         "--connect-timeout", "0"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "cannot reach the GUI service at http://127.0.0.1:9" in proc.stderr


@pytest.mark.sandbox
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_inside_the_agent_sandbox(run: Run, probe: Probe, tmp_path: Path, transport: str) -> None:
    """As a harness would run it: the file mounted read-only, the venv's Python, the
    gateway only through the sandbox's forwarder at 127.0.0.1:8765."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    assert run.gateway.socket_path is not None
    sandbox = LocalSandbox(
        SandboxOptions(
            workspace=workspace,
            gateway_socket=run.gateway.socket_path,
            ro_binds=(
                (SERVER_FILE, "/run/realcli/gui/mcp_server.py"),
                (APPS / "mcp_client.py", "/run/realcli/mcp_client.py"),
            ),
        )
    )
    x, y = probe.entry
    text = f"沙箱 {transport}"
    result = sandbox.exec(
        ["python", "/run/realcli/mcp_client.py", "/run/realcli/gui/mcp_server.py",
         transport, str(x), str(y), text],
        timeout_s=60,
    )  # fmt: skip
    assert result.ok, result.stderr[-3000:]
    steps = [json.loads(line) for line in result.stdout.splitlines()]
    assert [s["step"] for s in steps] == ["tools", "screenshot", "click", "keypress", "type",
                                          "click"]  # fmt: skip
    assert steps[0]["names"] == list(GUI_TOOLS)
    assert steps[1]["kinds"] == ["image", "text"]
    assert [e.sha256 for e in run.events] == [steps[1]["sha256"]]  # taken and hashed outside
    assert (run.service.run_dir / run.events[0].path).is_file()
    assert not any(s["error"] for s in steps[2:5])
    assert steps[5]["error"] and "-1 is less than the minimum of 0" in steps[5]["text"]
    wait_until(lambda: probe.name() == f"probe:{text}", 5, f"the text typed over {transport}")
    if transport == "stdio":  # realcli itself is not importable in there; it is not needed
        no_realcli = sandbox.exec(["python", "-c", "import realcli"], timeout_s=30)
        assert "No module named 'realcli'" in no_realcli.stderr
