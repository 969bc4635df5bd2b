"""Request builders shared by the gateway tests."""

from __future__ import annotations

from typing import Any

BUILTIN_TOOL_NAMES = ("shell", "read_file", "write_file", "edit_file")


def tool(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}


def chat_body(
    tools: tuple[str, ...] = BUILTIN_TOOL_NAMES, n_done: int = 0, **extra: Any
) -> dict[str, Any]:
    """A chat request whose history holds ``n_done`` assistant tool calls."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "do the task"},
    ]
    for i in range(n_done):
        call = {"id": f"c{i}", "type": "function", "function": {"name": "shell", "arguments": "{}"}}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": "ok"})
    return {"model": "test-model", "messages": messages, "tools": [tool(t) for t in tools], **extra}
