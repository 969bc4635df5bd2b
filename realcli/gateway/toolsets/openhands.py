"""Tools of the openhands harness, as the replay backend maps generic actions onto them.

The OpenHands CLI 1.16.0 (SDK 1.21.0) in ``cli_only`` mode offers ``terminal``,
``file_editor``, ``finish`` and ``think``. Every tool but ``finish``/``think`` requires a
``security_risk`` argument (``LOW`` here: the CLI runs with an LLM security analyzer; in
headless mode it never asks for a confirmation, whatever the risk).

- ``file_editor {command, path, ...}``: ``path`` must be absolute. ``read`` is ``view``
  (the file with line numbers, ``cat -n`` style); ``edit`` is ``str_replace`` (exactly one
  occurrence of ``old_str``, as an ``edit`` action requires). ``write`` has no native form:
  ``create`` refuses an existing file, so a ``write`` goes through the exact shell fallback.
  ``file_editor`` reads and writes text with Python's universal newlines (a ``\\r`` anywhere
  in the file becomes ``\\n``): an edit whose old or new text holds a ``\\r`` is declined
  (:class:`~realcli.gateway.toolsets.base.NotExact`: the shell fallback does it). A CR
  elsewhere in the file is normalised all the same (not visible to the builder).
- ``terminal {command, timeout, security_risk, ...}`` shares its name with Hermes's
  ``terminal``, so it is not in :data:`TABLES`: the ``terminal`` builder of
  :mod:`realcli.gateway.toolsets.hermes` calls :func:`terminal_args` when the offered schema
  has ``security_risk`` (OpenHands's). Its ``timeout`` is a hard limit; without it OpenHands
  returns after 30 s without new output while the command keeps running. A command longer
  than about 16 KB is silently dropped by OpenHands's tmux terminal (reported as exit code
  0, empty output): a shell-fallback ``write`` of a larger file does not happen.

In ``hybrid`` and ``gui_only`` the GUI MCP server's tools are offered as ``gui_<tool>``
(renamed in the CLI's ``mcp.json``); :func:`realcli.gateway.toolmap.map_action` maps a ``gui``
action onto them by name and adds ``security_risk`` (:data:`SECURITY_RISK`), which OpenHands
requires of MCP tools too. ``gui_only`` offers no ``terminal`` and no ``file_editor`` (the
replay turns a reference's CLI steps into 0 s ``wait`` calls there).
"""

from __future__ import annotations

from typing import Any

from realcli.gateway.toolsets.base import TOOLSETS, NotExact, Target, ToolTables
from realcli.schema.actions import Action, EditAction, ReadAction

__all__ = ["SECURITY_RISK", "TABLES", "NotExact", "terminal_args"]

SECURITY_RISK = "LOW"
"""The ``security_risk`` every replayed call declares."""


def _view(action: Action, target: Target) -> dict[str, Any]:
    assert isinstance(action, ReadAction)
    return {
        "command": "view",
        "path": target.absolute(action.path),
        "security_risk": SECURITY_RISK,
    }


def _str_replace(action: Action, target: Target) -> dict[str, Any]:
    assert isinstance(action, EditAction)
    if "\r" in action.old or "\r" in action.new:
        raise NotExact(f"edit {action.path!r}: file_editor turns carriage returns into newlines")
    return {
        "command": "str_replace",
        "path": target.absolute(action.path),
        "old_str": action.old,
        "new_str": action.new,
        "security_risk": SECURITY_RISK,
    }


def terminal_args(cmd: str, timeout_s: float, target: Target) -> dict[str, Any]:
    """Arguments of OpenHands's ``terminal`` (``timeout``: a hard limit, in seconds)."""
    return {"command": cmd, "timeout": max(float(timeout_s), 1.0), "security_risk": SECURITY_RISK}


TABLES = ToolTables(
    file_tools={"file_editor": {"read": _view, "edit": _str_replace}},
    shell_tools={},
)
TOOLSETS.register("openhands")(TABLES)
