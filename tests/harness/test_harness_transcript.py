"""Agent-output parsing and model-call ordering, without a sandbox."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from realcli.harness.relay import ModelCallRelay
from realcli.harness.transcript import BuiltinTranscript, normalise_tool
from realcli.ledger import LedgerWriter, read_ledger
from realcli.schema.events import HeaderEvent, ModelCallEvent
from realcli.util.redact import Redactor


def _call(status: int = 200) -> ModelCallEvent:
    return ModelCallEvent(
        seq=0,
        wire_format="openai_chat",
        backend="b",
        model="m",
        tokens_in=1,
        tokens_out=1,
        latency_ms=1,
        finish_reason="stop",
        status=status,
    )


@pytest.fixture
def ledger(tmp_path: Path) -> LedgerWriter:
    header = HeaderEvent(
        seq=0,
        realcli_version="t",
        git_sha=None,
        run_key="k",
        experiment="e",
        task_id="t",
        task_digest="d",
        spec={},
        host={},
    )
    return LedgerWriter.create(tmp_path / "ledger.jsonl", header, Redactor(env={}))


def test_relay_takes_one_answered_turn_at_a_time() -> None:
    relay = ModelCallRelay()
    for status in (502, 200, 200, 500):
        relay(_call(status))
    assert [e.status for e in relay.take_turn()] == [502, 200]
    assert [e.status for e in relay.take_turn()] == [200]
    assert [e.status for e in relay.take_turn(timeout_s=0.05)] == [500]
    assert relay.drain() == []


def test_relay_waits_for_the_call() -> None:
    relay = ModelCallRelay()
    threading.Timer(0.1, relay, args=(_call(),)).start()
    assert [e.status for e in relay.take_turn(timeout_s=5)] == [200]


def test_model_calls_are_written_before_the_turn_they_answered(
    ledger: LedgerWriter, tmp_path: Path
) -> None:
    relay = ModelCallRelay()
    t = BuiltinTranscript(ledger, Redactor(env={}), "/app", relay)
    relay(_call())
    relay(_call())  # the next turn's call, queued before the reader caught up
    t.feed(json.dumps({"type": "model_response", "turn": 1, "n_tool_calls": 1}))
    t.feed(
        json.dumps(
            {
                "type": "tool_call",
                "id": "a",
                "name": "write_file",
                "arguments": {"path": "/app/./x/y.txt", "content": "c"},
            }
        )
    )
    t.feed(json.dumps({"type": "tool_result", "id": "a", "ok": True, "output": "wrote"}))
    t.feed(json.dumps({"type": "model_response", "turn": 2, "n_tool_calls": 0}))
    t.feed(json.dumps({"type": "session_end", "reason": "done", "turns": 2}))
    ledger.close()
    events = read_ledger(tmp_path / "ledger.jsonl").events
    assert [e.kind for e in events] == ["model_call", "tool_call", "tool_result", "model_call"]
    assert events[2].touched_files == ("x/y.txt",)  # type: ignore[union-attr]
    assert t.turns == 2 and t.session_end is not None and t.problems == []


def _answered(*call_ids: str) -> ModelCallEvent:
    return _call().model_copy(update={"tool_call_ids": call_ids, "n_tool_calls": len(call_ids)})


def test_assistant_text_of_a_lagging_transcript_takes_no_later_turn(
    ledger: LedgerWriter, tmp_path: Path
) -> None:
    """The agent is two turns ahead of its transcript (a loaded machine): the text of turn 1
    must not pull turn 2's or 3's model call in before turn 1's tool call (it drained the
    relay once, and CI saw ``model_call, model_call, tool_call``)."""
    relay = ModelCallRelay()
    t = BuiltinTranscript(ledger, Redactor(env={}), "/app", relay)
    for ids in (("a",), ("b",), ()):
        relay(_answered(*ids))
    for turn, call_id in ((1, "a"), (2, "b"), (3, None)):
        n = 0 if call_id is None else 1
        t.feed(json.dumps({"type": "model_response", "turn": turn, "n_tool_calls": n}))
        t.feed(json.dumps({"type": "message", "role": "assistant", "text": f"turn {turn}"}))
        if call_id is not None:
            args = {"cmd": "true"}
            t.feed(
                json.dumps({"type": "tool_call", "id": call_id, "name": "shell", "arguments": args})
            )
            t.feed(json.dumps({"type": "tool_result", "id": call_id, "ok": True, "output": ""}))
    t.feed(json.dumps({"type": "session_end", "reason": "done", "turns": 3}))
    ledger.close()
    events = read_ledger(tmp_path / "ledger.jsonl").events
    shape = [e.kind for e in events]
    turn = ["model_call", "message", "tool_call", "tool_result"]
    assert shape == [*turn, *turn, "model_call", "message"], shape


def test_text_reply_of_a_harness_without_turn_records_takes_its_own_call(
    ledger: LedgerWriter, tmp_path: Path
) -> None:
    """Harnesses that report no turn record write a reply's call at its first text or tool
    call: text after the last tool result starts the next reply; text before the reply's
    tool calls have their results belongs to the reply already written."""
    relay = ModelCallRelay()
    t = BuiltinTranscript(ledger, Redactor(env={}), "/app", relay)
    relay(_answered("a"))
    relay(_answered())
    t.message("working")  # reply 1's text: takes reply 1's call
    t.tool_call("a", "shell", {"cmd": "true"})
    t.message("still reply 1")  # a's result not in yet: no new call
    t.tool_result("a", "", ok=True)
    t.message("done")  # reply 2
    ledger.close()
    shape = [e.kind for e in read_ledger(tmp_path / "ledger.jsonl").events]
    assert shape == [
        "model_call",
        "message",
        "tool_call",
        "message",
        "tool_result",
        "model_call",
        "message",
    ], shape


def test_defensive_parsing(ledger: LedgerWriter) -> None:
    t = BuiltinTranscript(ledger, Redactor(env={}), "/app")
    for line in [
        "",
        "garbage",
        "[1]",
        '{"type": "nope"}',
        '{"type": "tool_call"}',
        '{"type": "message", "text": 5}',
        '{"type": "model_response", "turn": "x"}',
    ]:
        t.feed(line)
    assert len(t.problems) == 5 and t.turns == 0


def test_long_arguments_are_clipped_and_output_redacted(
    ledger: LedgerWriter, tmp_path: Path
) -> None:
    secret = "sk-proj-" + "a" * 40
    t = BuiltinTranscript(ledger, Redactor(env={}), "/app")
    t.feed(
        json.dumps(
            {
                "type": "tool_call",
                "id": "a",
                "name": "write_file",
                "arguments": {"path": "big", "content": "x" * 50000},
            }
        )
    )
    t.feed(
        json.dumps(
            {"type": "tool_result", "id": "a", "ok": True, "output": f"key {secret} " + "y" * 5000}
        )
    )
    ledger.close()
    call, result = read_ledger(tmp_path / "ledger.jsonl").events
    assert len(call.args["content"]) < 21000 and "clipped 30000 chars" in call.args["content"]  # type: ignore[union-attr]
    assert secret not in result.output_excerpt and len(result.output_excerpt) == 2000  # type: ignore[union-attr]


def test_normalise_tool() -> None:
    assert normalise_tool("shell") == ("shell", "exec: shell")
    assert normalise_tool("edit_file") == ("edit_file", "fs: edit")
    assert normalise_tool("Teleport") == ("Teleport", "other: Teleport")


@pytest.mark.parametrize(
    ("raw_name", "args", "expected"),
    [
        (
            "shell",
            {"cmd": "xdotool search --name Calc windowactivate"},
            ("gui", "via shell (xdotool)"),
        ),
        ("shell", {"cmd": "import -window root /tmp/s.png"}, ("gui", "via shell (import)")),
        ("shell", {"cmd": "DISPLAY=:0 scrot /tmp/a.png"}, ("gui", "via shell (scrot)")),
        ("shell", {"cmd": "python3 -c 'import pyautogui'"}, ("gui", "via shell (pyautogui)")),
        ("shell", {"cmd": "python3 -c 'import os' && ls"}, ("cli", "exec: shell")),
        ("shell", {"cmd": "wmctrl -l"}, ("gui", "via shell (wmctrl)")),
        ("gui_click", {"x": 1, "y": 2}, ("gui", "gui: click")),
        ("mcp__gui__screenshot", {}, ("gui", "gui: screenshot")),
        ("gui__type", {"text": "中文"}, ("gui", "gui: type")),
        ("read_file", {"path": "xdotool.txt"}, ("cli", "fs: read")),
    ],
)
def test_gui_work_is_attributed_to_the_gui_channel(
    ledger: LedgerWriter,
    tmp_path: Path,
    raw_name: str,
    args: dict[str, object],
    expected: tuple[str, str],
) -> None:
    """A GUI tool by any harness's name, or a shell call that drives the display, is GUI work
    at the atomic level (the channel and atomic op of its ledger ``tool_call``)."""
    t = BuiltinTranscript(ledger, Redactor(env={}), "/app")
    t.feed(json.dumps({"type": "tool_call", "id": "c1", "name": raw_name, "arguments": args}))
    ledger.close()
    (call,) = read_ledger(tmp_path / "ledger.jsonl").events
    channel, op = expected
    assert call.channel.value == channel  # type: ignore[union-attr]
    if op.startswith("via shell"):
        assert call.atomic_op == f"gui: {op}"  # type: ignore[union-attr]
    elif raw_name in ("shell", "read_file"):
        assert call.atomic_op == op  # type: ignore[union-attr]
    else:
        assert call.atomic_op == op and call.name.startswith("gui_")  # type: ignore[union-attr]
