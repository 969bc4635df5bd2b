"""Tools of the codex harness, as the replay backend maps generic actions onto them.

Codex CLI 0.171.0 (``realcli.harness.codex``'s config: exec_command, write_stdin,
apply_patch, view_image):

- ``exec_command {cmd, yield_time_ms?, workdir?, ...}`` runs ``bash -lc <cmd>`` in the
  turn's cwd (the workdir). A command still running after ``yield_time_ms`` (default 10 s,
  capped at 30 s) is *not* killed: the call returns ``Process running with session ID N``
  and the model has to poll it with ``write_stdin``. A replayed command gets the longest
  wait (30 s), so anything shorter returns with its exit status and whole output; a
  longer one would return early (the replay does not poll yet: see the codex notes).
- Every file action goes through ``exec_command`` with the exact shell equivalent
  (:func:`realcli.gateway.toolmap.shell_equivalent`): Codex has no read tool, and its
  ``apply_patch`` (a free-form ``*** Begin Patch`` grammar) cannot say every write or edit
  exactly (``*** Add File`` always ends the file with a newline; an update hunk matches
  whole lines, with whitespace-insensitive fallbacks), and a builder cannot decline an
  action it cannot express.
"""

from __future__ import annotations

from typing import Any

from realcli.gateway.toolsets.base import TOOLSETS, Target, ToolTables

__all__ = ["MAX_YIELD_MS", "TABLES"]

MAX_YIELD_MS = 30_000
"""The longest ``yield_time_ms`` Codex honours for ``exec_command``."""


def _exec_command(cmd: str, timeout_s: float, target: Target) -> dict[str, Any]:
    return {"cmd": cmd, "yield_time_ms": MAX_YIELD_MS}


TABLES = ToolTables(file_tools={}, shell_tools={"exec_command": _exec_command})
TOOLSETS.register("codex")(TABLES)
