"""Codex's ``config.toml`` for one run (see :mod:`realcli.harness.codex`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from realcli.harness.cli_agent import deep_merge

__all__ = [
    "CATALOG_FILE",
    "CODEX_DIR",
    "DEFAULT_CATALOG_PATCH",
    "DUMMY_KEY",
    "GUI_ONLY_CATALOG_PATCH",
    "GUI_ONLY_CONFIG",
    "KEY_ENV",
    "OPTIONAL_TOOLS",
    "OPTION_NAMES",
    "codex_config",
    "toml_dumps",
]

CODEX_DIR = ".codex"
"""``CODEX_HOME``, relative to the per-run home."""
CATALOG_FILE = "realcli-models.json"
"""The model catalog the tap writes, relative to ``CODEX_HOME``."""
KEY_ENV = "REALCLI_GATEWAY_KEY"
DUMMY_KEY = "realcli-gateway"
GUI_MCP_STARTUP_TIMEOUT_S = 30
"""``mcp_servers.gui.startup_timeout_sec``: how long Codex waits for the (required) GUI MCP
server's handshake before it gives up (Codex's default is 10 s; a busy machine needs more)."""
OPTION_NAMES = frozenset(
    {"catalog_model", "catalog_patch", "max_retries", "tools", "config", "extra_args"}
)
OPTIONAL_TOOLS = ("view_image", "update_plan")
GUI_ONLY_CONFIG: dict[str, Any] = {"features": {"shell_tool": False, "unified_exec": False}}
"""Merged into ``config.toml`` in ``gui_only``: Codex's ``shell_tool`` feature off (no
``exec_command``/``write_stdin``/``shell``), and its ``unified_exec`` feature with it."""
GUI_ONLY_CATALOG_PATCH: dict[str, Any] = {"shell_type": "disabled", "apply_patch_tool_type": None}
"""Merged into the model's catalog entry in ``gui_only``: the model metadata that selects the
shell tool (``shell_type``) and the ``apply_patch`` tool (``apply_patch_tool_type``)."""
DEFAULT_CATALOG_PATCH: dict[str, Any] = {"supports_search_tool": False, "prefer_websockets": False}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _toml_key(key: Any) -> str:
    key = str(key)
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def toml_dumps(data: Mapping[str, Any], _prefix: str = "") -> str:
    """A TOML document of nested mappings (tables), lists and scalars (enough for config)."""
    lines: list[str] = []
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            tables.append((f"{_prefix}{_toml_key(key)}", value))
        elif value is not None:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    out = "\n".join(lines) + ("\n" if lines else "")
    for name, table in tables:
        out += f"\n[{name}]\n" + toml_dumps(table, f"{name}.")
    return out


def codex_config(
    *,
    base_url: str,
    model: str,
    catalog: str,
    max_retries: int = 1,
    tools: tuple[str, ...] = ("view_image",),
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Codex's ``config.toml`` for one run, as a mapping (see the module docstring)."""
    config: dict[str, Any] = {
        "model": model,
        "model_provider": "realcli",
        "model_catalog_json": catalog,
        "approval_policy": "never",
        "sandbox_mode": "danger-full-access",
        "check_for_update_on_startup": False,
        "web_search": "disabled",
        "features": {
            "plugins": False,
            "apps": False,
            "remote_plugin": False,
            "goals": False,
            "view_image": "view_image" in tools,
        },
        "agents": {"enabled": False},
        "tools": {
            "experimental_request_user_input": {"enabled": False},
            "update_plan": {"enabled": "update_plan" in tools},
        },
        "model_providers": {
            "realcli": {
                "name": "realcli gateway",
                "base_url": base_url,
                "env_key": KEY_ENV,
                "wire_api": "responses",
                "request_max_retries": max_retries,
                "stream_max_retries": max_retries,
            }
        },
        "analytics": {"enabled": False},
    }
    return deep_merge(config, extra or {})
