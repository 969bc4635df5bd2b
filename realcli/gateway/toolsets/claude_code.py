"""Tools of the claude_code harness, as the replay backend maps generic actions onto them.

Claude Code 2.1.332 (``--tools Bash,Read,Write,Edit,Glob,Grep``):

- ``Bash {command, timeout (ms, at most 600000), description}``;
- ``Read {file_path}``, ``Write {file_path, content}``,
  ``Edit {file_path, old_string, new_string, replace_all}``: absolute paths only.

Write and Edit are not byte-exact for every text: they strip trailing spaces and tabs from
every line they write (Write's ``content``, Edit's ``new_string``; ``.md`` files excepted),
rewrite an Edit into a CRLF file with CRLF line ends, and Edit refuses an empty or unchanged
``old_string``. For such an action the builder raises :class:`NotExact` and the action goes
through the exact shell fallback instead (see :func:`realcli.gateway.toolmap.map_action`).
"""

from __future__ import annotations

from typing import Any

from realcli.gateway.toolsets.base import TOOLSETS, NotExact, Target, ToolTables
from realcli.schema.actions import Action, EditAction, ReadAction, WriteAction

__all__ = ["BASH_MAX_TIMEOUT_MS", "TABLES", "NotExact", "exact_text"]

BASH_MAX_TIMEOUT_MS = 600_000


def exact_text(text: str) -> bool:
    """True when Claude Code's Write/Edit keep ``text`` byte for byte: no line ends in
    whitespace (they strip it) and no carriage return (CRLF handling)."""
    return not any(line[-1:].isspace() for line in text.split("\n"))


def _read(action: Action, target: Target) -> dict[str, Any]:
    assert isinstance(action, ReadAction)
    return {"file_path": target.absolute(action.path)}


def _write(action: Action, target: Target) -> dict[str, Any]:
    assert isinstance(action, WriteAction)
    if action.content is None:
        raise NotExact(f"write {action.path!r}: content is not inlined")
    if not exact_text(action.content):
        raise NotExact(f"write {action.path!r}: Write would strip trailing whitespace / CR")
    return {"file_path": target.absolute(action.path), "content": action.content}


def _edit(action: Action, target: Target) -> dict[str, Any]:
    assert isinstance(action, EditAction)
    if not action.old or action.old == action.new:
        raise NotExact(f"edit {action.path!r}: Edit refuses an empty or unchanged old text")
    if "\r" in action.old or not exact_text(action.new):
        raise NotExact(f"edit {action.path!r}: Edit would strip trailing whitespace / CR")
    return {
        "file_path": target.absolute(action.path),
        "old_string": action.old,
        "new_string": action.new,
    }


def _bash(cmd: str, timeout_s: float, target: Target) -> dict[str, Any]:
    return {"command": cmd, "timeout": min(max(int(timeout_s * 1000), 1), BASH_MAX_TIMEOUT_MS)}


TABLES = ToolTables(
    file_tools={"Read": {"read": _read}, "Write": {"write": _write}, "Edit": {"edit": _edit}},
    shell_tools={"Bash": _bash},
)
TOOLSETS.register("claude_code")(TABLES)
