"""Per-harness tool tables, merged into :data:`realcli.gateway.toolmap.FILE_TOOLS` and
:data:`~realcli.gateway.toolmap.SHELL_TOOLS`. Each module defines ``TABLES``
(:class:`~realcli.gateway.toolsets.base.ToolTables`) and registers it in :data:`TOOLSETS` under
its harness's name; a plugin adds its harness's tables through the ``realcli.toolsets``
entry-point group."""

from __future__ import annotations

from realcli.gateway.toolsets.base import TOOLSETS, FileArgs, ShellArgs, Target, ToolTables

__all__ = ["TOOLSETS", "FileArgs", "ShellArgs", "Target", "ToolTables", "all_tables"]


def all_tables() -> list[tuple[str, ToolTables]]:
    """Every registered harness's tool tables, built-ins first (in registration order)."""
    out = []
    for name, tables in TOOLSETS:
        if not isinstance(tables, ToolTables):
            raise TypeError(f"realcli.toolsets entry {name!r} is not a ToolTables: {tables!r}")
        out.append((name, tables))
    return out
