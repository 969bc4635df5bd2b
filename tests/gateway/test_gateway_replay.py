"""Backends: the contract every backend meets, replay's mapping onto offered tools and its
exact fallbacks (executed for real with bash and python3), scripted files, the factory."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from gateway_helpers import BUILTIN_TOOL_NAMES, chat_body

from realcli.gateway import (
    BACKENDS,
    Backend,
    BackendError,
    ChatReply,
    NoopBackend,
    ReplayBackend,
    ScriptedBackend,
    ToolMappingError,
    make_backend,
    map_action,
)
from realcli.gateway.wire import parse_chat_request
from realcli.schema.actions import (
    Action,
    EditAction,
    MessageAction,
    ReadAction,
    ShellAction,
    WriteAction,
)
from realcli.schema.run_spec import ModelSpec
from realcli.util.errors import ConfigError, TaskError

TRICKY = (
    "line1\r\nquote ' \" back\\slash $HOME `x`\nREALCLI_EOF\nEOF\nünï ✓ 🎉\n\tno newline at end"
)

REFERENCE: list[Action] = [
    ShellAction(action="shell", cmd="ls -la", timeout_s=30, note="look around"),
    ReadAction(action="read", path="src/a.py"),
    MessageAction(action="message", text="halfway there"),
    WriteAction(action="write", path="src/b.py", content="print('b')\n", note="new file"),
    EditAction(action="edit", path="src/a.py", old="x = 1", new="x = 2"),
    MessageAction(action="message", text="Fixed it.", note="summary"),
]


def reply_for(
    backend: Backend, n_done: int, tools: tuple[str, ...] = BUILTIN_TOOL_NAMES
) -> ChatReply:
    return backend.respond(parse_chat_request(chat_body(tools=tools, n_done=n_done)))


# ---------------------------------------------------------------------- contract
class BackendContract:
    """What every backend guarantees; subclasses provide the ``backend`` fixture."""

    @pytest.fixture
    def backend(self, tmp_path: Path) -> Backend:
        raise NotImplementedError

    def test_registered_by_name(self, backend: Backend) -> None:
        assert BACKENDS[backend.name] is type(backend)

    def test_replies_and_is_stateless(self, backend: Backend) -> None:
        for n_done in (0, 1, 0, 2, 1):
            first, again = reply_for(backend, n_done), reply_for(backend, n_done)
            assert first == again
            assert isinstance(first, ChatReply)
            assert first.content or first.tool_calls
            assert first.finish_reason == ("tool_calls" if first.tool_calls else "stop")

    def test_eventually_finishes(self, backend: Backend) -> None:
        reply = reply_for(backend, 1000)
        assert reply.tool_calls == () and reply.content

    def test_thread_safe(self, backend: Backend) -> None:
        expected = [reply_for(backend, i % 4) for i in range(16)]
        got: dict[int, ChatReply] = {}
        threads = [
            threading.Thread(target=lambda i=i: got.__setitem__(i, reply_for(backend, i % 4)))
            for i in range(16)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [got[i] for i in range(16)] == expected


class TestNoopBackend(BackendContract):
    @pytest.fixture
    def backend(self, tmp_path: Path) -> Backend:
        return NoopBackend()

    def test_always_done(self, backend: Backend) -> None:
        assert reply_for(backend, 0) == ChatReply(content="done")


class TestReplayBackend(BackendContract):
    @pytest.fixture
    def backend(self, tmp_path: Path) -> Backend:
        return ReplayBackend(REFERENCE)


class TestScriptedBackend(BackendContract):
    @pytest.fixture
    def backend(self, tmp_path: Path) -> Backend:
        (tmp_path / "files").mkdir()
        (tmp_path / "files" / "b.py").write_text("print('b')\n")
        script = tmp_path / "agent.jsonl"
        lines = [
            {"action": "shell", "cmd": "ls"},
            {},
            {"action": "write", "path": "b.py", "content_from": "files/b.py"},
        ]
        script.write_text("\n".join(json.dumps(x) if x else "" for x in lines) + "\n")
        return ScriptedBackend(script)

    def test_content_from_is_inlined(self, backend: Backend) -> None:
        (call,) = reply_for(backend, 1).tool_calls
        assert call.arguments == {"path": "b.py", "content": "print('b')\n"}


# ---------------------------------------------------------------------- replay
def test_replay_serves_each_action_by_history_length() -> None:
    backend = ReplayBackend(REFERENCE)
    replies = [reply_for(backend, i) for i in range(5)]
    calls = [(r.tool_calls[0].name, dict(r.tool_calls[0].arguments)) for r in replies[:4]]
    assert calls == [
        ("shell", {"cmd": "ls -la", "timeout_s": 30.0}),
        ("read_file", {"path": "src/a.py"}),
        ("write_file", {"path": "src/b.py", "content": "print('b')\n"}),
        ("edit_file", {"path": "src/a.py", "old": "x = 1", "new": "x = 2"}),
    ]
    assert [r.content for r in replies[:4]] == [
        "look around",
        None,
        "halfway there\n\nnew file",
        None,
    ]
    assert [r.tool_calls[0].id for r in replies[:4]] == [f"call_{i:04d}" for i in range(4)]
    assert replies[4] == ChatReply(content="summary\n\nFixed it.")  # final message, no calls


def test_replay_without_final_message_says_done() -> None:
    backend = ReplayBackend([ShellAction(action="shell", cmd="true")])
    assert reply_for(backend, 1) == ChatReply(content="done")
    assert reply_for(ReplayBackend([]), 0) == ChatReply(content="done")


def test_replay_requires_inlined_content() -> None:
    with pytest.raises(ValueError, match="inline"):
        ReplayBackend([WriteAction(action="write", path="x", content_from="files/x")])


def test_unmappable_action_is_a_clear_backend_error() -> None:
    backend = ReplayBackend([EditAction(action="edit", path="a", old="x", new="y")])
    with pytest.raises(BackendError, match=r"'edit'.*read_file"):
        reply_for(backend, 0, tools=("read_file",))
    with pytest.raises(BackendError, match="offered tools"):
        reply_for(backend, 0, tools=())


def test_native_file_tool_preferred_over_shell() -> None:
    action = ReadAction(action="read", path="a.txt")
    assert map_action(action, ["shell", "read_file"], call_id="c").name == "read_file"
    assert map_action(action, ["shell"], call_id="c").name == "shell"
    with pytest.raises(ToolMappingError):
        map_action(MessageAction(action="message", text="hi"), ["shell"], call_id="c")


def _run_fallback(action: Action, cwd: Path) -> subprocess.CompletedProcess[str]:
    call = map_action(action, ["shell"], call_id="c")
    assert call.name == "shell" and call.arguments["timeout_s"] > 0
    return subprocess.run(
        ["bash", "-c", call.arguments["cmd"]], cwd=cwd, text=True, capture_output=True, timeout=30
    )


def test_write_fallback_is_byte_exact(tmp_path: Path) -> None:
    r = _run_fallback(WriteAction(action="write", path="deep/er/f.txt", content=TRICKY), tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "deep/er/f.txt").read_bytes() == TRICKY.encode()


def test_edit_fallback_replaces_exactly_once(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_bytes(TRICKY.encode())
    action = EditAction(action="edit", path="f.txt", old="REALCLI_EOF\nEOF", new="E'O\"F\r\n")
    assert _run_fallback(action, tmp_path).returncode == 0
    assert target.read_bytes() == TRICKY.replace("REALCLI_EOF\nEOF", "E'O\"F\r\n").encode()
    target.write_text("dup dup")
    r = _run_fallback(EditAction(action="edit", path="f.txt", old="dup", new="x"), tmp_path)
    assert r.returncode != 0 and "exactly once" in r.stderr
    assert target.read_text() == "dup dup"


def test_read_fallback(tmp_path: Path) -> None:
    (tmp_path / "a b.txt").write_text("content\n")
    r = _run_fallback(ReadAction(action="read", path="a b.txt"), tmp_path)
    assert r.stdout == "content\n"


# ---------------------------------------------------------------------- scripted, factory
def test_scripted_reports_bad_lines(tmp_path: Path) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text('{"action": "shell", "cmd": "ls"}\n{"action": "teleport"}\n')
    with pytest.raises(TaskError, match=r"s\.jsonl:2: action: bad value 'teleport'"):
        ScriptedBackend(script)
    script.write_text('{"action": "write", "path": "x", "content_from": "missing.txt"}\n')
    with pytest.raises(TaskError, match="content_from"):
        ScriptedBackend(script)
    with pytest.raises(TaskError, match="cannot read"):
        ScriptedBackend(tmp_path / "absent.jsonl")


def _spec(backend: str, **kw: Any) -> ModelSpec:
    return ModelSpec(name=backend, backend=backend, model_id=f"realcli/{backend}", **kw)


def test_make_backend(tmp_path: Path) -> None:
    assert isinstance(make_backend(_spec("noop", latency_ms=5)), NoopBackend)
    assert make_backend(_spec("noop", latency_ms=5)).latency_ms == 5
    replay = make_backend(_spec("replay"), REFERENCE)
    assert isinstance(replay, ReplayBackend) and len(replay.steps) == 4
    script = tmp_path / "s.jsonl"
    script.write_text('{"action": "shell", "cmd": "ls"}\n')
    assert isinstance(make_backend(_spec("scripted", script=str(script))), ScriptedBackend)
    with pytest.raises(ConfigError, match="script"):
        make_backend(_spec("scripted"))


def test_real_reference_trajectory_replays_onto_builtin_tools() -> None:
    """The smoke task's reference (content_from inlined) maps onto the builtin tools."""
    root = Path(__file__).resolve().parents[2] / "tasks" / "smoke-bugfix-intervals" / "solution"
    backend = ScriptedBackend(root / "trajectory.jsonl")
    n = len(backend.steps)
    names = [reply_for(backend, i).tool_calls[0].name for i in range(n)]
    assert set(names) <= set(BUILTIN_TOOL_NAMES) and reply_for(backend, n).tool_calls == ()
