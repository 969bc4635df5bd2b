"""BuiltinHarness end to end: the real agent script in a real bubblewrap sandbox, talking to
a real gateway over its Unix socket, recorded in a real ledger."""

from __future__ import annotations

import json
import secrets
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from harness_helpers import Session, unique_sleep

from realcli.gateway import Backend, ChatReply, ChatRequest, NoopBackend
from realcli.harness import BuiltinHarness, HarnessContext, harness_class, make_harness
from realcli.ledger import LedgerWriter
from realcli.sandbox import LocalSandbox, SandboxOptions
from realcli.schema.events import ErrorType
from realcli.schema.run_spec import HarnessSpec
from realcli.util.hashing import sha256_bytes
from realcli.util.redact import Redactor
from tests.conftest import processes_with_arg

pytestmark = pytest.mark.sandbox
RunSession = Callable[..., Session]

SCRIPT = [
    {"action": "write", "path": "pkg/hello.txt", "content": "hello world\n", "note": "Create."},
    {"action": "shell", "cmd": "cat pkg/hello.txt && echo ran > ran.txt", "timeout_s": 30},
    {"action": "edit", "path": "pkg/hello.txt", "old": "world", "new": "sandbox"},
    {"action": "read", "path": "/app/pkg/hello.txt"},
    {"action": "message", "text": "All done."},
]


def test_scripted_agent_end_to_end(run_session: RunSession) -> None:
    s = run_session(SCRIPT)
    assert (s.outcome.reason, s.outcome.turns, s.outcome.exit_code) == ("done", 5, 0)
    assert (s.workspace / "pkg" / "hello.txt").read_text() == "hello sandbox\n"
    assert (s.workspace / "ran.txt").read_text() == "ran\n"

    # Each model_call comes right before the agent's records of the turn it answered, however
    # far the agent runs ahead of its transcript (the relay; a loaded CI machine once showed a
    # model_call a turn early when assistant text drained it). A call the gateway failed (a
    # 5xx a loaded machine can cause) and the agent retried is left out.
    failed = {e.seq for e in s.of("model_call") if e.status != 200}
    kinds = [e.kind for e in s.events if e.kind != "session" and e.seq not in failed]
    assert kinds == [
        "message",  # the instruction, as the user
        "model_call",
        "message",
        "tool_call",
        "tool_result",  # write (with its note)
        "model_call",
        "tool_call",
        "tool_result",  # shell
        "model_call",
        "tool_call",
        "tool_result",  # edit
        "model_call",
        "tool_call",
        "tool_result",  # read
        "model_call",
        "message",  # final answer
    ]
    assert [e.seq for e in s.events] == list(range(1, len(s.events) + 1))
    calls, results = s.of("tool_call"), s.of("tool_result")
    assert [(c.name, c.atomic_op, c.channel) for c in calls] == [
        ("write_file", "fs: write", "cli"),
        ("shell", "exec: shell", "cli"),
        ("edit_file", "fs: edit", "cli"),
        ("read_file", "fs: read", "cli"),
    ]
    assert [c.call_id for c in calls] == [r.call_id for r in results]
    assert all(r.ok for r in results) and results[1].exit_code == 0
    assert [r.touched_files for r in results] == [("pkg/hello.txt",), (), ("pkg/hello.txt",), ()]
    assert results[1].output_excerpt == "hello world\n"
    assert results[3].output_digest == sha256_bytes(b"hello sandbox\n")
    messages = s.of("message")
    assert [(m.role, m.text) for m in messages] == [
        ("user", "Do the task."),
        ("assistant", "Create."),
        ("assistant", "All done."),
    ]
    model_calls = s.of("model_call")
    assert [m.n_tool_calls for m in model_calls] == [1, 1, 1, 1, 0]
    assert all(m.status == 200 and m.backend == "scripted" for m in model_calls)
    assert model_calls[1].tokens_in > model_calls[0].tokens_in  # the history grows

    native = [json.loads(line) for line in (s.native_dir / "builtin_agent.jsonl").open()]
    assert native[0]["type"] == "session_start" and native[-1]["type"] == "session_end"
    assert (s.native_dir / "builtin_agent.stderr").exists()


def test_noop_agent_is_done_after_one_turn(run_session: RunSession) -> None:
    s = run_session(NoopBackend())
    assert (s.outcome.reason, s.outcome.turns, s.outcome.exit_code) == ("done", 1, 0)
    assert s.kinds() == ["message", "model_call", "message"]
    assert s.of("message")[-1].text == "done"


def test_timeout_kills_everything_and_is_recorded(run_session: RunSession) -> None:
    tag = unique_sleep()
    agent = [{"action": "shell", "cmd": f"setsid sleep {tag} & nohup sleep {tag} & sleep {tag}"}]
    started = time.monotonic()
    s = run_session(agent, timeout_s=2.0)
    assert time.monotonic() - started < 15
    assert s.outcome.reason == "timeout" and s.outcome.exit_code is None
    (error,) = s.of("error")
    assert error.error_type == ErrorType.agent_timeout
    assert s.kinds()[-2:] == ["tool_call", "error"]
    assert processes_with_arg(tag) == []


def test_max_turns(run_session: RunSession) -> None:
    agent = [{"action": "shell", "cmd": f"echo {i}"} for i in range(5)]
    s = run_session(agent, max_turns=2)
    assert (s.outcome.reason, s.outcome.turns) == ("max_turns", 2)
    assert len(s.of("model_call")) == 2 and len(s.of("tool_result")) == 2


class _Failing(Backend):
    name = "failing"

    def respond(self, request: ChatRequest) -> ChatReply:
        raise RuntimeError("upstream exploded")


def test_gateway_error_ends_with_error(run_session: RunSession) -> None:
    s = run_session(_Failing())
    assert s.outcome.reason == "error" and "upstream exploded" in s.outcome.detail
    assert [e.status for e in s.of("model_call")] == [500]  # a 500 is not retried
    (error,) = s.of("error")
    assert error.error_type == ErrorType.gateway_error


class _GarbageAgent(BuiltinHarness):
    """Prints noise and half-valid records, then dies: parsing must be defensive."""

    def argv(self, ctx: HarnessContext) -> list[str]:
        script = (
            "import json, sys\n"
            "print('not json at all')\n"
            "print('[1, 2]')\n"
            "print(json.dumps({'type': 'tool_call', 'name': 'shell'}))\n"  # no id
            "print(json.dumps({'type': 'tool_result', 'id': 'x', 'duration_ms': 'slow'}))\n"
            "print(json.dumps({'type': 'message', 'role': 'assistant', 'text': 'hi'}))\n"
            "print(json.dumps({'type': 'mystery'}))\n"
            "print('boom', file=sys.stderr)\n"
            "sys.exit(3)\n"
        )
        return ["/usr/bin/python3", "-c", script]


def test_crash_is_recorded_and_noise_ignored(run_session: RunSession) -> None:
    s = run_session(NoopBackend(), harness=_GarbageAgent(_spec()))
    assert (s.outcome.reason, s.outcome.exit_code) == ("crash", 3)
    assert "boom" in s.outcome.detail
    assert s.kinds() == ["message", "tool_result", "message", "error"]
    assert s.of("error")[0].error_type == ErrorType.agent_crash
    raw = (s.native_dir / "builtin_agent.jsonl").read_text()
    assert raw.startswith("not json at all\n")  # kept in native/, ignored in the ledger
    assert (s.native_dir / "builtin_agent.stderr").read_text() == "boom\n"


def test_secrets_are_redacted_from_ledger_and_native(run_session: RunSession) -> None:
    secret = "sk-test-" + secrets.token_hex(12)
    agent = [{"action": "shell", "cmd": f"echo {secret}"}]
    s = run_session(agent, redactor=Redactor(env={"UPSTREAM_API_KEY": secret}))
    assert s.outcome.reason == "done"
    ledger = (s.native_dir.parent / "ledger.jsonl").read_text()
    native = (s.native_dir / "builtin_agent.jsonl").read_text()
    assert secret not in ledger and secret not in native and "[REDACTED]" in native


def test_adversarial_agent_stays_inside(run_session: RunSession) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        agent = [
            {"action": "read", "path": "/etc/shadow"},
            {"action": "shell", "cmd": "ls /work/shared /home 2>&1; cat /proc/1/environ"},
            {"action": "shell", "cmd": f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo CONNECTED"},
            {"action": "write", "path": "/usr/evil", "content": "x"},
        ]
        s = run_session(agent)
    results = s.of("tool_result")
    assert s.outcome.reason == "done" and len(results) == 4
    assert not results[0].ok and "No such file" in results[0].output_excerpt
    assert "No such file" in results[1].output_excerpt
    assert "CONNECTED" not in results[2].output_excerpt and results[2].exit_code != 0
    assert not results[3].ok and results[3].touched_files == ()


def _spec(**kw: object) -> HarnessSpec:
    return HarnessSpec(name="builtin", kind="builtin", version="1", **kw)


def test_registry() -> None:
    assert harness_class("builtin") is BuiltinHarness
    assert isinstance(make_harness(_spec()), BuiltinHarness)


def test_context_must_point_at_the_gateway(tmp_path: Path) -> None:
    ctx = HarnessContext(
        sandbox=LocalSandbox(SandboxOptions(workspace=tmp_path)),
        ledger=LedgerWriter(tmp_path / "ledger.jsonl", Redactor(env={})),
        native_dir=tmp_path / "native", instruction="x", model_id="m", gateway_port=8765,
        workdir="/app", timeout_s=5, redactor=Redactor(env={}),
    )  # fmt: skip
    with pytest.raises(ValueError, match="gateway_socket"):
        BuiltinHarness(_spec()).run(ctx)
