"""Generic agent actions: the vocabulary of reference trajectories (``solution/trajectory.jsonl``).

A harness-neutral action is mapped onto whatever tool set a harness offers (the builtin
harness's ``shell``/``read_file``/``write_file``/``edit_file``, Codex's ``exec_command``,
Claude Code's ``Bash``/``Write``/``Edit``, ...); a ``gui`` action onto the GUI tools (the
builtin harness's ``gui_<tool>``, or the GUI MCP server's ``<tool>`` as each agent names MCP
tools).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, model_validator

from realcli.schema.base import Frozen

__all__ = [
    "GUI_PRIMITIVES",
    "GUI_TOOL_PREFIXES",
    "Action",
    "ActionAdapter",
    "EditAction",
    "GuiAction",
    "MessageAction",
    "ReadAction",
    "ShellAction",
    "WriteAction",
    "gui_primitive",
]


class _ActionBase(Frozen):
    substep: str | None = Field(None, description="sub-step this action works towards")
    note: str | None = Field(None, description="free-text rationale, shown as assistant content")


class ShellAction(_ActionBase):
    action: Literal["shell"]
    cmd: str = Field(min_length=1)
    timeout_s: float = Field(120.0, gt=0)


class ReadAction(_ActionBase):
    action: Literal["read"]
    path: str = Field(min_length=1, description="relative to the task's workdir")


class WriteAction(_ActionBase):
    action: Literal["write"]
    path: str = Field(min_length=1, description="relative to the task's workdir")
    content: str | None = None
    content_from: str | None = Field(
        None, description="file under solution/ whose text is the content"
    )

    @model_validator(mode="after")
    def _one_source(self) -> WriteAction:
        if (self.content is None) == (self.content_from is None):
            raise ValueError("a write action needs exactly one of 'content' or 'content_from'")
        return self


class EditAction(_ActionBase):
    action: Literal["edit"]
    path: str = Field(min_length=1)
    old: str = Field(min_length=1, description="exact text to replace; must occur once")
    new: str


GUI_PRIMITIVES = (
    "screenshot",
    "click",
    "double_click",
    "triple_click",
    "move",
    "drag",
    "scroll",
    "type",
    "keypress",
    "wait",
)
"""The GUI channel's tools: a screenshot and nine primitives (``realcli.gui.service``)."""
GUI_TOOL_PREFIXES = ("gui_", "mcp__gui__", "gui__", "mcp_gui_", "gui.", "gui-")
"""How harnesses name the GUI tools: the builtin harness's ``gui_<tool>``, and the GUI MCP
server (registered as ``gui``) as each agent prefixes MCP tools (Claude Code and Codex
``mcp__gui__<tool>``, OpenClaw ``gui__<tool>``, Hermes ``mcp_gui_<tool>``, ...)."""


def gui_primitive(tool_name: str) -> str | None:
    """The GUI primitive a harness's tool name stands for, or None."""
    for prefix in GUI_TOOL_PREFIXES:
        if tool_name.startswith(prefix) and tool_name[len(prefix) :] in GUI_PRIMITIVES:
            return tool_name[len(prefix) :]
    return None


class GuiAction(_ActionBase):
    """One GUI primitive on the run's display, e.g. ``{"action": "gui", "tool": "click",
    "args": {"x": 120, "y": 48}}`` (arguments as in ``realcli.gui.service.GUI_TOOLS``)."""

    action: Literal["gui"]
    tool: Literal[
        "screenshot",
        "click",
        "double_click",
        "triple_click",
        "move",
        "drag",
        "scroll",
        "type",
        "keypress",
        "wait",
    ]
    args: dict[str, Any] = Field(default_factory=dict)


class MessageAction(_ActionBase):
    action: Literal["message"]
    text: str
    end_turn: bool = Field(
        False,
        description="end the assistant's turn here with this text as its final answer; a "
        "scripted agent resumes after the next user message (test feedback, guidance)",
    )


Action = Annotated[
    ShellAction | ReadAction | WriteAction | EditAction | GuiAction | MessageAction,
    Field(discriminator="action"),
]
ActionAdapter: TypeAdapter[Action] = TypeAdapter(Action)
