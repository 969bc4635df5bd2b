"""The OpenHands CLI's settings for one run (see :mod:`realcli.harness.openhands`):
``agent_settings.json`` (a serialized SDK ``Agent``) and ``mcp.json`` (its MCP servers)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from realcli.harness.cli_agent import deep_merge
from realcli.schema.actions import GUI_PRIMITIVES

__all__ = [
    "CLI_TOOLS",
    "DEFAULT_BUILTINS",
    "DUMMY_KEY",
    "GUI_PREFIX",
    "GUI_TOOLS",
    "agent_settings",
    "mcp_settings",
]

DUMMY_KEY = "realcli-gateway"
CLI_TOOLS = ("terminal", "file_editor")
"""CLI tools offered in ``cli_only`` mode (of terminal, file_editor, task_tracker, task)."""
DEFAULT_BUILTINS = ("FinishTool", "ThinkTool")
"""The SDK's built-in tools (``finish``, ``think``): its defaults, kept."""
GUI_PREFIX = "gui_"
"""The OpenHands SDK names an MCP tool by the server's own name (``click``; fastmcp prefixes
``<server>_`` only when several servers are configured), so ``mcp.json`` renames each GUI
tool to ``gui_<tool>`` (a fastmcp tool transform): recognisable as GUI work in the
transcript and by the replay's tool map, and no clash with another harness's tool names."""
GUI_TOOLS = tuple(GUI_PREFIX + t for t in GUI_PRIMITIVES)
"""The GUI tools as OpenHands offers them (``gui_screenshot``, ``gui_click``...)."""
GUI_MCP_TIMEOUT_MS = 120_000
"""``mcpServers.gui.timeout``: per GUI call (``wait`` may take 60 s; fastmcp's default
is shorter)."""


def mcp_settings(command: str, args: list[str]) -> dict[str, Any]:
    """``mcp.json`` for one run: the GUI MCP server only (stdio), its tools renamed."""
    server = {
        "command": command,
        "args": list(args),
        "transport": "stdio",
        "timeout": GUI_MCP_TIMEOUT_MS,
        "tools": {t: {"name": GUI_PREFIX + t} for t in GUI_PRIMITIVES},
    }
    return {"mcpServers": {"gui": server}}


def agent_settings(
    *,
    base_url: str,
    model: str,
    output_limit: int,
    tools: tuple[str, ...] = CLI_TOOLS,
    gui_tools: tuple[str, ...] = (),
    builtin_tools: tuple[str, ...] = DEFAULT_BUILTINS,
    num_retries: int = 2,
    condenser: bool = False,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``agent_settings.json`` for one run: a serialized OpenHands SDK ``Agent``."""
    llm = {
        "model": f"openai/{model}",
        "base_url": base_url,
        "api_key": DUMMY_KEY,
        "usage_id": "agent",
        "num_retries": num_retries,
        "max_message_chars": output_limit,
        "stream": False,
    }
    settings: dict[str, Any] = {
        "llm": llm,
        "tools": [],  # the CLI sets its own tool list; the regex below filters it
        "filter_tools_regex": "^(" + "|".join(re.escape(t) for t in (*tools, *gui_tools)) + ")$",
        "include_default_tools": list(builtin_tools),
        "condenser": None,
        "system_prompt_kwargs": {"cli_mode": True},
        "kind": "Agent",
    }
    if condenser:  # OpenHands's default condenser (the CLI's when it creates the settings)
        settings["condenser"] = {
            "kind": "LLMSummarizingCondenser",
            "llm": {**llm, "usage_id": "condenser"},
            "max_size": 80,
            "keep_first": 4,
        }
    return deep_merge(settings, extra or {})
