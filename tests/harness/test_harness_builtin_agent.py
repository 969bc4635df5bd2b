"""The builtin agent script's parts, run on the host in a temp folder (no sandbox needed):
its tools, output truncation, and its model client's retries against a real gateway."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from realcli.gateway import Gateway, NoopBackend, ScriptedBackend
from realcli.harness.agents import builtin_agent as agent


@pytest.fixture
def tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> agent.Tools:
    # the agent's `bash -lc` reads $HOME's login files: give it an empty home, as the sandbox
    # does, so the host user's profile (pyenv init, a stale lock) cannot stall the tests
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return agent.Tools(str(tmp_path), default_timeout_s=10)


@pytest.fixture(autouse=True)
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(agent, "RETRY_DELAYS_S", (0.1, 0.2, 0.4, 0.8))
    yield


def test_truncate_keeps_head_and_tail() -> None:
    text = "A" * 500 + "B" * 500
    out = agent.truncate(text, 300)
    assert len(out) <= 300 and out.startswith("A") and out.endswith("B")
    assert "700 characters truncated" in out
    assert agent.truncate("short", 300) == "short"


def test_file_tools(tools: agent.Tools, tmp_path: Path) -> None:
    assert "wrote" in tools.write_file({"path": "a/b/c.txt", "content": "x = 1\nx = 1\n"})
    assert tools.read_file({"path": str(tmp_path / "a/b/c.txt")}) == "x = 1\nx = 1\n"
    with pytest.raises(agent.ToolFailure, match="found 2 times"):
        tools.edit_file({"path": "a/b/c.txt", "old": "x = 1", "new": "y"})
    tools.edit_file({"path": "a/b/c.txt", "old": "x = 1\nx", "new": "y"})
    assert (tmp_path / "a/b/c.txt").read_text() == "y = 1\n"
    with pytest.raises(agent.ToolFailure, match="found 0 times"):
        tools.edit_file({"path": "a/b/c.txt", "old": "zzz", "new": "y"})
    with pytest.raises(agent.ToolFailure, match="cannot read"):
        tools.read_file({"path": "missing.txt"})
    with pytest.raises(agent.ToolFailure, match="path"):
        tools.read_file({})
    with pytest.raises(agent.ToolFailure, match="unknown tool"):
        tools.run("teleport", {})


def test_shell_tool(tools: agent.Tools) -> None:
    assert tools.shell({"cmd": "echo out; echo err >&2; exit 4"}) == (False, 4, "out\nerr\n")
    assert tools.shell({"cmd": "pwd"})[2].strip() == tools.workdir
    started = time.monotonic()
    ok, code, out = tools.shell({"cmd": "echo before; sleep 30", "timeout_s": 2})
    assert not ok and code is None and "timed out" in out and "before" in out
    assert time.monotonic() - started < 8
    with pytest.raises(agent.ToolFailure):
        tools.shell({"cmd": "  "})


def test_shell_does_not_wait_for_background_daemons(tools: agent.Tools) -> None:
    tag = f"{1000 + secrets.randbelow(10**6)}.{secrets.randbelow(10**6):06d}"
    started = time.monotonic()
    ok, code, _ = tools.shell({"cmd": f"setsid sleep {tag} & echo started"})
    assert (ok, code) == (True, 0) and time.monotonic() - started < 5
    # tidy up the daemon this host-side test started
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if tag.encode() in (entry / "cmdline").read_bytes().split(b"\0"):
                    os.kill(int(entry.name), signal.SIGKILL)
            except OSError:
                pass


def test_bad_arguments_become_error_results(
    tools: agent.Tools, capsys: pytest.CaptureFixture[str]
) -> None:
    result = agent.execute(tools, "c1", "shell", "{not json", 1000)
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["type"] for r in records] == ["tool_call", "tool_result"]
    assert records[0]["arguments"] == {"_raw": "{not json"}
    assert records[1]["ok"] is False and result.startswith("error: tool call arguments")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_call_model_retries_until_the_gateway_is_up() -> None:
    port = _free_port()
    gw = Gateway(NoopBackend(), lambda e: None)
    timer = threading.Timer(0.25, lambda: gw.start(tcp_port=port))
    timer.start()
    try:
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        reply = agent.call_model(f"http://127.0.0.1:{port}/v1", body)
        assert reply["choices"][0]["message"]["content"] == "done"
    finally:
        timer.join()
        gw.stop()


def test_call_model_gives_up() -> None:
    port = _free_port()
    with pytest.raises(agent.GatewayFailure, match="unreachable after 5 attempts"):
        agent.call_model(f"http://127.0.0.1:{port}/v1", {"messages": []})


def test_agent_main_on_the_host(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text(json.dumps({"action": "write", "path": "f.txt", "content": "hi"}) + "\n")
    (tmp_path / "instruction.md").write_text("write f.txt")
    (tmp_path / "ws").mkdir()
    with Gateway(ScriptedBackend(script), lambda e: None).start(tcp_port=0) as gw:
        host, port = gw.tcp_address  # type: ignore[misc]
        code = agent.main(
            [
                "--base-url",
                f"http://{host}:{port}/v1",
                "--model",
                "m",
                "--instruction-file",
                str(tmp_path / "instruction.md"),
                "--workdir",
                str(tmp_path / "ws"),
                "--max-turns",
                "5",
            ]
        )
    assert code == 0 and (tmp_path / "ws" / "f.txt").read_text() == "hi"
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["type"] for r in records] == [
        "session_start",
        "model_response",
        "tool_call",
        "tool_result",
        "model_response",
        "message",
        "session_end",
    ]
    assert records[-1] == {"type": "session_end", "reason": "done", "turns": 2, "detail": ""}
