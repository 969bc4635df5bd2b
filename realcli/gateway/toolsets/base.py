"""Types shared by the tool tables (:mod:`realcli.gateway.toolmap` and one module per harness)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from realcli.registry import Registry
from realcli.schema.actions import Action

__all__ = ["TOOLSETS", "FileArgs", "NotExact", "ShellArgs", "Target", "ToolTables"]


@dataclass(frozen=True)
class Target:
    """Where the agent works (file tools of some harnesses want absolute paths), and the
    JSON schema of every tool the request offers (tool names are global across harnesses:
    a builder can tell two tools of the same name apart by their parameters)."""

    workdir: str = "/app"
    schemas: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def params(self, tool: str) -> set[str]:
        """Parameter names of an offered tool (empty if unknown)."""
        spec = self.schemas.get(tool) or {}
        schema = spec.get("parameters") or spec.get("input_schema") or {}
        props = schema.get("properties") if isinstance(schema, Mapping) else None
        return set(props) if isinstance(props, Mapping) else set()

    def absolute(self, path: str) -> str:
        return path if path.startswith("/") else f"{self.workdir.rstrip('/')}/{path}"


class NotExact(ValueError):
    """Raised by a :data:`FileArgs` builder when its tool would not perform this action
    exactly (e.g. Claude Code's Write strips trailing whitespace): ``map_action`` then tries
    the next offered tool, and finally the exact shell fallback."""


FileArgs = Callable[[Action, Target], dict[str, Any]]
"""Arguments of a native file tool for a ``read``/``write``/``edit`` action."""
ShellArgs = Callable[[str, float, Target], dict[str, Any]]
"""Arguments of a shell tool for ``(command, timeout in seconds)``."""


@dataclass(frozen=True)
class ToolTables:
    """One harness's tools, by the name the harness spells them."""

    file_tools: dict[str, dict[str, FileArgs]]
    shell_tools: dict[str, ShellArgs]


TOOLSETS: Registry[ToolTables] = Registry(
    "tool table",
    "realcli.toolsets",
    tuple(
        f"realcli.gateway.toolsets.{name}"
        for name in ("codex", "claude_code", "openclaw", "hermes", "openhands")
    ),
    ordered=True,
)
"""Each harness's tool tables, under the harness's name: a built-in module registers its
``TABLES`` with ``TOOLSETS.register(name)``; a plugin through the ``realcli.toolsets``
entry-point group (its value a :class:`ToolTables`)."""
