"""GUI actions of a reference trajectory map onto each harness's GUI tools by name."""

from __future__ import annotations

import pytest

from realcli.gateway.toolmap import ToolMappingError, map_action
from realcli.schema.actions import ActionAdapter, gui_primitive


@pytest.mark.parametrize(
    ("offered", "name"),
    [
        (["shell", "gui_click", "gui_screenshot"], "gui_click"),  # builtin
        (["Bash", "mcp__gui__click"], "mcp__gui__click"),  # Claude Code / Codex via MCP
        (["exec", "gui__click"], "gui__click"),  # OpenClaw
        (["terminal", "mcp_gui_click"], "mcp_gui_click"),  # Hermes
    ],
)
def test_gui_action_maps_onto_the_offered_gui_tool(offered: list[str], name: str) -> None:
    action = ActionAdapter.validate_python(
        {"action": "gui", "tool": "click", "args": {"x": 10, "y": 20}}
    )
    call = map_action(action, offered, call_id="call_0001")
    assert (call.name, dict(call.arguments), call.id) == (name, {"x": 10, "y": 20}, "call_0001")


def test_gui_action_without_gui_tools_is_a_clear_error() -> None:
    action = ActionAdapter.validate_python({"action": "gui", "tool": "screenshot"})
    with pytest.raises(ToolMappingError, match="offers no GUI tools"):
        map_action(action, ["shell", "read_file"], call_id="c")


def test_unknown_gui_tool_is_rejected_by_the_schema() -> None:
    with pytest.raises(ValueError, match="tool"):
        ActionAdapter.validate_python({"action": "gui", "tool": "teleport"})


def test_gui_primitive_names() -> None:
    assert gui_primitive("mcp__gui__double_click") == "double_click"
    assert gui_primitive("gui_wait") == "wait"
    assert gui_primitive("click") is None and gui_primitive("gui_teleport") is None
