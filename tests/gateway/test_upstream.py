"""The upstream backend over real HTTP on loopback only: gateway A (upstream, openai_chat) in
front of gateway B (replay) as the provider; the Anthropic Messages and OpenAI Responses
encoders against a fake provider; retries, errors, the key's handling. No real provider is
ever contacted."""

from __future__ import annotations

import json
import secrets
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conversation_helpers import FakeProvider, drive, serve
from gateway_helpers import chat_body

import realcli.gateway.server as gateway_server
from realcli.gateway import (
    BACKENDS,
    BackendError,
    Gateway,
    ReplayBackend,
    make_backend,
    request_json,
)
from realcli.gateway.codecs import CODECS
from realcli.gateway.upstream import UpstreamBackend, load_api_key
from realcli.gateway.wire import ChatRequest, Usage, parse_chat_request
from realcli.ledger.writer import LedgerWriter
from realcli.schema.actions import Action, EditAction, MessageAction, ShellAction, WriteAction
from realcli.schema.events import ModelCallEvent
from realcli.schema.run_spec import ModelSpec, UpstreamSpec
from realcli.util.errors import ConfigError
from realcli.util.redact import REDACTED, Redactor

KEY_ENV = "REALCLI_TEST_UPSTREAM_CRED"  # a name the Redactor does not guess is a secret


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> str:
    value = "sk-" + secrets.token_hex(20)
    monkeypatch.setenv(KEY_ENV, value)
    return value


def upstream_model(base_url: str, wire: str = "openai_chat", **kw: Any) -> ModelSpec:
    spec = UpstreamSpec(
        wire=wire,  # type: ignore[arg-type]
        base_url=base_url,
        model="provider-model",
        api_key_env=KEY_ENV,
        **kw,
    )
    return ModelSpec(
        name="upstream_test", backend="upstream", model_id="agent-model", upstream=spec
    )


def upstream(base_url: str, wire: str = "openai_chat", **kw: Any) -> UpstreamBackend:
    backend = make_backend(upstream_model(base_url, wire, **kw))
    assert isinstance(backend, UpstreamBackend)
    return backend


def test_registered() -> None:
    assert BACKENDS["upstream"] is UpstreamBackend


# ----------------------------------------------------------------------------- A -> B
REFERENCE: list[Action] = [
    ShellAction(action="shell", cmd="cat src/a.py", note="look first"),
    WriteAction(action="write", path="src/b.py", content="print('b')\n" * 40, note="helper"),
    MessageAction(action="message", text="halfway"),
    EditAction(action="edit", path="src/a.py", old="x = 1", new="x = 2"),
    ShellAction(action="shell", cmd="python -m pytest -q"),
    MessageAction(action="message", text="Fixed: x is 2 now."),
]


class _Capturing(gateway_server.GatewayHandler):
    """Gateway B's handler, noting each request's headers (what the provider received)."""

    headers: list[dict[str, str]] = []

    def do_POST(self) -> None:
        type(self).headers.append({k.lower(): v for k, v in self.headers.items()})
        super().do_POST()


@pytest.fixture
def provider_gateway(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Gateway, list[Any]]]:
    """Gateway B: the replay backend on TCP loopback, standing in for a provider."""
    events: list[ModelCallEvent] = []
    headers: list[dict[str, str]] = []
    capturing = type("Capturing", (_Capturing,), {"headers": headers})
    gw = Gateway(ReplayBackend(REFERENCE), events.append, model_id="provider")
    with monkeypatch.context() as m:
        m.setattr(gateway_server, "GatewayHandler", capturing)
        gw.start(tcp_port=0)
    yield gw, [events, headers]
    gw.stop()


SERVED = {codec.name for codec in CODECS}
AUTH = {
    "openai_chat": ("authorization", "Bearer {key}"),
    "openai_responses": ("authorization", "Bearer {key}"),
    "anthropic_messages": ("x-api-key", "{key}"),
}


def test_the_gateway_serves_every_upstream_wire() -> None:
    assert set(AUTH) <= SERVED


@pytest.mark.parametrize("wire", sorted(AUTH))
@pytest.mark.parametrize("stream", [False, True])
def test_gateway_through_upstream_gateway(
    stream: bool,
    wire: str,
    key: str,
    provider_gateway: tuple[Gateway, list[Any]],
    socket_dir: Path,
    tmp_path: Path,
) -> None:
    b, (b_events, b_headers) = provider_gateway
    assert b.tcp_address is not None
    host, port = b.tcp_address
    backend = upstream(f"http://{host}:{port}/v1", wire)
    assert backend.secrets() == (key,)
    # as the runner does: the run's redactor learns the key from the backend
    redactor = Redactor(env={})
    for s in backend.secrets():
        redactor.add(s)
    a_events: list[ModelCallEvent] = []
    native = tmp_path / "run" / "native"
    native.mkdir(parents=True)
    ledger = LedgerWriter(tmp_path / "run" / "ledger.jsonl", redactor)

    def on_call(event: ModelCallEvent) -> None:
        a_events.append(event)
        ledger.emit(event)

    a = Gateway(
        backend,
        on_call,
        model_id="agent-model",
        log_path=native / "gateway.jsonl",
        redactor=redactor,
    )
    with a, ledger:
        a.start(socket_dir / "a.sock")
        replies = drive(socket_dir / "a.sock", stream=stream)

    # the whole reference went through, one provider call per agent call
    assert [len(r["tool_calls"]) for r in replies] == [1, 1, 1, 1, 0]
    assert replies[-1]["content"] == "Fixed: x is 2 now."
    assert "halfway" in (replies[2]["content"] or "")
    assert len(a_events) == len(b_events) == len(replies) == len(b_headers)
    # exact accounting: A records what the provider (B) counted and reported
    for ea, eb, reply in zip(a_events, b_events, replies, strict=True):
        assert (ea.status, eb.status) == (200, 200)
        assert (ea.tokens_in, ea.tokens_out, ea.tokens_cached) == (
            eb.tokens_in,
            eb.tokens_out,
            eb.tokens_cached,
        )
        assert ea.tokens_in > 0 and ea.tokens_out > 0
        assert ea.tool_call_ids == eb.tool_call_ids == tuple(c["id"] for c in reply["tool_calls"])
        assert (ea.backend, eb.backend) == ("upstream", "replay")
        assert (ea.wire_format, eb.wire_format) == ("openai_chat", wire)
        assert (ea.model, eb.model) == ("agent-model", "provider-model")
        assert reply["usage"]["prompt_tokens"] == eb.tokens_in
    # the provider got the key, in its wire's header, on every call
    header, value = AUTH[wire]
    assert all(h.get(header) == value.format(key=key) for h in b_headers)
    # ... and no file realcli wrote has it
    written = [p for p in (tmp_path / "run").rglob("*") if p.is_file()]
    assert {p.name for p in written} == {"gateway.jsonl", "ledger.jsonl"}
    for path in written:
        assert key.encode() not in path.read_bytes(), path
    log = [json.loads(line) for line in (native / "gateway.jsonl").read_text().splitlines()]
    assert [r["usage"]["tokens_in"] for r in log] == [e.tokens_in for e in b_events]


def test_key_echoed_by_the_model_is_redacted(
    monkeypatch: pytest.MonkeyPatch, socket_dir: Path, tmp_path: Path
) -> None:
    """A key of no known shape, echoed back in a reply, is masked in the call log: the
    redactor knows it because the backend handed it over, not by its looks."""
    odd_key = "zz" + secrets.token_hex(16)
    monkeypatch.setenv(KEY_ENV, odd_key)
    echo = ReplayBackend([MessageAction(action="message", text=f"the key is {odd_key}")])
    b = Gateway(echo, lambda e: None).start(tcp_port=0)
    try:
        assert b.tcp_address is not None
        backend = upstream(f"http://127.0.0.1:{b.tcp_address[1]}/v1")
        redactor = Redactor(env={})
        assert redactor.text(odd_key) == odd_key  # no known key shape
        for s in backend.secrets():
            redactor.add(s)
        log = tmp_path / "gateway.jsonl"
        with Gateway(backend, lambda e: None, log_path=log, redactor=redactor) as a:
            a.start(socket_dir / "a.sock")
            replies = drive(socket_dir / "a.sock", stream=False)
    finally:
        b.stop()
    assert replies[-1]["content"] == f"the key is {odd_key}"  # the agent gets the reply as is
    assert odd_key.encode() not in log.read_bytes()
    assert f"the key is {REDACTED}" in log.read_text()


# ----------------------------------------------------------------------------- fake providers
Provider = Callable[..., FakeProvider]


@pytest.fixture
def provider() -> Iterator[Provider]:
    running: list[Iterator[FakeProvider]] = []

    def start(*answers: tuple[int, dict[str, str], Any]) -> FakeProvider:
        gen = serve(FakeProvider(list(answers)))
        running.append(gen)
        return next(gen)

    yield start
    for gen in running:
        next(gen, None)


def conversation() -> ChatRequest:
    """System prompt, user turn, an assistant turn with text and two tool calls, their two
    results, a user follow-up: everything the encoders must map."""
    body = chat_body(n_done=0)
    body["messages"] += [
        {
            "role": "assistant",
            "content": "Two things at once.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "shell", "arguments": '{"cmd": "ls"}'},
                },
                {
                    "id": "call.2",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path": "a.py"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "a.py"},
        {"role": "tool", "tool_call_id": "call.2", "content": "x = 1"},
        {"role": "user", "content": [{"type": "text", "text": "now fix it"}]},
    ]
    body["tools"][0]["function"]["description"] = "run a shell command"
    return parse_chat_request(body)


ANTHROPIC_OK = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "provider-model",
    "content": [
        {"type": "thinking", "thinking": "hmm", "signature": "s"},
        {"type": "text", "text": "Editing now."},
        {"type": "tool_use", "id": "toolu_9", "name": "edit_file", "input": {"path": "a.py"}},
    ],
    "stop_reason": "tool_use",
    "usage": {
        "input_tokens": 120,
        "cache_creation_input_tokens": 30,
        "cache_read_input_tokens": 2000,
        "output_tokens": 45,
    },
}


def test_anthropic_messages_wire(key: str, provider: Provider, socket_dir: Path) -> None:
    fake = provider((200, {}, ANTHROPIC_OK))
    backend = upstream(
        fake.base_url, "anthropic_messages", max_tokens=777, headers={"X-Extra": "1"}
    )
    reply = backend.respond(conversation())

    (seen,) = fake.seen
    assert seen.path == "/v1/messages"
    assert seen.headers["x-api-key"] == key
    assert seen.headers["anthropic-version"] == "2023-06-01"
    assert seen.headers["x-extra"] == "1"
    assert "authorization" not in seen.headers
    body = seen.body
    assert body["model"] == "provider-model" and body["max_tokens"] == 777
    assert "stream" not in body
    assert body["system"] == "sys"
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][0]["content"] == [{"type": "text", "text": "do the task"}]
    assert body["messages"][1]["content"] == [
        {"type": "text", "text": "Two things at once."},
        {"type": "tool_use", "id": "call_1", "name": "shell", "input": {"cmd": "ls"}},
        {"type": "tool_use", "id": "call_2", "name": "read_file", "input": {"path": "a.py"}},
    ]
    assert body["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "call_1", "content": "a.py"},
        {"type": "tool_result", "tool_use_id": "call_2", "content": "x = 1"},
        {"type": "text", "text": "now fix it"},
    ]
    assert body["tools"][0] == {
        "name": "shell",
        "description": "run a shell command",
        "input_schema": {"type": "object"},
    }
    assert [t["name"] for t in body["tools"]] == ["shell", "read_file", "write_file", "edit_file"]

    assert reply.content == "Editing now."
    assert [(c.id, c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("toolu_9", "edit_file", {"path": "a.py"})
    ]
    # every input token counts as input; cache reads are the cached part
    assert reply.usage == Usage(tokens_in=2150, tokens_out=45, tokens_cached=2000)

    # through a gateway: the model_call event carries the provider's numbers
    events: list[ModelCallEvent] = []
    with Gateway(backend, events.append) as gw:
        gw.start(socket_dir / "gw.sock")
        status, _ = request_json(
            socket_dir / "gw.sock", "POST", "/v1/chat/completions", chat_body()
        )
    assert status == 200
    assert (events[0].tokens_in, events[0].tokens_out, events[0].tokens_cached) == (2150, 45, 2000)


RESPONSES_OK = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Reading.", "annotations": []}],
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_77",
            "name": "read_file",
            "arguments": '{"path": "b.py"}',
        },
        {
            "type": "function_call",
            "id": "fc_2",
            "call_id": "call_78",
            "name": "shell",
            "arguments": "not json",
        },
    ],
    "usage": {
        "input_tokens": 900,
        "input_tokens_details": {"cached_tokens": 512},
        "output_tokens": 33,
        "output_tokens_details": {"reasoning_tokens": 20},
        "total_tokens": 933,
    },
}


def test_openai_responses_wire(key: str, provider: Provider) -> None:
    fake = provider((200, {}, RESPONSES_OK))
    reply = upstream(fake.base_url + "/", "openai_responses").respond(conversation())

    (seen,) = fake.seen
    assert seen.path == "/v1/responses"
    assert seen.headers["authorization"] == f"Bearer {key}"
    body = seen.body
    assert body["model"] == "provider-model"
    assert body["instructions"] == "sys"
    assert body["store"] is False and "stream" not in body
    assert body["input"] == [
        {"role": "user", "content": "do the task"},
        {"role": "assistant", "content": "Two things at once."},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "shell",
            "arguments": '{"cmd": "ls"}',
        },
        {
            "type": "function_call",
            "call_id": "call.2",
            "name": "read_file",
            "arguments": '{"path": "a.py"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "a.py"},
        {"type": "function_call_output", "call_id": "call.2", "output": "x = 1"},
        {"role": "user", "content": [{"type": "input_text", "text": "now fix it"}]},
    ]
    assert body["tools"][0] == {
        "type": "function",
        "name": "shell",
        "description": "run a shell command",
        "parameters": {"type": "object"},
        "strict": False,
    }

    assert reply.content == "Reading."
    assert [(c.id, c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("call_77", "read_file", {"path": "b.py"}),
        ("call_78", "shell", {"_raw": "not json"}),  # kept, not dropped
    ]
    assert reply.usage == Usage(tokens_in=900, tokens_out=33, tokens_cached=512)


def test_openai_chat_wire_shape(key: str, provider: Provider) -> None:
    answer = {
        "id": "c1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_5",
                            "type": "function",
                            "function": {"name": "shell", "arguments": '{"cmd": "pwd"}'},
                        }
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {
            "prompt_tokens": 321,
            "completion_tokens": 12,
            "prompt_tokens_details": {"cached_tokens": 256},
        },
    }
    fake = provider((200, {}, answer))
    request = conversation()
    reply = upstream(fake.base_url, headers={"X-Title": "realcli"}).respond(request)
    (seen,) = fake.seen
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == f"Bearer {key}"
    assert seen.headers["x-title"] == "realcli"
    assert seen.body["model"] == "provider-model"
    assert seen.body["messages"] == [dict(m) for m in request.messages]
    assert seen.body["tools"][0]["function"]["name"] == "shell"
    assert reply.content is None
    assert [(c.id, c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("call_5", "shell", {"cmd": "pwd"})
    ]
    assert reply.usage == Usage(321, 12, 256)


# ----------------------------------------------------------------------------- retries, errors
def _chat_ok(text: str = "fine") -> dict[str, Any]:
    return {
        "choices": [{"message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 1},
    }


def _error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind}}


def test_retries_429_and_5xx_then_succeeds(key: str, provider: Provider) -> None:
    fake = provider(
        (429, {"Retry-After": "3"}, _error("slow down", "rate_limit_error")),
        (503, {}, b"<html>upstream unavailable</html>"),
        (529, {"retry-after-ms": "250"}, _error("overloaded", "overloaded_error")),
        (200, {}, _chat_ok()),
    )
    slept: list[float] = []
    backend = UpstreamBackend(
        upstream_model(fake.base_url, max_retries=3).upstream,  # type: ignore[arg-type]
        sleep=slept.append,
    )
    reply = backend.respond(conversation())
    assert reply.content == "fine" and reply.usage == Usage(5, 1)
    assert len(fake.seen) == 4
    assert all(s.body == fake.seen[0].body for s in fake.seen)  # the same request each time
    assert slept[0] == 3.0  # Retry-After honoured
    assert 1.0 <= slept[1] <= 2.0  # exponential backoff with jitter (attempt 2)
    assert slept[2] == 0.25  # retry-after-ms honoured


def test_gives_up_after_max_retries(key: str, provider: Provider) -> None:
    fake = provider((500, {}, _error("internal error", "server_error")))
    slept: list[float] = []
    spec = upstream_model(fake.base_url, max_retries=2).upstream
    assert spec is not None
    with pytest.raises(BackendError) as err:
        UpstreamBackend(spec, sleep=slept.append).respond(conversation())
    assert len(fake.seen) == 3 and len(slept) == 2
    assert "HTTP 500: server_error: internal error" in str(err.value)
    assert "gave up after 3 attempts" in str(err.value)


def test_too_long_retry_after_is_not_waited_for(key: str, provider: Provider) -> None:
    fake = provider((429, {"Retry-After": "86400"}, _error("daily quota", "rate_limit_error")))
    with pytest.raises(BackendError, match="retry after 86400s"):
        upstream(fake.base_url).respond(conversation())
    assert len(fake.seen) == 1


def test_bad_request_is_not_retried_and_never_shows_the_key(key: str, provider: Provider) -> None:
    # providers do echo keys (e.g. "Incorrect API key provided: sk-...")
    fake = provider((400, {}, _error(f"Incorrect API key provided: {key}. Check it.")))
    backend = upstream(fake.base_url)
    with pytest.raises(BackendError) as err:
        backend.respond(conversation())
    assert len(fake.seen) == 1
    message = str(err.value)
    assert "HTTP 400" in message and "Incorrect API key provided" in message
    assert key not in message and REDACTED in message
    assert key not in repr(backend) and key not in repr(err.value)


def test_gateway_answers_500_without_the_key(
    key: str, provider: Provider, socket_dir: Path, tmp_path: Path
) -> None:
    fake = provider((401, {}, _error(f"bad key {key}", "authentication_error")))
    backend = upstream(fake.base_url)
    redactor = Redactor(env={})
    for s in backend.secrets():
        redactor.add(s)
    log = tmp_path / "gateway.jsonl"
    events: list[ModelCallEvent] = []
    with Gateway(backend, events.append, log_path=log, redactor=redactor) as gw:
        gw.start(socket_dir / "gw.sock")
        status, body = request_json(
            socket_dir / "gw.sock", "POST", "/v1/chat/completions", chat_body()
        )
    assert status == 500 and events[0].status == 500
    assert "HTTP 401" in body["error"]["message"] and key not in json.dumps(body)
    assert key.encode() not in log.read_bytes() and b"HTTP 401" in log.read_bytes()


def test_connection_refused_is_retried_then_fails(key: str) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    slept: list[float] = []
    spec = upstream_model(f"http://127.0.0.1:{port}/v1", max_retries=1).upstream
    assert spec is not None
    with pytest.raises(BackendError, match=r"cannot connect.*gave up after 2 attempts"):
        UpstreamBackend(spec, sleep=slept.append).respond(conversation())
    assert len(slept) == 1


def test_redirect_is_an_error_not_followed(key: str, provider: Provider) -> None:
    fake = provider((307, {"Location": "http://127.0.0.1:1/elsewhere"}, b""))
    with pytest.raises(BackendError, match=r"HTTP 307.*redirected to http://127.0.0.1:1/elsewhere"):
        upstream(fake.base_url).respond(conversation())
    assert len(fake.seen) == 1


def test_malformed_success_body(key: str, provider: Provider) -> None:
    fake = provider((200, {}, {"unexpected": True}))
    with pytest.raises(BackendError, match="unexpected response: the response has no choices"):
        upstream(fake.base_url).respond(conversation())


# ----------------------------------------------------------------------------- the key
def test_missing_key_names_the_file_field_and_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    with pytest.raises(ConfigError) as err:
        make_backend(upstream_model("https://provider.invalid/v1"))
    message = str(err.value)
    assert message.startswith("conf/model/upstream_test.yaml: model.upstream.api_key_env: ")
    assert f"{KEY_ENV} is not set" in message and f"export {KEY_ENV}=" in message
    monkeypatch.setenv(KEY_ENV, "   ")
    with pytest.raises(ConfigError, match="not set or empty"):
        make_backend(upstream_model("https://provider.invalid/v1"))


def test_key_from_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    value = "sk-" + secrets.token_hex(20)
    key_file = tmp_path / "key"
    key_file.write_text(f"  {value}\n")
    spec = UpstreamSpec(
        wire="openai_chat", base_url="https://x.invalid/v1", model="m", api_key_file=str(key_file)
    )
    assert load_api_key(spec, "m") == value
    model = ModelSpec(name="filekey", backend="upstream", model_id="m", upstream=spec)
    assert make_backend(model).secrets() == (value,)
    assert value not in model.model_dump_json()  # the spec (spec.json, header) never holds it
    key_file.write_text("")
    with pytest.raises(ConfigError, match=r"filekey.yaml: model.upstream.api_key_file: .*empty"):
        make_backend(model)
    key_file.write_text("two words\n")
    with pytest.raises(ConfigError, match="whitespace") as err:
        make_backend(model)
    assert "two words" not in str(err.value)
    key_file.unlink()
    with pytest.raises(ConfigError, match="does not exist"):
        make_backend(model)


def test_key_pasted_as_the_variable_name_is_not_echoed() -> None:
    pasted = "sk-" + secrets.token_hex(20)
    spec = UpstreamSpec(
        wire="openai_chat", base_url="https://x.invalid/v1", model="m", api_key_env=pasted
    )
    with pytest.raises(ConfigError, match="not an environment variable name") as err:
        load_api_key(spec, "m")
    assert pasted not in str(err.value)


def test_upstream_without_section_or_key_config(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match=r"u.yaml: model.upstream: .*needs an upstream section"):
        make_backend(ModelSpec(name="u", backend="upstream", model_id="m"))
    spec = UpstreamSpec(wire="openai_chat", base_url="https://x.invalid/v1", model="m")
    with pytest.raises(ConfigError, match="no API key is configured"):
        make_backend(ModelSpec(name="u", backend="upstream", model_id="m", upstream=spec))


def test_redactor_add() -> None:
    r = Redactor(env={})
    secret = "zz" + secrets.token_hex(8)
    assert r.text(f"a {secret} b") == f"a {secret} b"
    r.add(secret)
    r.add(secret)
    r.add("short")  # too short to mask safely: ignored
    assert r.text(f"a {secret} b short") == f"a {REDACTED} b short"
    assert r.obj({"k": [secret]}) == {"k": [REDACTED]}
