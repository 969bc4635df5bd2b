"""Tools of the openclaw harness, as the replay backend maps generic actions onto them.

OpenClaw 2026.9.6 (``tools.allow: read, write, edit, apply_patch, exec, process``):

- ``read {path, offset?, limit?}``, ``write {path, content}`` (creates parent folders),
  ``edit {path, edits: [{oldText, newText}]}`` (each ``oldText`` must occur exactly once):
  paths relative to the workdir or absolute (inside it). ``write`` and ``edit`` are
  byte-exact for trailing spaces and tabs, a missing final newline, a BOM, non-ASCII text and
  empty files, and ``write`` for CRLF text too; but ``edit`` rewrites the line ends of
  ``newText`` to the file's own (CRLF into an LF file becomes LF, LF into a CRLF file becomes
  CRLF). An edit whose old or new text holds a carriage return therefore raises
  :class:`NotExact` (the exact shell fallback does it); an LF-only edit of a CRLF file cannot
  be told apart here (the builder does not see the file) and is not exact.
- ``exec {command, yieldMs?, timeoutSeconds?, ...}``: a command still running after
  ``yieldMs`` (default 10000) is backgrounded and the call returns a ``process`` session id
  instead of its output, so a replayed command waits its whole timeout in the foreground
  (``yieldMs`` = its timeout) and is killed at it (``timeoutSeconds``).
- ``apply_patch {input}`` and ``process`` are not used by the replay (the file tools above
  do every file action).
- GUI modes: the GUI MCP server's tools are ``gui__<tool>`` (``mcp.servers.gui``); a ``gui``
  action maps onto them by that name (:data:`realcli.schema.actions.GUI_TOOL_PREFIXES`), with
  the reference's arguments unchanged (the server forwards them to the trusted GUI service).
"""

from __future__ import annotations

import math
from typing import Any

from realcli.gateway.toolsets.base import TOOLSETS, NotExact, Target, ToolTables
from realcli.schema.actions import Action, EditAction, ReadAction, WriteAction

__all__ = ["TABLES"]


def _read(action: Action, target: Target) -> dict[str, Any]:
    assert isinstance(action, ReadAction)
    return {"path": action.path}


def _write(action: Action, target: Target) -> dict[str, Any]:
    assert isinstance(action, WriteAction)
    if action.content is None:
        raise NotExact(f"write {action.path!r}: content is not inlined")
    return {"path": action.path, "content": action.content}


def _edit(action: Action, target: Target) -> dict[str, Any]:
    assert isinstance(action, EditAction)
    if "\r" in action.old or "\r" in action.new:
        raise NotExact(f"edit {action.path!r}: edit rewrites line ends to the file's own")
    return {"path": action.path, "edits": [{"oldText": action.old, "newText": action.new}]}


def _exec(cmd: str, timeout_s: float, target: Target) -> dict[str, Any]:
    seconds = max(1, math.ceil(timeout_s))
    return {"command": cmd, "yieldMs": seconds * 1000, "timeoutSeconds": seconds}


TABLES = ToolTables(
    file_tools={"read": {"read": _read}, "write": {"write": _write}, "edit": {"edit": _edit}},
    shell_tools={"exec": _exec},
)
TOOLSETS.register("openclaw")(TABLES)
