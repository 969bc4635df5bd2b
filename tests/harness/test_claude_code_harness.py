"""ClaudeCodeHarness: the harness contract with the real CLI (when installed), and its
parsers, command line and replay tool mapping against recorded output (always).

``recorded/claude_code/`` holds the files of a real ``model=replay`` run of
smoke-bugfix-intervals with Claude Code 2.1.332 (stdout, session file, ledger), the first
request Claude Code sent, and the stdout of a run that gave up on HTTP 500s
(``CLAUDE_CODE_MAX_RETRIES=2``) and of one stopped by ``--max-turns 2``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from harness_contract import HarnessContract, NativeKind, NativeToolEvent
from harness_scenarios import SMOKE_TASK

from realcli.gateway import ToolMappingError, map_action
from realcli.gateway.toolmap import shell_equivalent
from realcli.gateway.toolsets.base import Target
from realcli.gateway.toolsets.claude_code import TABLES, NotExact, exact_text
from realcli.harness.claude_code import (
    CLI_TOOLS,
    ClaudeCodeHarness,
    ClaudeCodeTranscript,
    read_session,
)
from realcli.harness.install import InstallError, agents_dir, find_install
from realcli.harness.relay import ModelCallRelay
from realcli.ledger import LedgerWriter, read_ledger
from realcli.schema.actions import Action, EditAction, ReadAction, ShellAction, WriteAction
from realcli.schema.events import HeaderEvent, ModelCallEvent
from realcli.schema.run_spec import HarnessSpec
from realcli.util.redact import Redactor

RECORDED = Path(__file__).parent / "recorded" / "claude_code"
NATIVE = "claude_code"
POOL = ("Bash", "Edit", "Glob", "Grep", "Read", "Write")
KINDS: dict[str, NativeKind] = {"tool_use": "call", "tool_result": "result"}


def session_files(native_dir: Path) -> list[Path]:
    projects = native_dir / NATIVE / "home" / ".claude" / "projects"
    return sorted(projects.rglob("*.jsonl")) if projects.is_dir() else []


# ----------------------------------------------------------------------------- contract
@pytest.mark.sandbox
class TestClaudeCodeHarnessContract(HarnessContract):
    harness_overrides = ("harness=claude_code",)
    # every smoke task is replayed by this harness in tests/runner/test_harness_sweep.py;
    # the contract replays one (its sweep run checks the others)
    replay_tasks = (SMOKE_TASK,)
    tool_pool = frozenset(POOL)

    @classmethod
    def skip_reason(cls) -> str | None:
        try:
            find_install("claude_code", agents_dir())
        except InstallError:
            return "Claude Code is not installed: realcli agents install claude_code"
        return None

    @classmethod
    def native_tool_events(cls, native_dir: Path) -> list[NativeToolEvent]:
        events: list[NativeToolEvent] = []
        for path in session_files(native_dir):
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if record.get("type") not in ("assistant", "user") or record.get("isSidechain"):
                    continue
                content = (record.get("message") or {}).get("content")
                for block in content if isinstance(content, list) else []:
                    kind = KINDS.get(block.get("type"))
                    if kind is not None:
                        call_id = block["id"] if kind == "call" else block["tool_use_id"]
                        events.append(NativeToolEvent(kind, str(call_id)))
        return events

    @classmethod
    def native_tool_pool(cls, native_dir: Path) -> set[str] | None:
        files = session_files(native_dir)
        pool = read_session(files)[4] if files else []
        return set(pool) if pool else None


# ----------------------------------------------------------------------------- recorded
def lines(name: str) -> list[str]:
    return (RECORDED / name).read_text(encoding="utf-8").splitlines()


def recorded_ledger() -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines("replay-ledger.jsonl")]


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


def transcribe(
    ledger: LedgerWriter, name: str, calls: list[ModelCallEvent] | None = None
) -> tuple[ClaudeCodeTranscript, list[dict[str, Any]]]:
    """Feed a recorded stdout; ``calls`` reach the relay as the gateway would report them
    (each just before the first stdout line of its reply)."""
    relay = ModelCallRelay() if calls is not None else None
    pending = list(calls or [])
    seen: set[Any] = set()
    transcript = ClaudeCodeTranscript(ledger, Redactor(env={}), "/app", relay)
    for line in lines(name):
        record = json.loads(line)
        reply_id = (record.get("message") or {}).get("id")
        if relay is not None and record.get("type") == "assistant" and reply_id not in seen:
            seen.add(reply_id)
            relay(pending.pop(0))
        transcript.feed(line + "\n")
    transcript.flush_model_calls()
    ledger.close()
    events = [e.model_dump(mode="json") for e in read_ledger(ledger.path).events]
    return transcript, events


def shape(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The agent-order skeleton of a ledger: kinds with call ids / roles."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        if e["kind"] == "model_call":
            out.append(("model_call", tuple(e["tool_call_ids"])))
        elif e["kind"] in ("tool_call", "tool_result"):
            out.append((e["kind"], e["call_id"]))
        elif e["kind"] == "message" and e["role"] == "assistant":
            out.append(("message", e["text"]))
    return out


def test_recorded_stdout_gives_the_recorded_ledger_in_agent_order(ledger: LedgerWriter) -> None:
    recorded = recorded_ledger()
    calls = [
        ModelCallEvent.model_validate({**e, "seq": 0})
        for e in recorded
        if e["kind"] == "model_call"
    ]
    transcript, events = transcribe(ledger, "replay-stdout.jsonl", calls)
    assert transcript.problems == [] and transcript.noise == 0
    assert shape(events) == shape(recorded)
    assert transcript.turns == 17 and len(transcript.call_ids) == 16
    assert transcript.init is not None and transcript.init["tools"] == list(POOL)
    tool_calls = [e for e in events if e["kind"] == "tool_call"]
    assert [c["name"] for c in tool_calls[:2]] == ["shell", "read_file"]
    assert tool_calls[1]["args"] == {"file_path": "/app/intervals/core.py"}
    assert {c["atomic_op"] for c in tool_calls} == {
        "exec: shell",
        "fs: read",
        "fs: edit",
        "fs: write",
    }
    results = {e["call_id"]: e for e in events if e["kind"] == "tool_result"}
    assert results["call_0000"]["exit_code"] == 0 and results["call_0001"]["exit_code"] is None
    assert results["call_0014"]["touched_files"] == ["tests/test_reported_bugs.py"]
    assert all(r["ok"] for r in results.values())
    harness = ClaudeCodeHarness(spec())
    assert harness.ending(transcript, 0) == ("done", "")


def test_recorded_session_file_matches_the_gateway() -> None:
    calls, tokens_in, tokens_out, call_ids, pool = read_session([RECORDED / "replay-session.jsonl"])
    (fidelity,) = [e for e in recorded_ledger() if e["kind"] == "fidelity"]
    assert (calls, tokens_in, tokens_out) == (
        fidelity["gateway_calls"],
        fidelity["gateway_tokens_in"],
        fidelity["gateway_tokens_out"],
    )
    ledger_ids = [e["call_id"] for e in recorded_ledger() if e["kind"] == "tool_call"]
    assert call_ids == ledger_ids and len(call_ids) == 16
    assert tuple(pool) == POOL


def test_api_error_ends_as_error(ledger: LedgerWriter) -> None:
    transcript, events = transcribe(ledger, "api-error-stdout.jsonl")
    assert transcript.retries == 2 and transcript.turns == 0
    assert [e for e in events if e["kind"] == "message"] == []  # the made-up error text is not
    reason, detail = ClaudeCodeHarness(spec()).ending(transcript, 1)
    assert reason == "error" and "500" in detail


def test_max_turns_ends_as_max_turns(ledger: LedgerWriter) -> None:
    transcript, _ = transcribe(ledger, "max-turns-stdout.jsonl")
    assert transcript.turns == 2
    reason, detail = ClaudeCodeHarness(spec()).ending(transcript, 1)
    assert (reason, detail) == ("max_turns", "Reached maximum number of turns (2)")


def test_no_result_line_is_a_crash(ledger: LedgerWriter) -> None:
    transcript = ClaudeCodeTranscript(ledger, Redactor(env={}), "/app")
    for line in lines("replay-stdout.jsonl")[:-1]:
        transcript.feed(line)
    transcript.feed("not json at all")
    transcript.feed('{"type": "assistant", "message": {"id": "x"}}')  # no content
    assert transcript.noise == 1 and len(transcript.problems) == 1
    assert ClaudeCodeHarness(spec()).ending(transcript, 143) == (None, "")


def test_tool_result_blocks_and_exit_codes(ledger: LedgerWriter) -> None:
    transcript = ClaudeCodeTranscript(ledger, Redactor(env={}), "/app")
    for call_id, name in (("a", "Bash"), ("b", "mcp__gui__click"), ("c", "Bash")):
        use = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
        transcript.on_record({"type": "assistant", "message": {"id": "m", "content": [use]}})
    results = [
        {"type": "tool_result", "tool_use_id": "a", "content": "Exit code 137", "is_error": True},
        {"type": "tool_result", "tool_use_id": "b", "content": [{"type": "text", "text": "hi"}]},
        {"type": "tool_result", "tool_use_id": "c", "content": "boom", "is_error": True},
    ]
    transcript.on_record({"type": "user", "message": {"role": "user", "content": results}})
    transcript.on_record({"type": "user", "message": {"role": "user", "content": "a prompt"}})
    ledger.close()
    got = [
        (e.call_id, e.ok, e.exit_code, e.output_excerpt)
        for e in read_ledger(ledger.path).events
        if e.kind == "tool_result"
    ]
    assert got == [
        ("a", False, 137, "Exit code 137"),
        ("b", True, None, "hi"),
        ("c", False, None, "boom"),
    ]
    assert transcript.turns == 1


# ----------------------------------------------------------------------------- command line
def spec(**options: Any) -> HarnessSpec:
    return HarnessSpec(
        name="claude_code",
        kind="claude_code",
        version="2.1.332",
        max_turns=7,
        tool_timeout_s=90,
        output_limit=9000,
        options=options,
    )


CHANNELS = {"cli_only": ("cli",), "hybrid": ("cli", "gui"), "gui_only": ("gui",)}


def fake_ctx(mode: str = "cli_only") -> Any:
    return SimpleNamespace(
        instruction="Fix it.",
        model_id="realcli/model",
        gateway_port=8765,
        mode=mode,
        channels=CHANNELS.get(mode, ()),
        resume=False,
        state_dir=None,
    )


def test_argv_and_environment() -> None:
    harness = ClaudeCodeHarness(spec(extra_args=["--effort", "high"]))
    install = SimpleNamespace(entry=Path("/opt/claude/claude"))
    argv = harness.argv(fake_ctx(), install)  # type: ignore[arg-type]
    assert argv[:2] == ["/opt/claude/claude", "-p"] and argv[-2:] == ["--", "Fix it."]
    assert argv[argv.index("--tools") + 1] == ",".join(CLI_TOOLS)
    assert argv[argv.index("--max-turns") + 1] == "7"
    assert argv[argv.index("--model") + 1] == "realcli/model"
    assert argv[argv.index("--permission-mode") + 1] == "bypassPermissions"
    assert argv[-4:-2] == ["--effort", "high"] and "--strict-mcp-config" in argv
    env = harness.environment(fake_ctx(), install)  # type: ignore[arg-type]
    assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:8765"
    assert env["CLAUDE_CONFIG_DIR"] == "/run/realcli/home/.claude"
    assert (env["BASH_DEFAULT_TIMEOUT_MS"], env["BASH_MAX_OUTPUT_LENGTH"]) == ("90000", "9000")
    assert env["ENABLE_TOOL_SEARCH"] == "false" and env["IS_SANDBOX"] == "1"
    assert env["CLAUDE_CODE_MAX_RETRIES"] == "2"


def test_options_and_modes_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown key"):
        ClaudeCodeHarness(spec(colour="red")).tools()
    assert ClaudeCodeHarness(spec(tools=["Bash"])).tools() == ("Bash",)
    enforced, not_enforced = ClaudeCodeHarness(spec()).modes(fake_ctx())
    assert enforced and not_enforced
    with pytest.raises(ValueError, match="gui_only"):
        ClaudeCodeHarness(spec()).modes(fake_ctx("other"))


def test_native_files_are_the_session_logs(tmp_path: Path) -> None:
    project = tmp_path / ".claude" / "projects" / "-app"
    (project / "s1" / "subagents").mkdir(parents=True)
    (project / "s1.jsonl").write_text("{}\n")
    (project / "s1" / "subagents" / "a.jsonl").write_text("{}\n")
    (tmp_path / ".claude" / ".claude.json").write_text("{}")
    kept = ClaudeCodeHarness(spec()).native_files(tmp_path)
    assert [p.relative_to(project).as_posix() for p in kept] == ["s1.jsonl", "s1/subagents/a.jsonl"]
    assert ClaudeCodeHarness(spec()).native_files(tmp_path / "nothing") == []


# ----------------------------------------------------------------------------- replay mapping
TARGET = Target("/app")


def test_native_tool_arguments() -> None:
    files, shells = TABLES.file_tools, TABLES.shell_tools
    assert files["Read"]["read"](ReadAction(action="read", path="a/b.py"), TARGET) == {
        "file_path": "/app/a/b.py"
    }
    write = WriteAction(action="write", path="/abs/x.txt", content="one\n\ttwo\n")
    assert files["Write"]["write"](write, TARGET) == {
        "file_path": "/abs/x.txt",
        "content": "one\n\ttwo\n",
    }
    edit = EditAction(action="edit", path="x.py", old="a  \n", new="b\n")
    assert files["Edit"]["edit"](edit, TARGET) == {
        "file_path": "/app/x.py",
        "old_string": "a  \n",
        "new_string": "b\n",
    }
    assert shells["Bash"]("ls", 30.0, TARGET) == {"command": "ls", "timeout": 30000}
    assert shells["Bash"]("ls", 3600.0, TARGET)["timeout"] == 600000


@pytest.mark.parametrize(
    "action",
    [
        WriteAction(action="write", path="x.py", content="a = 1  \n"),
        WriteAction(action="write", path="x.py", content="a = 1\t"),
        WriteAction(action="write", path="x.txt", content="crlf\r\n"),
        EditAction(action="edit", path="x.py", old="a", new="b  \nc"),
        EditAction(action="edit", path="x.py", old="a\r\n", new="b\r\n"),
        EditAction(action="edit", path="x.py", old="same", new="same"),
    ],
)
def test_inexact_file_actions_are_declined(action: WriteAction | EditAction) -> None:
    tool = "Write" if isinstance(action, WriteAction) else "Edit"
    with pytest.raises(NotExact):
        TABLES.file_tools[tool][action.action](action, TARGET)


def test_exact_text() -> None:
    assert exact_text("") and exact_text("a\n\n  b\nc") and exact_text("x\n")
    assert not exact_text("a \n") and not exact_text("a\t") and not exact_text("a\r\nb")


def test_inexact_write_falls_back_to_an_exact_bash_command() -> None:
    action = WriteAction(action="write", path="x.py", content="a = 1  \n")
    call = map_action(action, POOL, call_id="call_0003", target=TARGET)
    assert call.name == "Bash" and call.arguments["command"] == shell_equivalent(action)[0]


def test_map_action_prefers_native_tools_in_the_claude_pool() -> None:
    cases: list[tuple[Action, str]] = [
        (ReadAction(action="read", path="a.py"), "Read"),
        (WriteAction(action="write", path="a.py", content="x\n"), "Write"),
        (EditAction(action="edit", path="a.py", old="x", new="y"), "Edit"),
        (ShellAction(action="shell", cmd="ls"), "Bash"),
    ]
    for action, name in cases:
        assert map_action(action, POOL, call_id="c", target=TARGET).name == name
    with pytest.raises(ToolMappingError):
        map_action(ShellAction(action="shell", cmd="ls"), ("Glob", "Grep"), call_id="c")


def test_gui_modes_add_the_gui_mcp_server_and_gui_only_has_no_builtin_tools() -> None:
    harness = ClaudeCodeHarness(spec())
    install = SimpleNamespace(entry=Path("/opt/claude/claude"))
    argv = harness.argv(fake_ctx("hybrid"), install)  # type: ignore[arg-type]
    config = json.loads(argv[argv.index("--mcp-config") + 1])
    assert config["mcpServers"]["gui"]["args"][0] == "/run/realcli/gui/mcp_server.py"
    assert "--mcp-config" not in harness.argv(fake_ctx(), install)  # type: ignore[arg-type]
    enforced, _ = harness.modes(fake_ctx("hybrid"))  # type: ignore[arg-type]
    assert any("gui MCP server" in e for e in enforced)
    argv = harness.argv(fake_ctx("gui_only"), install)  # type: ignore[arg-type]
    assert argv[argv.index("--tools") + 1] == ""  # every built-in tool off
    config = json.loads(argv[argv.index("--mcp-config") + 1])
    assert list(config["mcpServers"]) == ["gui"] and "--strict-mcp-config" in argv
    enforced, not_enforced = harness.modes(fake_ctx("gui_only"))  # type: ignore[arg-type]
    assert enforced[0].startswith("no built-in tools") and any("gui MCP" in e for e in enforced)
    assert not any("Bash" in n for n in not_enforced)


def test_a_resumed_session_continues_the_saved_session_id(tmp_path: Path) -> None:
    harness = ClaudeCodeHarness(spec())
    install = SimpleNamespace(entry=Path("/opt/claude/claude"))
    ctx = fake_ctx()
    assert "--resume" not in harness.argv(ctx, install)  # type: ignore[arg-type]
    (tmp_path / "claude_code").mkdir()
    (tmp_path / "claude_code" / "session_id").write_text("6f1c-session\n")
    ctx.resume, ctx.state_dir = True, tmp_path
    argv = harness.argv(ctx, install)  # type: ignore[arg-type]
    at = argv.index("--resume")
    assert argv[at + 1] == "6f1c-session" and at < argv.index("--")
    assert argv[-1] == "Fix it."  # the new message (feedback, guidance)


def test_gui_mcp_server_gets_time_to_start_and_a_failed_one_is_a_problem(
    ledger: LedgerWriter,
) -> None:
    """On a loaded machine the GUI MCP server once missed Claude Code's default start-up wait:
    the session went on with no tools at all. GUI modes wait longer (``MCP_TIMEOUT``), and an
    init record whose server did not connect is a transcript problem (it shows in fidelity)."""
    harness = ClaudeCodeHarness(spec())
    install = SimpleNamespace(entry=Path("/opt/claude/claude"))
    assert "MCP_TIMEOUT" not in harness.environment(fake_ctx(), install)  # type: ignore[arg-type]
    for mode in ("hybrid", "gui_only"):
        env = harness.environment(fake_ctx(mode), install)  # type: ignore[arg-type]
        assert env["MCP_TIMEOUT"] == "120000"
    transcript = ClaudeCodeTranscript(ledger, Redactor(env={}), "/app")
    servers = [{"name": "gui", "status": "failed", "source": "dynamic"}]
    transcript.feed(
        json.dumps({"type": "system", "subtype": "init", "tools": [], "mcp_servers": servers})
    )
    assert transcript.problems == ["MCP server 'gui': failed"]
