"""OpenClaw's ``openclaw.json`` for one run (see :mod:`realcli.harness.openclaw`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from realcli.harness.cli_agent import deep_merge
from realcli.schema.actions import GUI_PRIMITIVES

__all__ = [
    "CLI_TOOLS",
    "CONFIG_FILE",
    "GUI_SERVER",
    "GUI_TOOLS",
    "OPTION_NAMES",
    "PROVIDER",
    "STATE_DIR",
    "gui_server",
    "openclaw_config",
]

PROVIDER = "realcli"
"""The custom provider id in ``openclaw.json`` (the model is ``realcli/<model id>``)."""
CONFIG_FILE = "openclaw.json"
STATE_DIR = "state"
"""OpenClaw's state directory, relative to the per-run home."""
CLI_TOOLS = ("read", "write", "edit", "apply_patch", "exec", "process")
"""The tools offered in ``cli_only`` mode (``tools.allow``)."""
GUI_SERVER = "gui"
"""The GUI MCP server's key in ``mcp.servers``: OpenClaw names its tools ``gui__<tool>``
(the provider-safe server name, two underscores, the MCP tool name)."""
GUI_TOOLS = tuple(f"{GUI_SERVER}__{tool}" for tool in GUI_PRIMITIVES)
"""The GUI MCP server's tools as OpenClaw offers them, each allowed by name (``tools.allow``)."""
GUI_CONNECT_TIMEOUT_MS = 60_000
"""``connectionTimeoutMs``: the server is a Python process started in the sandbox (slow to
import on a loaded machine); OpenClaw's default is 30 s."""
GUI_REQUEST_TIMEOUT_MS = 130_000
"""``requestTimeoutMs``: above the server's own 120 s per forwarded call (``wait`` may take
60 s)."""
OPTION_NAMES = frozenset(
    {
        "tools",
        "plugins",
        "skills",
        "background_ms",
        "context_window",
        "max_tokens",
        "config",
        "extra_args",
    }
)


def openclaw_config(
    *,
    base_url: str,
    model: str,
    tools: Iterable[str] = CLI_TOOLS,
    tool_timeout_s: float = 300,
    plugins: bool = True,
    skills: bool = False,
    background_ms: int | None = None,
    context_window: int = 200_000,
    max_tokens: int = 8192,
    mcp_servers: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``openclaw.json`` for one run against the gateway at ``base_url`` (ends in ``/v1``);
    ``mcp_servers`` (e.g. :func:`gui_server`) go to ``mcp.servers``, none by default."""
    exec_tool: dict[str, Any] = {"timeoutSeconds": max(1, round(tool_timeout_s))}
    if background_ms is not None:
        exec_tool["backgroundMs"] = int(background_ms)
    zero = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}
    agent_defaults: dict[str, Any] = {"model": {"primary": f"{PROVIDER}/{model}"}}
    if not skills:
        agent_defaults["skills"] = []
    config: dict[str, Any] = {
        "update": {"checkOnStart": False},
        "telemetry": {"enabled": False},
        "models": {
            "mode": "replace",
            "providers": {
                PROVIDER: {
                    "baseUrl": base_url,
                    "apiKey": "realcli-gateway",
                    "api": "openai-completions",
                    "models": [
                        {
                            "id": model,
                            "name": model,
                            "reasoning": False,
                            "input": ["text"],
                            "cost": zero,
                            "contextWindow": int(context_window),
                            "maxTokens": int(max_tokens),
                        }
                    ],
                }
            },
        },
        "tools": {"toolSearch": False, "allow": list(tools), "exec": exec_tool},
        "agents": {"defaults": agent_defaults},
    }
    if mcp_servers:
        config["mcp"] = {"servers": dict(mcp_servers)}
    if not plugins:
        config["plugins"] = {"enabled": False}
    return deep_merge(config, extra or {})


def gui_server(command: str, args: Iterable[str]) -> dict[str, Any]:
    """The GUI MCP server as an ``mcp.servers`` entry (stdio, started by OpenClaw)."""
    return {
        "command": command,
        "args": list(args),
        "connectionTimeoutMs": GUI_CONNECT_TIMEOUT_MS,
        "requestTimeoutMs": GUI_REQUEST_TIMEOUT_MS,
    }
