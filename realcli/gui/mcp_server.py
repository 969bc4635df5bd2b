"""The GUI tools as an MCP server, for agents that take tools over MCP (Claude Code, Codex...).

It runs inside the agent's sandbox and does nothing itself: every tool call is forwarded
over HTTP to the trusted GUI service at the run's gateway (``POST <gateway>/gui/<tool>``),
which acts on the display from the host and takes, saves and hashes every screenshot there
(so no screenshot the agent sees was made inside its sandbox). The tool list is the
gateway's (``GET <gateway>/gui/tools``): the same ten tools, names and schemas as
:data:`realcli.gui.service.GUI_TOOLS`. ``screenshot`` answers an image block and a text.

Only the standard library and ``mcp`` are imported (realcli itself need not be importable:
inside a sandbox only the venv is mounted), so this file also runs as a script::

    python -m realcli.gui.mcp_server --transport stdio
    python /run/realcli/gui/mcp_server.py --transport http --port 8931   # streamable HTTP

``--gateway`` defaults to ``$REALCLI_GATEWAY_URL`` without its ``/v1``
(``http://127.0.0.1:8765`` when unset).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

__all__ = ["GatewayClient", "build_server", "gateway_url", "main"]

DEFAULT_GATEWAY = "http://127.0.0.1:8765"
SERVER_NAME = "gui"
CALL_TIMEOUT_S = 120.0
"""Per forwarded call (``wait`` may take 60 s, ``type`` of a long text a while)."""


def gateway_url(env: Mapping[str, str] | None = None) -> str:
    """The gateway's base URL: ``$REALCLI_GATEWAY_URL`` minus a trailing ``/v1``."""
    env = os.environ if env is None else env
    url = (env.get("REALCLI_GATEWAY_URL") or DEFAULT_GATEWAY).rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


class GatewayError(RuntimeError):
    """The gateway could not be reached or did not answer JSON."""


class GatewayClient:
    """The trusted GUI service, over HTTP (stdlib ``urllib``; loopback, no proxies)."""

    def __init__(self, base_url: str, *, timeout_s: float = CALL_TIMEOUT_S) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _request(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base_url + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json"} if data is not None else {},
        )
        try:
            with self._opener.open(request, timeout=self.timeout_s) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as exc:  # 4xx/5xx still carry a JSON body
            status, raw = exc.code, exc.read()
        except (OSError, urllib.error.URLError) as exc:
            raise GatewayError(f"cannot reach the GUI service at {self.base_url}: {exc}") from exc
        try:
            reply = json.loads(raw)
        except ValueError as exc:
            raise GatewayError(f"{method} {path}: HTTP {status}, not JSON: {raw[:200]!r}") from exc
        if not isinstance(reply, dict):
            raise GatewayError(f"{method} {path}: HTTP {status}, not a JSON object")
        return status, reply

    def tools(self, *, wait_s: float = 10.0) -> list[dict[str, Any]]:
        """The GUI tools the gateway serves (retrying while it is not up yet)."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                status, reply = self._request("GET", "/gui/tools")
                break
            except GatewayError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        if status != 200 or not isinstance(reply.get("tools"), list):
            raise GatewayError(f"GET /gui/tools: HTTP {status}: {reply.get('text', reply)}")
        return list(reply["tools"])

    def call(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Forward one tool call; ``{"ok", "text", "image_png_base64"?}`` (errors included)."""
        try:
            status, reply = self._request("POST", f"/gui/{name}", dict(arguments))
        except GatewayError as exc:
            return {"ok": False, "text": str(exc)}
        if "text" not in reply:
            reply["text"] = f"HTTP {status}"
        reply["ok"] = bool(reply.get("ok")) and status == 200
        return reply


def build_server(client: GatewayClient, tools: list[dict[str, Any]]) -> Any:
    """An ``MCPServer`` whose tools are ``tools``, each forwarded through ``client``."""
    import anyio
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.tools.base import Tool
    from mcp.server.mcpserver.utilities.func_metadata import func_metadata
    from mcp.types import CallToolResult, ContentBlock, ImageContent, TextContent

    def _unused() -> None:  # stands in for the function a Tool normally wraps
        raise NotImplementedError

    class ForwardedTool(Tool):
        """A tool that hands its raw arguments to the trusted service (which validates them
        against the same schema and answers 400 with the reason)."""

        async def run(
            self, arguments: dict[str, Any], context: Any, convert_result: bool = False
        ) -> CallToolResult:
            reply = await anyio.to_thread.run_sync(client.call, self.name, arguments)
            content: list[ContentBlock] = []
            image = reply.get("image_png_base64")
            if isinstance(image, str) and image:
                content.append(ImageContent(type="image", data=image, mime_type="image/png"))
            content.append(TextContent(type="text", text=str(reply.get("text", ""))))
            return CallToolResult(content=content, is_error=not reply["ok"])

    metadata = func_metadata(_unused, structured_output=False)
    registered: list[Tool] = [
        ForwardedTool(
            fn=_unused,
            name=spec["name"],
            description=spec.get("description", ""),
            parameters=spec.get("input_schema") or {"type": "object"},
            fn_metadata=metadata,
            is_async=True,
        )
        for spec in tools
    ]
    return MCPServer(
        SERVER_NAME,
        instructions="GUI tools for this run's screen: take a screenshot first, then click, "
        "type and press keys at pixel coordinates of the latest screenshot.",
        tools=registered,
        log_level="WARNING",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m realcli.gui.mcp_server",
        description="MCP server forwarding GUI tools to realcli's trusted GUI service.",
    )
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--port", type=int, default=8931, help="for --transport http")
    parser.add_argument("--host", default="127.0.0.1", help="for --transport http")
    parser.add_argument(
        "--gateway",
        default=None,
        help="the gateway's base URL (default: $REALCLI_GATEWAY_URL minus /v1, or "
        f"{DEFAULT_GATEWAY})",
    )
    parser.add_argument(
        "--connect-timeout", type=float, default=10.0, help="seconds to wait for the gateway"
    )
    args = parser.parse_args(argv)
    client = GatewayClient(args.gateway or gateway_url())
    try:
        tools = client.tools(wait_s=args.connect_timeout)
    except GatewayError as exc:
        print(f"realcli gui mcp server: {exc}", file=sys.stderr)
        return 2
    server = build_server(client, tools)
    if args.transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=args.host, port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
