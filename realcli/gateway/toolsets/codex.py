"""Tools of the codex harness, as the replay backend maps generic actions onto them."""

from __future__ import annotations

from realcli.gateway.toolsets.base import ToolTables

TABLES = ToolTables(file_tools={}, shell_tools={})
