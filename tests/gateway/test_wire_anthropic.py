"""The Anthropic Messages codec: parsing (a recorded Claude Code request included), and the
gateway over a real Unix socket answering ``POST /v1/messages`` streamed and not."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from realcli.gateway import (
    Backend,
    ChatReply,
    ChatRequest,
    Gateway,
    ReplayBackend,
    ToolCall,
    UnixHTTPConnection,
    request_json,
)
from realcli.gateway.codecs import by_name, codec_for
from realcli.gateway.wire import ReplyMeta, WireError, request_tokens
from realcli.gateway.wire_anthropic import AnthropicMessagesCodec, parse_messages_request
from realcli.schema.actions import MessageAction, ShellAction, WriteAction
from realcli.schema.events import ModelCallEvent

StartGateway = Callable[..., Gateway]
RECORDED = Path(__file__).resolve().parents[1] / "harness" / "recorded" / "claude_code"
CODEC = AnthropicMessagesCodec()
PATH = "/v1/messages?beta=true"  # what Claude Code posts to


class Exploding(Backend):
    name = "exploding"

    def respond(self, request: ChatRequest) -> ChatReply:
        raise RuntimeError("backend fell over")


def tool(name: str, **props: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {k: {"type": v} for k, v in props.items()}}
    return {"name": name, "description": f"{name} tool", "input_schema": schema}


TOOLS = [
    tool("Bash", command="string", timeout="number"),
    tool("Read", file_path="string"),
    tool("Write", file_path="string", content="string"),
    tool("Edit", file_path="string", old_string="string", new_string="string"),
]


def body(n_done: int = 0, *, stream: bool = False, **extra: Any) -> dict[str, Any]:
    """A Claude Code shaped request whose history holds ``n_done`` tool calls and results."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "do the task"}]},
        {"role": "system", "content": [{"type": "text", "text": "# Environment\ncwd: /app"}]},
    ]
    for i in range(n_done):
        use = {
            "type": "tool_use",
            "id": f"call_{i:04d}",
            "name": "Bash",
            "input": {"command": "ls"},
        }
        messages.append({"role": "assistant", "content": [{"type": "text", "text": "ok"}, use]})
        result = {"type": "tool_result", "tool_use_id": f"call_{i:04d}", "content": "a.txt"}
        messages.append({"role": "user", "content": [result]})
    return {
        "model": "test-model",
        "max_tokens": 32000,
        "system": [
            {"type": "text", "text": "x-anthropic-billing-header: cc_version=2.1.332.5fc;"},
            {
                "type": "text",
                "text": "You are Claude Code.",
                "cache_control": {"type": "ephemeral"},
            },
        ],
        "messages": messages,
        "tools": TOOLS,
        "stream": stream,
        **extra,
    }


def replay() -> ReplayBackend:
    return ReplayBackend(
        [
            WriteAction(action="write", path="a.txt", content="x" * 150, note="write it"),
            ShellAction(action="shell", cmd="ls", timeout_s=30, note="look"),
            MessageAction(action="message", text="All done."),
        ]
    )


def sock(gw: Gateway) -> Path:
    assert gw.socket_path is not None
    return gw.socket_path


def post_sse(gw: Gateway, payload: dict[str, Any]) -> tuple[int, str, list[tuple[str, Any]]]:
    """POST a streamed request; ``(status, content type, [(event name, data)])``."""
    conn = UnixHTTPConnection(sock(gw))
    conn.request("POST", PATH, json.dumps(payload), {"Content-Type": "application/json"})
    resp = conn.getresponse()
    raw = resp.read().decode()
    conn.close()
    events = []
    for chunk in raw.split("\n\n"):
        if not chunk.strip():
            continue
        lines = dict(line.split(": ", 1) for line in chunk.split("\n"))
        events.append((lines["event"], json.loads(lines["data"])))
    return resp.status, resp.headers["Content-Type"], events


def assemble(events: list[tuple[str, Any]]) -> dict[str, Any]:
    """Rebuild the message from its SSE events, the way the Anthropic SDK does."""
    message: dict[str, Any] = {}
    partial: dict[int, str] = {}
    for name, data in events:
        assert name == data["type"]
        if name == "message_start":
            message = dict(data["message"])
            message["content"] = []
        elif name == "content_block_start":
            assert data["index"] == len(message["content"])
            message["content"].append(dict(data["content_block"]))
        elif name == "content_block_delta":
            block, delta = message["content"][data["index"]], data["delta"]
            if delta["type"] == "text_delta":
                block["text"] += delta["text"]
            else:
                assert delta["type"] == "input_json_delta"
                partial[data["index"]] = partial.get(data["index"], "") + delta["partial_json"]
        elif name == "content_block_stop":
            if data["index"] in partial:
                message["content"][data["index"]]["input"] = json.loads(partial[data["index"]])
        elif name == "message_delta":
            message.update(data["delta"])
            message["usage"] = {**message["usage"], **data["usage"]}
    assert [n for n, _ in events][-1] == "message_stop"
    return message


# ----------------------------------------------------------------------------- parsing
def test_registered_for_messages_and_count_tokens() -> None:
    assert isinstance(codec_for("/messages"), AnthropicMessagesCodec)
    assert isinstance(codec_for("/messages/count_tokens", aux=True), AnthropicMessagesCodec)
    assert by_name("anthropic_messages").routes == ("/messages",)


def test_parse_rebuilds_the_history_in_chat_shape() -> None:
    request = CODEC.parse(body(2))
    roles = [m["role"] for m in request.messages]
    assert roles == ["system", "user", "system", "assistant", "tool", "assistant", "tool"]
    assert request.messages[0]["content"] == "You are Claude Code."  # billing header left out
    assert request.system.startswith("You are Claude Code.")
    assert request.messages[2] == {"role": "system", "content": "# Environment\ncwd: /app"}
    call = request.messages[3]["tool_calls"][0]
    assert call == {
        "id": "call_0000",
        "type": "function",
        "function": {"name": "Bash", "arguments": json.dumps({"command": "ls"})},
    }
    assert request.messages[3]["content"] == "ok"
    assert request.messages[4] == {"role": "tool", "tool_call_id": "call_0000", "content": "a.txt"}
    assert request.assistant_tool_calls() == 2
    assert request.tool_names == ("Bash", "Read", "Write", "Edit")
    assert request.tool_schemas()[1][1]["parameters"]["properties"] == {
        "file_path": {"type": "string"}
    }
    assert (request.wire, request.stream, request.model) == (
        "anthropic_messages",
        False,
        "test-model",
    )
    assert request.extra["raw"]["max_tokens"] == 32000


def test_parse_tool_results_with_blocks_errors_and_text_after() -> None:
    payload = body(0)
    payload["messages"].append(
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "is_error": True,
                    "content": [{"type": "text", "text": "boom"}, {"type": "image", "source": {}}],
                },
                {"type": "text", "text": "also this", "cache_control": {"type": "ephemeral"}},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "QQ=="},
                },
                {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}},
                {"type": "document", "source": {"type": "text", "data": "d"}, "cache_control": {}},
            ],
        }
    )
    payload["messages"].append({"role": "system", "content": [], "output_config": {"x": 1}})
    payload["messages"].append({"role": "assistant", "content": "plain text"})
    *_, result, user, system, assistant = CODEC.parse(payload).messages
    assert result == {
        "role": "tool",
        "tool_call_id": "t1",
        "content": "boom\n[image]",
        "is_error": True,
    }
    assert user == {
        "role": "user",
        "content": [
            {"type": "text", "text": "also this"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,QQ=="}},
            {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
            {"type": "document", "source": {"type": "text", "data": "d"}},
        ],
    }
    assert system == {"role": "system", "content": ""}
    assert assistant == {"role": "assistant", "content": "plain text"}


def test_parse_drops_cache_control_from_tools_and_keeps_other_keys() -> None:
    payload = body(0)
    payload["tools"] = [
        {**TOOLS[0], "cache_control": {"type": "ephemeral"}},
        {**tool("Later"), "defer_loading": True},
    ]
    bash, later = CODEC.parse(payload).tools
    assert "cache_control" not in bash and bash["parameters"] == TOOLS[0]["input_schema"]
    assert later["defer_loading"] is True


def test_parse_a_recorded_claude_code_request() -> None:
    recorded = json.loads((RECORDED / "request.json").read_text())
    request = CODEC.parse(recorded["body"])
    assert request.tool_names == ("Bash", "Edit", "Glob", "Grep", "Read", "Write")
    assert request.stream is True
    assert request.system.startswith("You are a Claude agent")
    assert [m["role"] for m in request.messages] == ["system", "user", "system"]
    assert request.assistant_tool_calls() == 0


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([], "JSON object"),
        ({"model": "m", "max_tokens": 1, "messages": []}, "non-empty"),
        ({"model": "m", "max_tokens": 1, "messages": [{"role": "tool", "content": "x"}]}, "role"),
        ({"model": "m", "messages": [{"role": "user", "content": "x"}]}, "max_tokens"),
        ({"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": 3}]}, "content"),
        (
            {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [{}]}]},
            "'type'",
        ),
        (
            {
                "model": "m",
                "max_tokens": 1,
                "messages": [{"role": "assistant", "content": [{"type": "tool_use"}]}],
            },
            "tool_use",
        ),
        (
            {
                "model": "m",
                "max_tokens": 1,
                "messages": [{"role": "user", "content": [{"type": "tool_result"}]}],
            },
            "tool_use_id",
        ),
        ({**body(0), "tools": [{"description": "no name"}]}, "non-empty string 'name'"),
    ],
)
def test_parse_rejects_malformed_requests(payload: Any, message: str) -> None:
    with pytest.raises(WireError, match=message):
        parse_messages_request(payload)


# ----------------------------------------------------------------------------- encoding
def test_usage_splits_cached_input_tokens() -> None:
    reply = ChatReply(content="hi", tool_calls=(ToolCall("Bash", {"command": "ls"}, "call_1"),))
    meta = ReplyMeta("chatcmpl-realcli-000007", "m", 0, (100, 9), tokens_cached=30)
    out = CODEC.body(reply, meta, CODEC.parse(body()))
    assert out["id"] == "msg_chatcmpl-realcli-000007" and out["stop_reason"] == "tool_use"
    assert out["usage"] == {
        "input_tokens": 70,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 30,
        "output_tokens": 9,
    }
    assert out["content"] == [
        {"type": "text", "text": "hi"},
        {"type": "tool_use", "id": "call_1", "name": "Bash", "input": {"command": "ls"}},
    ]


def test_errors_have_the_anthropic_shape() -> None:
    assert CODEC.error(500, "boom", "server_error") == {
        "type": "error",
        "error": {"type": "api_error", "message": "boom"},
    }
    assert CODEC.error(400, "capped", "budget_exceeded")["error"]["type"] == "invalid_request_error"
    assert CODEC.error(418, "odd", "teapot")["error"]["type"] == "teapot"


# ----------------------------------------------------------------------------- over HTTP
def test_non_stream_round_trip(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway(replay())
    status, out = request_json(sock(gw), "POST", PATH, body())
    assert status == 200 and out["type"] == "message" and out["role"] == "assistant"
    assert out["model"] == "test-model" and out["stop_reason"] == "tool_use"
    text, use = out["content"]
    assert text == {"type": "text", "text": "write it"}
    assert use == {
        "type": "tool_use",
        "id": "call_0000",
        "name": "Write",
        "input": {"file_path": "/app/a.txt", "content": "x" * 150},
    }
    (event,) = events
    assert (event.wire_format, event.status, event.tool_call_ids) == (
        "anthropic_messages",
        200,
        ("call_0000",),
    )
    assert event.tools_offered == ("Bash", "Read", "Write", "Edit")
    usage = out["usage"]
    assert (usage["input_tokens"] + usage["cache_read_input_tokens"], usage["output_tokens"]) == (
        event.tokens_in,
        event.tokens_out,
    )


def test_stream_round_trip(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway(replay())
    status, content_type, sse = post_sse(gw, body(1, stream=True))
    assert status == 200 and content_type == "text/event-stream"
    names = [n for n, _ in sse]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    message = assemble(sse)
    assert message["stop_reason"] == "tool_use" and message["id"].startswith("msg_")
    assert message["content"] == [
        {"type": "text", "text": "look"},
        {
            "type": "tool_use",
            "id": "call_0001",
            "name": "Bash",
            "input": {"command": "ls", "timeout": 30000},
        },
    ]
    (event,) = events
    assert message["usage"]["input_tokens"] == event.tokens_in
    assert message["usage"]["output_tokens"] == event.tokens_out > 0


def test_long_input_json_arrives_in_pieces(start_gateway: StartGateway) -> None:
    gw = start_gateway(replay())
    _, _, sse = post_sse(gw, body(0, stream=True))
    pieces = [
        d for n, d in sse if n == "content_block_delta" and d["delta"]["type"] == "input_json_delta"
    ]
    assert len(pieces) > 1
    assert assemble(sse)["content"][1]["input"]["content"] == "x" * 150


def test_history_drives_the_replay_to_its_final_answer(start_gateway: StartGateway) -> None:
    gw = start_gateway(replay())
    ids = []
    for n_done in (0, 1):
        _, out = request_json(sock(gw), "POST", PATH, body(n_done))
        ids.append(out["content"][-1]["id"])
    assert ids == ["call_0000", "call_0001"]
    _, _, sse = post_sse(gw, body(2, stream=True))
    message = assemble(sse)
    assert message["stop_reason"] == "end_turn"
    assert message["content"] == [{"type": "text", "text": "All done."}]


def test_bad_request_is_400_in_anthropic_shape(
    start_gateway: StartGateway, events: list[ModelCallEvent]
) -> None:
    gw = start_gateway()
    status, out = request_json(sock(gw), "POST", PATH, {"model": "m", "messages": []})
    assert status == 400
    assert out["type"] == "error" and out["error"]["type"] == "invalid_request_error"
    assert [e.status for e in events] == [400]
    assert events[0].wire_format == "anthropic_messages"


def test_backend_failure_is_500_api_error(
    start_gateway: StartGateway, events: list[ModelCallEvent]
) -> None:
    gw = start_gateway(Exploding())
    status, out = request_json(sock(gw), "POST", PATH, body(stream=True))
    assert status == 500 and out["error"]["type"] == "api_error"
    assert "backend fell over" in out["error"]["message"]
    assert [e.status for e in events] == [500]


def test_count_tokens_is_answered_and_not_a_model_call(
    start_gateway: StartGateway, events: list[ModelCallEvent]
) -> None:
    gw = start_gateway()
    payload = body(1)
    del payload["max_tokens"]  # count_tokens requests carry none
    status, out = request_json(sock(gw), "POST", "/v1/messages/count_tokens?beta=true", payload)
    assert status == 200
    assert out == {"input_tokens": request_tokens(parse_messages_request(body(1)))}
    assert events == []
    status, out = request_json(sock(gw), "POST", "/v1/messages/count_tokens", {"messages": 1})
    assert status == 400 and out["type"] == "error"
