"""Replay across turns (``end_turn`` segments, continuation marks, earlier-session offsets) and
the gateway's mid-session guidance (:class:`Interjector`)."""

from __future__ import annotations

from typing import Any

from realcli.gateway import (
    CONTINUATION_MARK,
    ChatRequest,
    Interjector,
    ReplayBackend,
    earlier_calls_line,
)
from realcli.schema.actions import ActionAdapter

TOOLS = ({"type": "function", "function": {"name": "shell", "parameters": {}}},)


def _actions(*raw: dict[str, Any]) -> list[Any]:
    return [ActionAdapter.validate_python(a) for a in raw]


def _call(i: int) -> tuple[dict[str, Any], dict[str, Any]]:
    call = {"id": f"c{i}", "type": "function", "function": {"name": "shell", "arguments": "{}"}}
    return (
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"c{i}", "content": "ok"},
    )


def _request(*messages: dict[str, Any]) -> ChatRequest:
    return ChatRequest(model="m", messages=tuple(messages), tools=TOOLS)


BACKEND = ReplayBackend(
    _actions(
        {"action": "shell", "cmd": "echo a"},
        {"action": "shell", "cmd": "echo b"},
        {"action": "message", "text": "half done", "end_turn": True},
        {"action": "shell", "cmd": "echo c"},
        {"action": "message", "text": "all done"},
    )
)


def _cmd(reply: Any) -> str:
    return str(reply.tool_calls[0].arguments["cmd"])


def test_end_turn_splits_the_trajectory_into_turns() -> None:
    user = {"role": "user", "content": "do it"}
    assert _cmd(BACKEND.respond(_request(user))) == "echo a"
    assert _cmd(BACKEND.respond(_request(user, *_call(0)))) == "echo b"
    done = BACKEND.respond(_request(user, *_call(0), *_call(1)))
    assert done.content == "half done" and not done.tool_calls
    # realcli speaks (feedback): the next turn starts with its first action
    said = {"role": "user", "content": f"{CONTINUATION_MARK}feedback after round 1] fix c"}
    history = (user, *_call(0), *_call(1), {"role": "assistant", "content": "half done"}, said)
    assert _cmd(BACKEND.respond(_request(*history))) == "echo c"
    final = BACKEND.respond(_request(*history, *_call(2)))
    assert final.content == "all done"


def test_a_fresh_session_with_the_transcript_continues_after_the_earlier_calls() -> None:
    replay = ReplayBackend(_actions(*({"action": "shell", "cmd": f"echo {i}"} for i in range(4))))
    prompt = f"{earlier_calls_line(3)}\n\ninstruction...\n\n{CONTINUATION_MARK}guidance] go"
    assert _cmd(replay.respond(_request({"role": "user", "content": prompt}))) == "echo 3"


def test_more_continuations_than_turns_keep_the_last_turn() -> None:
    replay = ReplayBackend(_actions({"action": "shell", "cmd": "echo 0"}))
    said = {"role": "user", "content": f"{CONTINUATION_MARK}guidance] more"}
    history = ({"role": "user", "content": "x"}, *_call(0), said)
    assert replay.respond(_request(*history)).content == "done"


def test_interjection_sits_after_the_latest_tool_result_in_every_later_request() -> None:
    seen: list[str] = []
    box = Interjector()
    box.queue("[realcli guidance] look at ops.py", lambda item: seen.append(item.text))
    user = {"role": "user", "content": "task"}
    first = box.apply(_request(user, *_call(0), *_call(1)))
    assert [m["role"] for m in first.messages] == ["user", *["assistant", "tool"] * 2, "user"]
    assert seen == ["[realcli guidance] look at ops.py"]  # delivered once
    later = box.apply(_request(user, *_call(0), *_call(1), *_call(2)))
    roles = [m["role"] for m in later.messages]
    assert roles == ["user", "assistant", "tool", "assistant", "tool", "user", "assistant", "tool"]
    assert later.messages[5]["content"].endswith("look at ops.py")
    assert len(seen) == 1 and box.pending == 0


def test_undelivered_interjections_can_be_discarded() -> None:
    box = Interjector()
    box.queue("one")
    assert box.pending == 1 and box.discard_pending() == 1 and box.pending == 0
    request = _request({"role": "user", "content": "task"})
    assert box.apply(request) is request
