"""GUI actions of a reference trajectory map onto each harness's GUI tools by name."""

from __future__ import annotations

import pytest

from realcli.gateway.toolmap import ToolMappingError, map_action
from realcli.gateway.toolsets.base import Target
from realcli.gateway.toolsets.openhands import SECURITY_RISK
from realcli.schema.actions import ActionAdapter, gui_primitive


@pytest.mark.parametrize(
    ("offered", "name"),
    [
        (["shell", "gui_click", "gui_screenshot"], "gui_click"),  # builtin
        (["Bash", "mcp__gui__click"], "mcp__gui__click"),  # Claude Code / Codex via MCP
        (["exec", "gui__click"], "gui__click"),  # OpenClaw
        (["terminal", "mcp_gui_click"], "mcp_gui_click"),  # Hermes
        (["terminal", "file_editor", "gui_click"], "gui_click"),  # OpenHands (mcp.json rename)
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


def test_openhands_gui_call_declares_its_security_risk() -> None:
    """OpenHands offers every MCP tool with a required ``security_risk`` (its CLI runs an LLM
    security analyzer): a replayed GUI call declares one; a tool without it gets none."""
    action = ActionAdapter.validate_python(
        {"action": "gui", "tool": "click", "args": {"x": 1, "y": 2}}
    )
    schema = {"parameters": {"properties": {"x": {}, "y": {}, "security_risk": {}}}}
    target = Target(schemas={"gui_click": schema})
    call = map_action(action, ["terminal", "gui_click"], call_id="c", target=target)
    assert (call.name, dict(call.arguments)) == (
        "gui_click",
        {"x": 1, "y": 2, "security_risk": SECURITY_RISK},
    )
    plain = map_action(action, ["gui_click"], call_id="c", target=Target())
    assert dict(plain.arguments) == {"x": 1, "y": 2}
