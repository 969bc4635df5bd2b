"""Map a generic action onto the tools a harness offers, by tool name.

Two tables, both keyed by the tool name as the harness spells it, so another tool set is
a few entries (e.g. Codex ``exec_command``/``apply_patch``, Claude Code ``Bash``/``Write``/
``Edit``) in a module of :mod:`realcli.gateway.toolsets`, not new code:

- :data:`FILE_TOOLS`: tools that natively do a file action (``read``/``write``/``edit``).
- :data:`SHELL_TOOLS`: tools that run a shell command. A ``shell`` action always uses one;
  a file action falls back to one when no native file tool is offered, through an exact
  shell equivalent (``cat``; a ``python3`` heredoc that writes bytes or replaces exactly one
  occurrence), never an approximation.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from realcli.gateway.toolsets import all_tables
from realcli.gateway.toolsets.base import FileArgs, NotExact, ShellArgs, Target
from realcli.gateway.toolsets.openhands import SECURITY_RISK
from realcli.gateway.wire import ToolCall
from realcli.schema.actions import (
    GUI_TOOL_PREFIXES,
    Action,
    EditAction,
    GuiAction,
    ReadAction,
    ShellAction,
    WriteAction,
)

__all__ = [
    "FILE_TOOLS",
    "SHELL_TOOLS",
    "Target",
    "ToolMappingError",
    "map_action",
    "shell_equivalent",
]

FALLBACK_TIMEOUT_S = 60.0


class ToolMappingError(ValueError):
    """The action cannot be expressed exactly with the tools offered."""


def _read_args(a: Action, t: Target) -> dict[str, Any]:
    assert isinstance(a, ReadAction)
    return {"path": a.path}


def _write_args(a: Action, t: Target) -> dict[str, Any]:
    assert isinstance(a, WriteAction)
    return {"path": a.path, "content": a.content}


def _edit_args(a: Action, t: Target) -> dict[str, Any]:
    assert isinstance(a, EditAction)
    return {"path": a.path, "old": a.old, "new": a.new}


FILE_TOOLS: dict[str, dict[str, FileArgs]] = {
    # realcli builtin harness
    "read_file": {"read": _read_args},
    "write_file": {"write": _write_args},
    "edit_file": {"edit": _edit_args},
}
"""tool name -> {action kind -> arguments builder} for tools that do file actions natively."""

SHELL_TOOLS: dict[str, ShellArgs] = {
    # realcli builtin harness
    "shell": lambda cmd, timeout_s, t: {"cmd": cmd, "timeout_s": timeout_s},
}
"""tool name -> arguments builder for tools that run a shell command."""

for _harness, _tables in all_tables():  # the other harnesses' tools (realcli.gateway.toolsets)
    for _name, _builders in _tables.file_tools.items():
        _taken = set(FILE_TOOLS.get(_name, {})) & set(_builders)
        assert not _taken, f"toolsets.{_harness}: {_name} {_taken} already mapped"
        FILE_TOOLS.setdefault(_name, {}).update(_builders)
    assert not set(SHELL_TOOLS) & set(_tables.shell_tools), f"toolsets.{_harness}: shell clash"
    SHELL_TOOLS.update(_tables.shell_tools)

_HEREDOC = "REALCLI_EOF"  # script lines hold only repr() literals, never a bare newline


def _python_heredoc(lines: Sequence[str]) -> str:
    return "python3 - <<'" + _HEREDOC + "'\n" + "\n".join(lines) + "\n" + _HEREDOC


def shell_equivalent(action: Action) -> tuple[str, float]:
    """An exact shell command (and its timeout) doing what ``action`` does.

    Raises:
        ToolMappingError: for a ``message`` action, or a ``write`` without inlined content.
    """
    if isinstance(action, ShellAction):
        return action.cmd, action.timeout_s
    if isinstance(action, ReadAction):
        return f"cat -- {shlex.quote(action.path)}", FALLBACK_TIMEOUT_S
    if isinstance(action, WriteAction):
        if action.content is None:
            raise ToolMappingError(f"write {action.path!r}: content is not inlined")
        return _python_heredoc(
            [
                "import pathlib",
                f"p = pathlib.Path({action.path!r})",
                "p.parent.mkdir(parents=True, exist_ok=True)",
                f"p.write_bytes({action.content!r}.encode('utf-8'))",
            ]
        ), FALLBACK_TIMEOUT_S
    if isinstance(action, EditAction):
        return _python_heredoc(
            [
                "import pathlib, sys",
                f"p = pathlib.Path({action.path!r})",
                "text = p.read_bytes().decode('utf-8')",
                f"old, new = {action.old!r}, {action.new!r}",
                "n = text.count(old)",
                "if n != 1:",
                "    sys.exit(f'edit {p}: old text must occur exactly once, found {n}')",
                "p.write_bytes(text.replace(old, new, 1).encode('utf-8'))",
            ]
        ), FALLBACK_TIMEOUT_S
    raise ToolMappingError(f"a {action.action!r} action has no shell equivalent")


def _gui_call(action: GuiAction, offered: Sequence[str], call_id: str, target: Target) -> ToolCall:
    for prefix in GUI_TOOL_PREFIXES:
        name = prefix + action.tool
        if name in offered:
            args = dict(action.args)
            if "security_risk" in target.params(name):  # OpenHands asks it of every tool
                args.setdefault("security_risk", SECURITY_RISK)
            return ToolCall(name=name, arguments=args, id=call_id)
    raise ToolMappingError(
        f"cannot perform a gui {action.tool!r} action with the offered tools {list(offered)}: "
        f"the mode offers no GUI tools (need one of "
        f"{[p + action.tool for p in GUI_TOOL_PREFIXES]})"
    )


def map_action(
    action: Action, offered: Sequence[str], *, call_id: str, target: Target | None = None
) -> ToolCall:
    """The tool call that performs ``action`` with one of the ``offered`` tool names.

    Preference: a native file tool, else a shell tool (exact fallback).

    Raises:
        ToolMappingError: no offered tool can perform it exactly (the message names the
            action and the tools offered).
    """
    target = target or Target()
    if isinstance(action, GuiAction):
        return _gui_call(action, offered, call_id, target)
    for name in offered:
        builder = FILE_TOOLS.get(name, {}).get(action.action)
        if builder is not None:
            try:
                return ToolCall(name=name, arguments=builder(action, target), id=call_id)
            except NotExact:
                continue
    for name in offered:
        shell = SHELL_TOOLS.get(name)
        if shell is not None:
            cmd, timeout_s = shell_equivalent(action)
            return ToolCall(name=name, arguments=shell(cmd, timeout_s, target), id=call_id)
    raise ToolMappingError(
        f"cannot perform a {action.action!r} action with the offered tools {list(offered)}: "
        f"need one of {sorted(n for n, m in FILE_TOOLS.items() if action.action in m)} "
        f"or a shell tool {sorted(SHELL_TOOLS)}"
    )
