"""Tools of the hermes harness, as the replay backend maps generic actions onto them.

Hermes (``-t terminal,file``) offers ``terminal``, ``process``, ``read_file``, ``write_file``,
``patch`` and ``search_files``. ``read_file`` (``{path}``) and ``write_file``
(``{path, content}``) take the builtin harness's arguments, so the builtin builders already
map them; this module adds ``patch`` (replace mode: ``old_string`` must occur exactly once,
as an ``edit`` action requires) and ``terminal`` (``timeout`` is an integer number of
seconds, at most 600 for a foreground command).

GUI modes: Hermes names the GUI MCP server's tools ``mcp__gui__<tool>`` (``mcp_servers.gui``,
toolset ``gui``); a ``gui`` action maps onto them by that name
(:data:`realcli.schema.actions.GUI_TOOL_PREFIXES`), arguments unchanged.

OpenHands also names its shell tool ``terminal`` (tool names are global across harnesses):
when the offered ``terminal`` schema has OpenHands's ``security_risk`` parameter, the builder
uses :func:`realcli.gateway.toolsets.openhands.terminal_args` instead.
"""

from __future__ import annotations

import math
from typing import Any

from realcli.gateway.toolsets.base import TOOLSETS, Target, ToolTables
from realcli.gateway.toolsets.openhands import terminal_args as openhands_terminal_args
from realcli.schema.actions import Action, EditAction

__all__ = ["TABLES", "TERMINAL_MAX_TIMEOUT_S"]

TERMINAL_MAX_TIMEOUT_S = 600
"""Hermes rejects a foreground ``terminal`` call with a larger ``timeout``."""


def _patch_args(a: Action, t: Target) -> dict[str, Any]:
    assert isinstance(a, EditAction)
    return {"mode": "replace", "path": a.path, "old_string": a.old, "new_string": a.new}


def _terminal_args(cmd: str, timeout_s: float, t: Target) -> dict[str, Any]:
    if "security_risk" in t.params("terminal"):  # OpenHands's terminal, not Hermes's
        return openhands_terminal_args(cmd, timeout_s, t)
    timeout = min(max(math.ceil(timeout_s), 1), TERMINAL_MAX_TIMEOUT_S)
    return {"command": cmd, "timeout": timeout}


TABLES = ToolTables(
    file_tools={"patch": {"edit": _patch_args}},
    shell_tools={"terminal": _terminal_args},
)
TOOLSETS.register("hermes")(TABLES)
