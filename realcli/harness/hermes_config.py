"""Hermes's ``config.yaml`` for one run (see :mod:`realcli.harness.hermes`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from realcli.harness.cli_agent import deep_merge

__all__ = [
    "CLI_TOOLSETS",
    "DUMMY_KEY",
    "GUI_SERVER",
    "OPTION_NAMES",
    "TERMINAL_MAX_TIMEOUT_S",
    "gui_server",
    "hermes_config",
]

CLI_TOOLSETS = ("terminal", "file")
"""Hermes toolsets offered in ``cli_only`` mode: terminal, process, read_file, write_file,
patch, search_files."""
GUI_SERVER = "gui"
"""The GUI MCP server's key in ``mcp_servers``; it is also the toolset ``-t`` names (Hermes
aliases a server's name to its ``mcp-<server>`` toolset) and Hermes names its tools
``mcp__gui__<tool>``."""
GUI_CONNECT_TIMEOUT_S = 60
"""``connect_timeout`` of the GUI server (a Python process started in the sandbox)."""
GUI_CALL_TIMEOUT_S = 130
"""``timeout`` of one GUI call: above the server's own 120 s per forwarded call."""
MCP_DISCOVERY_TIMEOUT_S = 60
"""``mcp_discovery_timeout``: how long ``hermes chat`` waits for its MCP servers before the
first request (default 1.5 s; a server that misses it joins later, so the first requests
would lack its tools and the gateway would refuse them)."""
DUMMY_KEY = "realcli-gateway"
TERMINAL_MAX_TIMEOUT_S = 600
"""Hermes rejects a foreground terminal command with a larger timeout (also in
:mod:`realcli.gateway.toolsets.hermes`, which this layer may not import)."""
OPTION_NAMES = frozenset(
    {"toolsets", "verify_on_stop", "environment_probe", "max_retries", "config"}
)


def hermes_config(
    *,
    base_url: str,
    model: str,
    workdir: str,
    tool_timeout_s: float,
    output_limit: int,
    verify_on_stop: Any = "auto",
    environment_probe: bool = False,
    max_retries: int = 3,
    mcp_servers: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Hermes's ``config.yaml`` for one run (see :mod:`realcli.harness.hermes`);
    ``mcp_servers`` (e.g. :func:`gui_server`) go to ``mcp_servers``, none by default."""
    config: dict[str, Any] = {
        "model": {
            "provider": "custom",
            "base_url": base_url,
            "api_key": DUMMY_KEY,
            "default": model,
            "context_length": 200000,
        },
        "agent": {
            "api_max_retries": max_retries,
            "verify_on_stop": verify_on_stop,
            "environment_probe": environment_probe,
        },
        "terminal": {
            "backend": "local",
            "cwd": workdir,
            "timeout": min(max(1, int(tool_timeout_s)), TERMINAL_MAX_TIMEOUT_S),
            "auto_source_bashrc": False,
        },
        "tool_output": {"max_bytes": output_limit},
        "security": {"tirith_enabled": False, "allow_lazy_installs": False},
        "model_catalog": {"enabled": False},
        "compression": {"enabled": False},
        "auxiliary": {"title_generation": {"enabled": False}},
        "sessions": {"write_json_snapshots": True},
        "memory": {"memory_enabled": False, "user_profile_enabled": False},
        "curator": {"enabled": False},
        "display": {"inline_diffs": False, "file_mutation_verifier": False},
    }
    if mcp_servers:
        config["mcp_servers"] = dict(mcp_servers)
        config["mcp_discovery_timeout"] = MCP_DISCOVERY_TIMEOUT_S
    return deep_merge(config, extra or {})


def gui_server(command: str, args: Iterable[str]) -> dict[str, Any]:
    """The GUI MCP server as a ``mcp_servers`` entry (stdio, started by Hermes): its ten
    tools only (no resources/prompts utility tools)."""
    return {
        "command": command,
        "args": list(args),
        "connect_timeout": GUI_CONNECT_TIMEOUT_S,
        "timeout": GUI_CALL_TIMEOUT_S,
        "tools": {"resources": False, "prompts": False},
    }
