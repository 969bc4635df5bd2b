"""Per-harness tool tables, merged into :data:`realcli.gateway.toolmap.FILE_TOOLS` and
:data:`~realcli.gateway.toolmap.SHELL_TOOLS`. Each module defines ``TABLES``
(:class:`~realcli.gateway.toolsets.base.ToolTables`); one more harness is one more module
listed in :data:`MODULES`."""

from __future__ import annotations

import importlib

from realcli.gateway.toolsets.base import FileArgs, ShellArgs, Target, ToolTables

__all__ = ["MODULES", "FileArgs", "ShellArgs", "Target", "ToolTables", "all_tables"]

MODULES = ("codex", "claude_code", "openclaw", "hermes", "openhands")


def all_tables() -> list[tuple[str, ToolTables]]:
    out = []
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        tables = module.TABLES
        assert isinstance(tables, ToolTables), name
        out.append((name, tables))
    return out
