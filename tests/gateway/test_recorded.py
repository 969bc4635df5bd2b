"""The recorded backend: a conversation served once, recorded in the gateway's call log, is
served again from that log with the same replies and the same (provider) token usage."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conversation_helpers import drive
from gateway_helpers import chat_body

from realcli.gateway import (
    BACKENDS,
    Backend,
    BackendError,
    ChatReply,
    ChatRequest,
    Gateway,
    ReplayBackend,
    make_backend,
    request_json,
)
from realcli.gateway.recorded import RecordedBackend
from realcli.gateway.wire import Usage, parse_chat_request
from realcli.schema.actions import Action, EditAction, MessageAction, ShellAction, WriteAction
from realcli.schema.events import ModelCallEvent
from realcli.schema.run_spec import ModelSpec
from realcli.util.errors import ConfigError

REFERENCE: list[Action] = [
    ShellAction(action="shell", cmd="ls -la", note="look around"),
    WriteAction(action="write", path="b.py", content="print('b')\n", note="new file"),
    MessageAction(action="message", text="halfway"),
    EditAction(action="edit", path="a.py", old="x = 1", new="x = 2"),
    MessageAction(action="message", text="Fixed it."),
]


class ProviderLike(ReplayBackend):
    """Replay with provider-reported usage (not the gateway's own count), like ``upstream``."""

    name = "provider_like"

    def respond(self, request: ChatRequest) -> ChatReply:
        reply = super().respond(request)
        n = len(request.messages)
        usage = Usage(tokens_in=1000 + 37 * n, tokens_out=11 + n, tokens_cached=512)
        return ChatReply(content=reply.content, tool_calls=reply.tool_calls, usage=usage)


def recorded_model(run_dir: Path | str | None) -> ModelSpec:
    return ModelSpec(
        name="recorded",
        backend="recorded",
        model_id="realcli/recorded",
        recorded_from=None if run_dir is None else str(run_dir),
    )


def record_run(backend: Backend, run_dir: Path, sock: Path, *, stream: bool) -> tuple[list, list]:
    """Serve one whole conversation through a gateway writing ``native/gateway.jsonl``."""
    (run_dir / "native").mkdir(parents=True)
    events: list[ModelCallEvent] = []
    with Gateway(backend, events.append, log_path=run_dir / "native" / "gateway.jsonl") as gw:
        gw.start(sock)
        replies = drive(sock, stream=stream)
    return replies, events


def replay_run(run_dir: Path, sock: Path, *, stream: bool) -> tuple[list, list]:
    backend = make_backend(recorded_model(run_dir))
    assert isinstance(backend, RecordedBackend)
    events: list[ModelCallEvent] = []
    with Gateway(backend, events.append) as gw:
        gw.start(sock)
        replies = drive(sock, stream=stream)
    return replies, events


def test_registered() -> None:
    assert BACKENDS["recorded"] is RecordedBackend


@pytest.mark.parametrize("stream", [False, True])
def test_replays_a_replay_run(stream: bool, tmp_path: Path, socket_dir: Path) -> None:
    run_dir = tmp_path / "runs" / "exp" / "0123456789abcdef"
    first, first_events = record_run(
        ReplayBackend(REFERENCE), run_dir, socket_dir / "a.sock", stream=stream
    )
    again, again_events = replay_run(run_dir, socket_dir / "b.sock", stream=not stream)
    assert len(first) == 4 and first[-1]["content"] == "Fixed it."
    assert again == first
    assert [(e.tokens_in, e.tokens_out, e.tokens_cached) for e in again_events] == [
        (e.tokens_in, e.tokens_out, e.tokens_cached) for e in first_events
    ]
    assert [e.tool_call_ids for e in again_events] == [e.tool_call_ids for e in first_events]
    assert {e.backend for e in again_events} == {"recorded"}


def test_keeps_the_recorded_provider_usage(tmp_path: Path, socket_dir: Path) -> None:
    run_dir = tmp_path / "run"
    first, first_events = record_run(
        ProviderLike(REFERENCE), run_dir, socket_dir / "a.sock", stream=False
    )
    again, again_events = replay_run(run_dir, socket_dir / "b.sock", stream=False)
    assert again == first
    usage = [(e.tokens_in, e.tokens_out, e.tokens_cached) for e in again_events]
    assert usage == [(e.tokens_in, e.tokens_out, e.tokens_cached) for e in first_events]
    assert usage[0] == (1000 + 37 * 2, 13, 512)  # the provider's numbers, not a recount


def test_stateless_by_position_and_past_the_end(tmp_path: Path, socket_dir: Path) -> None:
    run_dir = tmp_path / "run"
    record_run(ReplayBackend(REFERENCE), run_dir, socket_dir / "a.sock", stream=False)
    backend = make_backend(recorded_model(run_dir))
    # the tools offered do not matter: the recorded reply is served as recorded
    for n_done in (2, 0, 2, 1):
        a = backend.respond(parse_chat_request(chat_body(n_done=n_done)))
        b = backend.respond(parse_chat_request(chat_body(tools=("bash",), n_done=n_done)))
        assert a == b
    assert backend.respond(parse_chat_request(chat_body(n_done=3))).content == "Fixed it."
    with pytest.raises(BackendError, match=r"no reply after 4 assistant message\(s\)"):
        backend.respond(parse_chat_request(chat_body(n_done=4)))
    # through the gateway: an HTTP 500 the agent sees, a failed call in the ledger
    events: list[ModelCallEvent] = []
    with Gateway(backend, events.append) as gw:
        gw.start(socket_dir / "b.sock")
        status, body = request_json(
            socket_dir / "b.sock", "POST", "/v1/chat/completions", chat_body(n_done=9)
        )
    assert status == 500 and "recorded backend failed" in body["error"]["message"]
    assert events[0].status == 500


def _write_log(run_dir: Path, records: list[dict | str]) -> None:
    (run_dir / "native").mkdir(parents=True)
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    (run_dir / "native" / "gateway.jsonl").write_text("\n".join(lines) + "\n")


def _ok(turns: int, content: str, tokens_in: int = 10) -> dict:
    return {
        "wire": "openai_chat",
        "status": 200,
        "assistant_turns": turns,
        "reply": {
            "content": content,
            "tool_calls": [{"id": f"c{turns}", "name": "shell", "arguments": {"cmd": "ls"}}],
        },
        "usage": {"tokens_in": tokens_in, "tokens_out": 2, "tokens_cached": 0},
    }


def test_skips_failed_calls_and_keeps_the_first_answer(tmp_path: Path) -> None:
    _write_log(
        tmp_path,
        [
            {"wire": "openai_chat", "status": 400, "refused": "run cost cap reached"},
            _ok(0, "first"),
            {"wire": "openai_chat", "status": 500, "error": "boom"},
            _ok(0, "the agent asked again", tokens_in=99),
            _ok(1, "second"),
            "",
        ],
    )
    backend = RecordedBackend(tmp_path)
    first = backend.respond(parse_chat_request(chat_body(n_done=0)))
    assert first.content == "first" and first.usage == Usage(10, 2, 0)
    assert first.tool_calls[0].id == "c0" and dict(first.tool_calls[0].arguments) == {"cmd": "ls"}
    assert backend.respond(parse_chat_request(chat_body(n_done=1))).content == "second"


@pytest.mark.parametrize(
    ("setup", "problem"),
    [
        (lambda d: None, "is not a directory"),
        (lambda d: d.mkdir(), "has no native/gateway.jsonl"),
        (lambda d: _write_log(d, ["{not json"]), "line 1 is not a valid call record"),
        (lambda d: _write_log(d, [_ok(0, "x"), {"status": 200}]), "line 2 .* 'reply'"),
        (
            lambda d: _write_log(d, [{**_ok(0, "x"), "usage": {"tokens_in": "many"}}]),
            "line 1 .* integers",
        ),
        (
            lambda d: _write_log(d, [{"status": 500, "error": "boom"}]),
            "records no answered model call",
        ),
    ],
)
def test_bad_folder_is_a_config_error(
    tmp_path: Path, setup: Callable[[Path], object], problem: str
) -> None:
    run_dir = tmp_path / "run"
    setup(run_dir)
    with pytest.raises(ConfigError, match=problem) as err:
        make_backend(recorded_model(run_dir))
    assert str(err.value).startswith("conf/model/recorded.yaml: model.recorded_from: ")
    assert "(fix: " in str(err.value)


def test_needs_recorded_from() -> None:
    for value in (None, "???"):
        with pytest.raises(ConfigError, match=r"model.recorded_from: .*needs the run folder"):
            make_backend(recorded_model(value))
