"""The OpenAI Responses codec: parsing (a recorded Codex request included), and the gateway
over a real Unix socket answering ``POST /v1/responses`` streamed and not."""

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
from realcli.gateway.wire import ReplyMeta, WireError
from realcli.gateway.wire_responses import ResponsesCodec, parse_responses_request
from realcli.schema.actions import EditAction, MessageAction, ShellAction
from realcli.schema.events import ModelCallEvent

StartGateway = Callable[..., Gateway]
RECORDED = Path(__file__).resolve().parents[1] / "harness" / "recorded" / "codex"
CODEC = ResponsesCodec()
PATH = "/v1/responses"


class Exploding(Backend):
    name = "exploding"

    def respond(self, request: ChatRequest) -> ChatReply:
        raise RuntimeError("backend fell over")


class Fixed(Backend):
    """Always the same reply."""

    name = "fixed"

    def __init__(self, reply: ChatReply) -> None:
        super().__init__()
        self.reply = reply

    def respond(self, request: ChatRequest) -> ChatReply:
        return self.reply


def function(name: str, **props: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {k: {"type": v} for k, v in props.items()}}
    return {"type": "function", "name": name, "description": f"{name} tool", "parameters": schema}


PATCH_TOOL = {
    "type": "custom",
    "name": "apply_patch",
    "description": "edit files",
    "format": {"type": "grammar", "syntax": "lark", "definition": "start: ..."},
}
TOOLS = [
    function("exec_command", cmd="string", yield_time_ms="number"),
    function("write_stdin", session_id="number", chars="string"),
    PATCH_TOOL,
]


def message(role: str, text: str) -> dict[str, Any]:
    kind = "output_text" if role == "assistant" else "input_text"
    return {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}


def body(n_done: int = 0, *, stream: bool = False, **extra: Any) -> dict[str, Any]:
    """A Codex shaped request whose history holds ``n_done`` shell calls and their outputs."""
    items: list[dict[str, Any]] = [
        message("developer", "You are Codex."),
        message("user", "<environment_context>cwd /app</environment_context>"),
        message("user", "do the task"),
    ]
    for i in range(n_done):
        items.append({"type": "reasoning", "id": f"rs_{i}", "summary": []})
        items.append(
            {
                "type": "function_call",
                "id": f"fc_{i}",
                "call_id": f"call_{i:04d}",
                "name": "exec_command",
                "arguments": json.dumps({"cmd": "ls"}),
            }
        )
        output = "Process exited with code 0\nOutput:\na.txt\n"
        items.append({"type": "function_call_output", "call_id": f"call_{i:04d}", "output": output})
    return {
        "model": "test-model",
        "instructions": None,
        "input": items,
        "tools": TOOLS,
        "tool_choice": "auto",
        "parallel_tool_calls": True,
        "store": False,
        "stream": stream,
        **extra,
    }


def replay() -> ReplayBackend:
    return ReplayBackend(
        [
            ShellAction(action="shell", cmd="ls", timeout_s=30, note="look"),
            EditAction(action="edit", path="a.txt", old="x" * 100, new="y", note="fix"),
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
    """Rebuild the response from its SSE events (items from their deltas, as a client
    would), and check it against ``response.completed``."""
    numbers = [data["sequence_number"] for _, data in events]
    assert numbers == list(range(len(events)))
    names = [name for name, _ in events]
    assert names[:2] == ["response.created", "response.in_progress"]
    assert names[-1] == "response.completed"
    items: dict[int, dict[str, Any]] = {}
    for name, data in events:
        assert name == data["type"]
        if name == "response.output_item.added":
            assert data["output_index"] == len(items)
            items[data["output_index"]] = dict(data["item"])
        elif name == "response.output_text.delta":
            item = items[data["output_index"]]
            if not item["content"]:
                item["content"] = [{"type": "output_text", "text": "", "annotations": []}]
            item["content"][0]["text"] += data["delta"]
        elif name == "response.function_call_arguments.delta":
            items[data["output_index"]]["arguments"] += data["delta"]
        elif name == "response.custom_tool_call_input.delta":
            items[data["output_index"]]["input"] += data["delta"]
        elif name == "response.output_item.done":
            built = {**items[data["output_index"]], "status": "completed"}
            assert built == data["item"], name
    response = events[-1][1]["response"]
    assert response["output"] == [items[i] | {"status": "completed"} for i in sorted(items)]
    return dict(response)


# ----------------------------------------------------------------------------- parsing
def test_registered_for_responses() -> None:
    assert isinstance(codec_for("/responses"), ResponsesCodec)
    assert by_name("openai_responses").routes == ("/responses",)


def test_parse_rebuilds_the_history_in_chat_shape() -> None:
    request = CODEC.parse(body(2))
    roles = [m["role"] for m in request.messages]
    assert roles == ["system", "user", "user", "assistant", "tool", "assistant", "tool"]
    assert request.system == "You are Codex."
    assert request.messages[3] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_0000",
                "type": "function",
                "function": {"name": "exec_command", "arguments": json.dumps({"cmd": "ls"})},
            }
        ],
    }
    assert request.messages[4]["tool_call_id"] == "call_0000"
    assert request.messages[4]["content"].endswith("a.txt\n")
    assert request.assistant_tool_calls() == 2
    assert request.tool_names == ("exec_command", "write_stdin", "apply_patch")
    assert (request.wire, request.stream, request.model) == (
        "openai_responses",
        False,
        "test-model",
    )
    assert request.extra["custom_tools"] == ["apply_patch"]
    assert request.extra["raw"]["store"] is False


def test_parse_merges_one_reply_and_reads_custom_calls_and_part_outputs() -> None:
    payload = body(0, instructions="Be brief.")
    payload["input"] += [
        message("assistant", "Two things."),
        {"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": "*** Begin"},
        {
            "type": "function_call",
            "call_id": "c2",
            "namespace": "mcp__gui",
            "name": "click",
            "arguments": '{"x": 1}',
        },
        {"type": "custom_tool_call_output", "call_id": "c1", "output": "Exit code: 0"},
        {
            "type": "function_call_output",
            "call_id": "c2",
            "output": [
                {"type": "input_text", "text": "clicked"},
                {"type": "input_image", "image_url": "data:image/png;base64,QQ=="},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "look"},
                {"type": "input_image", "image_url": "data:image/png;base64,QQ=="},
            ],
        },
    ]
    request = CODEC.parse(payload)
    first, *_, turn, patched, clicked, user = request.messages
    assert first == {"role": "system", "content": "Be brief."}
    assert turn["content"] == "Two things."
    assert [c["function"]["name"] for c in turn["tool_calls"]] == ["apply_patch", "mcp__gui__click"]
    assert json.loads(turn["tool_calls"][0]["function"]["arguments"]) == {"input": "*** Begin"}
    assert patched == {"role": "tool", "tool_call_id": "c1", "content": "Exit code: 0"}
    assert clicked["content"] == "clicked\n[input_image]"
    assert user["content"] == [
        {"type": "text", "text": "look"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,QQ=="}},
    ]
    assert request.assistant_tool_calls() == 2


def test_parse_tools_namespaces_hosted_and_additional_tools() -> None:
    payload = body(0)
    payload["tools"] = [
        *TOOLS,
        {"type": "namespace", "name": "mcp__gui", "tools": [function("click", x="integer")]},
        {"type": "web_search", "external_web_access": True},
    ]
    payload["input"].insert(
        0,
        {
            "type": "additional_tools",
            "role": "developer",
            "tools": [
                {
                    "type": "namespace",
                    "name": "functions",
                    "tools": [{"type": "custom", "name": "exec", "description": "run JS"}],
                }
            ],
        },
    )
    request = CODEC.parse(payload)
    assert request.tool_names == (
        "exec_command",
        "write_stdin",
        "apply_patch",
        "mcp__gui__click",
        "web_search",
        "exec",
    )
    schemas = dict(request.tool_schemas())
    assert schemas["apply_patch"]["parameters"]["required"] == ["input"]
    assert schemas["apply_patch"]["format"]["syntax"] == "lark"
    assert schemas["mcp__gui__click"]["parameters"]["properties"] == {"x": {"type": "integer"}}
    assert request.extra["custom_tools"] == ["apply_patch", "exec"]
    assert request.extra["namespaced"] == {"mcp__gui__click": ["mcp__gui", "click"]}
    assert [m["role"] for m in request.messages] == ["system", "user", "user"]


def test_parse_a_recorded_codex_request() -> None:
    recorded = json.loads((RECORDED / "request.json").read_text())
    request = CODEC.parse(recorded["body"])
    assert request.tool_names == ("exec_command", "write_stdin", "apply_patch", "view_image")
    assert request.stream is True
    assert request.system.startswith("You are Codex")
    assert [m["role"] for m in request.messages] == ["system", "system", "user", "user"]
    assert request.assistant_tool_calls() == 0
    assert request.extra["custom_tools"] == ["apply_patch"]


def test_a_string_input_is_one_user_message() -> None:
    request = parse_responses_request({"model": "m", "input": "hi", "instructions": "sys"})
    assert request.messages == (
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "hi"},
    )
    assert request.tools == ()


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ([], "JSON object"),
        ({"model": 3, "input": "x"}, "'model'"),
        ({"model": "m", "input": "x", "previous_response_id": "resp_1"}, "previous_response_id"),
        ({"model": "m"}, "'input'"),
        ({"model": "m", "input": []}, "empty"),
        ({"model": "m", "input": [3]}, "must be an object"),
        ({"model": "m", "input": [{"type": "message", "role": "tool", "content": "x"}]}, "role"),
        ({"model": "m", "input": [{"role": "user", "content": 3}]}, "content"),
        ({"model": "m", "input": [{"role": "user", "content": [{}]}]}, "'type'"),
        ({"model": "m", "input": [{"type": "function_call", "name": "x"}]}, "call_id"),
        ({"model": "m", "input": [{"type": "function_call", "call_id": "c"}]}, "name"),
        ({"model": "m", "input": [{"type": "function_call_output", "output": "x"}]}, "call_id"),
        ({"model": "m", "input": [{"type": "teleport"}]}, "unsupported input item"),
        ({"model": "m", "input": [{"type": "additional_tools", "tools": 1}]}, "tools must be"),
        ({"model": "m", "input": "x", "tools": {}}, "'tools'"),
        ({"model": "m", "input": "x", "tools": [{"name": "x"}]}, "'type'"),
        ({"model": "m", "input": "x", "tools": [{"type": "function"}]}, "'name'"),
        ({"model": "m", "input": "x", "tools": [{"type": "namespace", "name": "n"}]}, "namespace"),
        (
            {"model": "m", "input": "x", "tools": [{**function("f"), "parameters": []}]},
            "parameters",
        ),
    ],
)
def test_parse_rejects_malformed_requests(payload: Any, error: str) -> None:
    with pytest.raises(WireError, match=error):
        parse_responses_request(payload)


# ----------------------------------------------------------------------------- encoding
def test_body_items_and_usage() -> None:
    reply = ChatReply(
        content="hi",
        tool_calls=(
            ToolCall("exec_command", {"cmd": "ls"}, "call_1"),
            ToolCall("apply_patch", {"input": "*** Begin Patch\n"}, "call_2"),
        ),
    )
    meta = ReplyMeta("chatcmpl-realcli-000007", "m", 5, (100, 9), tokens_cached=30)
    out = CODEC.body(reply, meta, CODEC.parse(body()))
    assert (out["id"], out["object"], out["status"], out["created_at"]) == (
        "resp_000007",
        "response",
        "completed",
        5,
    )
    assert out["usage"] == {
        "input_tokens": 100,
        "input_tokens_details": {"cached_tokens": 30},
        "output_tokens": 9,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 109,
    }
    text, call, patch = out["output"]
    assert text["type"] == "message" and text["role"] == "assistant"
    assert text["content"] == [{"type": "output_text", "text": "hi", "annotations": []}]
    assert call == {
        "type": "function_call",
        "id": "fc_000007_0",
        "status": "completed",
        "call_id": "call_1",
        "name": "exec_command",
        "arguments": json.dumps({"cmd": "ls"}),
    }
    assert patch == {
        "type": "custom_tool_call",
        "id": "ctc_000007_1",
        "status": "completed",
        "call_id": "call_2",
        "name": "apply_patch",
        "input": "*** Begin Patch\n",
    }


def test_a_namespaced_call_goes_back_with_its_namespace() -> None:
    payload = body(0)
    payload["tools"] = [{"type": "namespace", "name": "mcp__gui", "tools": [function("click")]}]
    request = CODEC.parse(payload)
    reply = ChatReply(tool_calls=(ToolCall("mcp__gui__click", {"x": 1}, "c"),))
    (item,) = CODEC.body(reply, ReplyMeta("x-1", "m", 0, (1, 1)), request)["output"]
    assert (item["namespace"], item["name"], item["call_id"]) == ("mcp__gui", "click", "c")


def test_errors_have_the_openai_shape() -> None:
    assert CODEC.error(500, "boom", "server_error") == {
        "error": {"message": "boom", "type": "server_error", "param": None, "code": None}
    }


# ----------------------------------------------------------------------------- over HTTP
def test_non_stream_round_trip(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway(replay())
    status, out = request_json(sock(gw), "POST", PATH, body())
    assert status == 200 and out["object"] == "response" and out["status"] == "completed"
    text, call = out["output"]
    assert text["content"][0]["text"] == "look"
    assert (call["type"], call["name"], call["call_id"]) == (
        "function_call",
        "exec_command",
        "call_0000",
    )
    assert json.loads(call["arguments"]) == {"cmd": "ls", "yield_time_ms": 30000}
    (event,) = events
    assert (event.wire_format, event.status, event.tool_call_ids) == (
        "openai_responses",
        200,
        ("call_0000",),
    )
    assert event.tools_offered == ("exec_command", "write_stdin", "apply_patch")
    assert (out["usage"]["input_tokens"], out["usage"]["output_tokens"]) == (
        event.tokens_in,
        event.tokens_out,
    )


def test_stream_round_trip(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway(replay())
    status, content_type, sse = post_sse(gw, body(1, stream=True))
    assert status == 200 and content_type == "text/event-stream"
    response = assemble(sse)
    text, call = response["output"]
    assert text["content"][0]["text"] == "fix"
    assert call["call_id"] == "call_0001" and call["name"] == "exec_command"
    assert json.loads(call["arguments"])["cmd"].startswith("python3 - <<'REALCLI_EOF'")
    assert len([n for n, _ in sse if n == "response.function_call_arguments.delta"]) > 1
    (event,) = events
    assert response["usage"]["input_tokens"] == event.tokens_in
    assert response["usage"]["output_tokens"] == event.tokens_out > 0


def test_stream_of_a_custom_tool_call(start_gateway: StartGateway) -> None:
    patch = "*** Begin Patch\n*** Add File: a.txt\n+" + "x" * 100 + "\n*** End Patch\n"
    reply = ChatReply(tool_calls=(ToolCall("apply_patch", {"input": patch}, "call_9"),))
    gw = start_gateway(Fixed(reply))
    _, _, sse = post_sse(gw, body(0, stream=True))
    (item,) = assemble(sse)["output"]
    assert (item["type"], item["input"], item["call_id"]) == ("custom_tool_call", patch, "call_9")
    assert len([n for n, _ in sse if n == "response.custom_tool_call_input.delta"]) > 1


def test_history_drives_the_replay_to_its_final_answer(start_gateway: StartGateway) -> None:
    gw = start_gateway(replay())
    ids = []
    for n_done in (0, 1):
        _, out = request_json(sock(gw), "POST", PATH, body(n_done))
        ids.append(out["output"][-1]["call_id"])
    assert ids == ["call_0000", "call_0001"]
    _, _, sse = post_sse(gw, body(2, stream=True))
    (final,) = assemble(sse)["output"]
    assert final["type"] == "message"
    assert final["content"][0]["text"] == "All done."


def test_bad_request_is_400(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway()
    payload = body(0, previous_response_id="resp_1")
    status, out = request_json(sock(gw), "POST", PATH, payload)
    assert status == 400
    assert out["error"]["type"] == "invalid_request_error"
    assert "previous_response_id" in out["error"]["message"]
    assert [(e.status, e.wire_format) for e in events] == [(400, "openai_responses")]


def test_backend_failure_is_500(start_gateway: StartGateway, events: list[ModelCallEvent]) -> None:
    gw = start_gateway(Exploding())
    status, out = request_json(sock(gw), "POST", PATH, body(stream=True))
    assert status == 500
    assert out["error"]["type"] == "server_error" and "fell over" in out["error"]["message"]
    assert [e.status for e in events] == [500]
