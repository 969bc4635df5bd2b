"""OpenHandsHarness: the harness contract with the real CLI (when installed), and its
parsers, command line and replay tool mapping against recorded output (always).

``recorded/openhands/`` holds the files of a real ``model=replay`` run of
smoke-bugfix-intervals with the OpenHands CLI 1.16.0 (``--json`` stdout, the conversation
folder, the ledger), the first request it sent in ``cli_only`` mode, and the stdout of a run
that gave up on HTTP 500s and of one stopped by ``harness.max_turns=3``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from harness_contract import HarnessContract, NativeKind, NativeToolEvent

from realcli.gateway import ToolMappingError, map_action
from realcli.gateway.toolmap import shell_equivalent
from realcli.gateway.toolsets.base import Target
from realcli.gateway.toolsets.openhands import TABLES, NotExact, terminal_args
from realcli.harness.install import InstallError, agents_dir, find_install
from realcli.harness.openhands import (
    OpenHandsHarness,
    OpenHandsTranscript,
    agent_settings,
    launch_source,
    read_events,
)
from realcli.harness.relay import ModelCallRelay
from realcli.ledger import LedgerWriter, read_ledger
from realcli.schema.actions import (
    GUI_PRIMITIVES,
    Action,
    EditAction,
    ReadAction,
    ShellAction,
    WriteAction,
)
from realcli.schema.events import HeaderEvent, ModelCallEvent
from realcli.schema.run_spec import HarnessSpec
from realcli.util.redact import Redactor

RECORDED = Path(__file__).parent / "recorded" / "openhands"
NATIVE = "openhands"
POOL = ("terminal", "file_editor", "finish", "think")
RESULTS = {"ObservationEvent", "AgentErrorEvent", "UserRejectObservation"}


def conversations(native_dir: Path) -> list[Path]:
    root = native_dir / NATIVE / "home" / ".openhands" / "conversations"
    return sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


# ----------------------------------------------------------------------------- contract
@pytest.mark.sandbox
class TestOpenHandsHarnessContract(HarnessContract):
    harness_overrides = ("harness=openhands",)
    tool_pool = frozenset(POOL)
    # The CLI spends about 10 s importing (litellm alone takes 5-8 s of CPU on a busy 2-core
    # machine) before its first model call: the contract's 3 s would kill it before the
    # sleeping shell call exists.
    agent_timeout_s = 30.0

    @classmethod
    def skip_reason(cls) -> str | None:
        try:
            find_install("openhands", agents_dir())
        except InstallError:
            return "OpenHands is not installed: realcli agents install openhands"
        return None

    @classmethod
    def native_tool_events(cls, native_dir: Path) -> list[NativeToolEvent]:
        events: list[NativeToolEvent] = []
        for conversation in conversations(native_dir):
            for event in read_events(conversation):
                kind: NativeKind | None = None
                if event.get("kind") == "ActionEvent":
                    kind = "call"
                elif event.get("kind") in RESULTS and event.get("tool_call_id"):
                    kind = "result"
                if kind is not None:
                    events.append(NativeToolEvent(kind, str(event["tool_call_id"])))
        return events

    @classmethod
    def native_tool_pool(cls, native_dir: Path) -> set[str] | None:
        for conversation in conversations(native_dir):
            for event in read_events(conversation):
                if event.get("kind") == "SystemPromptEvent":
                    return {str(t.get("title")) for t in event.get("tools") or []}
        return None


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
) -> tuple[OpenHandsTranscript, list[dict[str, Any]]]:
    """Feed a recorded stdout; ``calls`` reach the relay as the gateway would report them
    (each just before the first stdout line of its reply)."""
    relay = ModelCallRelay() if calls is not None else None
    pending = list(calls or [])
    seen: set[Any] = set()
    transcript = OpenHandsTranscript(ledger, Redactor(env={}), "/app", relay)
    for line in lines(name):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        reply_id = record.get("llm_response_id") if isinstance(record, dict) else None
        if relay is not None and reply_id and reply_id not in seen:
            seen.add(reply_id)
            relay(pending.pop(0))
        transcript.feed(line + "\n")
    transcript.flush_model_calls()
    ledger.close()
    events = [e.model_dump(mode="json") for e in read_ledger(ledger.path).events]
    return transcript, events


def shape(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The agent-order skeleton of a ledger: kinds with call ids / texts."""
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
    assert transcript.problems == [] and transcript.errors == []
    assert transcript.noise > 0  # the CLI's human lines ("Agent is working", the summary box)
    assert shape(events) == shape(recorded)
    assert transcript.turns == 17 and len(transcript.call_ids) == 16
    tool_calls = [e for e in events if e["kind"] == "tool_call"]
    assert [(c["name"], c["raw_name"]) for c in tool_calls[:2]] == [
        ("shell", "terminal"),
        ("read_file", "file_editor"),
    ]
    assert tool_calls[1]["args"] == {
        "command": "view",
        "path": "/app/intervals/core.py",
        "security_risk": "LOW",
    }
    assert {c["atomic_op"] for c in tool_calls} == {"exec: shell", "fs: read", "fs: edit"}
    results = {e["call_id"]: e for e in events if e["kind"] == "tool_result"}
    assert results["call_0000"]["exit_code"] == 0 and results["call_0001"]["exit_code"] is None
    assert results["call_0006"]["touched_files"] == ["intervals/core.py"]
    assert results["call_0001"]["touched_files"] == []
    assert all(r["ok"] for r in results.values())
    assert all(r["duration_ms"] > 0 for r in results.values())
    assert OpenHandsHarness(spec()).ending(transcript, 0) == ("done", "")


def test_recorded_conversation_matches_the_gateway(tmp_path: Path) -> None:
    native = tmp_path / "native" / NATIVE
    conversation = native / "home" / ".openhands" / "conversations" / "abc"
    kept = []
    for src in sorted((RECORDED / "replay-conversation").rglob("*.json")):
        dest = conversation / src.relative_to(RECORDED / "replay-conversation")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(src.read_bytes())
        kept.append(dest)
    ctx = SimpleNamespace(native_dir=tmp_path / "native", session_no=1)
    transcript = OpenHandsTranscript(None, Redactor(env={}), "/app")  # type: ignore[arg-type]
    session = OpenHandsHarness(spec()).native_session(ctx, kept, transcript)  # type: ignore[arg-type]
    assert session is not None and session.problems == ()
    (fidelity,) = [e for e in recorded_ledger() if e["kind"] == "fidelity"]
    assert (session.model_calls, session.tokens_in, session.tokens_out) == (
        fidelity["gateway_calls"],
        fidelity["gateway_tokens_in"],
        fidelity["gateway_tokens_out"],
    )
    ledger_ids = [e["call_id"] for e in recorded_ledger() if e["kind"] == "tool_call"]
    assert list(session.tool_call_ids) == ledger_ids
    assert session.source == "native/openhands/home/.openhands/conversations/abc"
    assert transcript.status == "finished"
    native_events = TestOpenHandsHarnessContract.native_tool_events(tmp_path / "native")
    assert [(e.kind, e.call_id) for e in native_events] == [
        ("call" if e["kind"] == "tool_call" else "result", e["call_id"])
        for e in recorded_ledger()
        if e["kind"] in ("tool_call", "tool_result")
    ]
    assert TestOpenHandsHarnessContract.native_tool_pool(tmp_path / "native") == set(POOL)


def test_a_killed_run_has_no_final_totals(tmp_path: Path) -> None:
    conversation = tmp_path / "native" / NATIVE / "home" / ".openhands" / "conversations" / "c"
    (conversation / "events").mkdir(parents=True)
    state = json.loads((RECORDED / "replay-conversation" / "base_state.json").read_text())
    (conversation / "base_state.json").write_text(
        json.dumps({**state, "execution_status": "running"})
    )
    ctx = SimpleNamespace(native_dir=tmp_path / "native", session_no=1)
    transcript = OpenHandsTranscript(None, Redactor(env={}), "/app")  # type: ignore[arg-type]
    harness = OpenHandsHarness(spec())
    session = harness.native_session(ctx, [conversation / "base_state.json"], transcript)  # type: ignore[arg-type]
    assert session is not None and session.model_calls is None and session.tokens_in is None
    assert session.problems and "did not end" in session.problems[0]
    assert transcript.status == "running"
    nothing = harness.native_session(ctx, [], transcript)  # type: ignore[arg-type]
    assert nothing is not None and nothing.source == "native/openhands/stdout.jsonl"
    assert nothing.problems == ("no conversation folder (base_state.json) was written",)


def test_recorded_request_offers_the_cli_only_pool() -> None:
    body = json.loads((RECORDED / "request.json").read_text(encoding="utf-8"))
    assert [t["function"]["name"] for t in body["tools"]] == list(POOL)
    assert "stream" not in body and body["model"] == "realcli/replay"
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in body["tools"]}
    assert "security_risk" in schemas["terminal"]["required"]
    assert "security_risk" in schemas["file_editor"]["required"]
    target = Target("/app", {n: {"parameters": p} for n, p in schemas.items()})
    assert "security_risk" in target.params("terminal")


def test_api_error_ends_as_error(ledger: LedgerWriter) -> None:
    transcript, events = transcribe(ledger, "api-error-stdout.jsonl")
    assert transcript.turns == 0 and transcript.problems == []
    assert [e for e in events if e["kind"] == "message"] == []
    reason, detail = OpenHandsHarness(spec()).ending(transcript, 0)
    assert reason == "error"
    assert detail.startswith("LLMServiceUnavailableError: litellm.InternalServerError")


def test_max_turns_ends_as_max_turns(ledger: LedgerWriter) -> None:
    transcript, events = transcribe(ledger, "max-turns-stdout.jsonl")
    assert transcript.turns == 3 and len(transcript.call_ids) == 3
    assert [e["kind"] for e in events].count("tool_result") == 3
    reason, detail = OpenHandsHarness(spec()).ending(transcript, 0)
    assert (reason, detail) == ("max_turns", "Agent reached maximum iterations limit (3).")


def test_endings_without_events(ledger: LedgerWriter) -> None:
    harness = OpenHandsHarness(spec())
    transcript = OpenHandsTranscript(ledger, Redactor(env={}), "/app")
    for line in lines("replay-stdout.jsonl")[:10]:
        transcript.feed(line)
    transcript.feed('{"kind": "ActionEvent"}')  # no tool_call_id
    transcript.feed('{"kind": "Condensation", "forgotten_event_ids": []}')
    assert len(transcript.problems) == 1 and transcript.ignored == {"Condensation": 1}
    assert harness.ending(transcript, None) == (None, "")  # killed
    assert harness.ending(transcript, 1) == (None, "")  # crashed
    assert harness.ending(transcript, 0) == ("done", "")  # no base_state.json: the events
    transcript.status = "stuck"
    assert harness.ending(transcript, 0)[0] == "done"
    transcript.status = "running"
    assert harness.ending(transcript, 0) == (None, "")
    empty = OpenHandsTranscript(ledger, Redactor(env={}), "/app")
    empty.feed("Headless mode requires existing settings.")
    assert harness.ending(empty, 0) == (None, "")


def test_finish_think_failures_and_parallel_calls(ledger: LedgerWriter) -> None:
    transcript = OpenHandsTranscript(ledger, Redactor(env={}), "/app")

    def action(call_id: str, name: str, args: dict[str, Any], reply: str, **extra: Any) -> None:
        call = {"id": call_id, "name": name, "arguments": json.dumps(args)}
        transcript.on_record(
            {
                "kind": "ActionEvent",
                "source": "agent",
                "tool_call_id": call_id,
                "tool_name": name,
                "tool_call": call,
                "llm_response_id": reply,
                "timestamp": "2026-01-01T00:00:00",
                **extra,
            }
        )

    def observation(call_id: str, text: str, **obs: Any) -> None:
        transcript.on_record(
            {
                "kind": "ObservationEvent",
                "tool_call_id": call_id,
                "timestamp": "2026-01-01T00:00:01.5",
                "observation": {"content": [{"type": "text", "text": text}], **obs},
            }
        )

    thought = [{"type": "text", "text": "Two at once."}]
    action("a", "file_editor", {"command": "create", "path": "/app/n.py"}, "r1", thought=thought)
    action("b", "terminal", {"command": "exit 3"}, "r1")
    observation("a", "File created", is_error=False)
    observation("b", "terminal session was reset", is_error=True, exit_code=-1)
    action("c", "task_tracker", {"command": "view"}, "r2")
    transcript.on_record(
        {"kind": "AgentErrorEvent", "tool_call_id": "c", "error": "Tool 'task_tracker' not found"}
    )
    action("d", "think", {"thought": "hm"}, "r3")
    observation("d", "Your thought has been logged.")
    action("e", "finish", {"message": "All done."}, "r4", action={"message": "All done."})
    observation("e", "All done.")
    ledger.close()
    events = [e.model_dump(mode="json") for e in read_ledger(ledger.path).events]
    assert [(e["kind"], e.get("call_id") or e.get("text")) for e in events] == [
        ("message", "Two at once."),
        ("tool_call", "a"),
        ("tool_call", "b"),
        ("tool_result", "a"),
        ("tool_result", "b"),
        ("tool_call", "c"),
        ("tool_result", "c"),
        ("tool_call", "d"),
        ("tool_result", "d"),
        ("tool_call", "e"),
        ("message", "All done."),
        ("tool_result", "e"),
    ]
    calls = {e["call_id"]: e for e in events if e["kind"] == "tool_call"}
    assert calls["a"]["name"] == "write_file" and calls["a"]["atomic_op"] == "fs: write"
    assert calls["e"]["atomic_op"] == "other: finish"
    results = {e["call_id"]: e for e in events if e["kind"] == "tool_result"}
    assert (results["a"]["ok"], results["a"]["touched_files"]) == (True, ["n.py"])
    assert (results["b"]["ok"], results["b"]["exit_code"]) == (False, -1)
    assert results["c"]["ok"] is False and results["d"]["ok"] is True
    assert results["a"]["duration_ms"] == 1500.0
    assert transcript.turns == 4 and transcript.finished


# ----------------------------------------------------------------------------- command line
def spec(**options: Any) -> HarnessSpec:
    return HarnessSpec(
        name="openhands",
        kind="openhands",
        version="1.16.0",
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
        workdir="/app",
    )


def test_argv_environment_and_home(tmp_path: Path) -> None:
    harness = OpenHandsHarness(spec())
    install = SimpleNamespace(root=Path("/opt/oh"), entry=Path("/opt/oh/bin/openhands"))
    argv = harness.argv(fake_ctx(), install)  # type: ignore[arg-type]
    assert argv[:4] == [
        "/opt/oh/bin/python",
        "-u",
        "-I",
        "/run/realcli/home/.realcli/openhands_launch.py",
    ]
    assert argv[argv.index("--max-iterations") + 1] == "7"
    assert argv[argv.index("--instruction-file") + 1] == "/run/realcli/task/instruction.md"
    assert argv[-3:] == ["--", "--headless", "--json"]
    env = harness.environment(fake_ctx(), install)  # type: ignore[arg-type]
    assert env["OPENHANDS_WORK_DIR"] == "/app" and env["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"
    assert "PATH" not in env  # the sandbox's: the task's python/pytest, not OpenHands's
    harness.prepare_home(fake_ctx(), tmp_path, install)  # type: ignore[arg-type]
    settings = json.loads((tmp_path / ".openhands" / "agent_settings.json").read_text())
    assert settings["llm"]["model"] == "openai/realcli/model"
    assert settings["llm"]["base_url"] == "http://127.0.0.1:8765/v1"
    assert settings["llm"]["max_message_chars"] == 9000 and settings["llm"]["num_retries"] == 2
    assert settings["filter_tools_regex"] == "^(terminal|file_editor)$"
    assert settings["include_default_tools"] == ["FinishTool", "ThinkTool"]
    assert settings["condenser"] is None
    launcher = (tmp_path / ".realcli" / "openhands_launch.py").read_text()
    assert launcher == launch_source() and "max_iteration_per_run" in launcher
    compile(launcher, "openhands_launch.py", "exec")
    assert (tmp_path / ".openhands" / "conversations").is_dir()


def test_options_and_modes_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown key"):
        OpenHandsHarness(spec(colour="red")).tools()
    harness = OpenHandsHarness(spec(tools="terminal", builtin_tools=[], num_retries=5))
    assert harness.tools() == ("terminal",) and harness.builtin_tools() == ()
    settings = harness.settings(fake_ctx())  # type: ignore[arg-type]
    assert settings["filter_tools_regex"] == "^(terminal)$"
    assert settings["include_default_tools"] == [] and settings["llm"]["num_retries"] == 5
    extra = {"llm": {"temperature": 0.0}, "tool_concurrency_limit": 2}
    merged = OpenHandsHarness(spec(agent=extra, condenser=True)).settings(fake_ctx())  # type: ignore[arg-type]
    assert merged["llm"]["temperature"] == 0.0 and merged["llm"]["api_key"] == "realcli-gateway"
    assert merged["tool_concurrency_limit"] == 2
    assert merged["condenser"]["kind"] == "LLMSummarizingCondenser"
    with pytest.raises(ValueError, match="agent: Input should be a valid dictionary"):
        OpenHandsHarness(spec(agent=[1])).settings(fake_ctx())  # type: ignore[arg-type]
    enforced, not_enforced = OpenHandsHarness(spec()).modes(fake_ctx())
    assert enforced and not_enforced
    with pytest.raises(ValueError, match="gui_only"):
        OpenHandsHarness(spec()).modes(fake_ctx("other"))


GUI = GUI_PRIMITIVES


@pytest.mark.parametrize("mode", ["cli_only", "hybrid", "gui_only"])
def test_every_mode_has_its_tool_filter_mcp_servers_and_mode_lines(
    tmp_path: Path, mode: str
) -> None:
    """hybrid: terminal + file_editor + the GUI MCP server's tools (renamed gui_<tool>);
    gui_only: the GUI tools only (no terminal, no file_editor); cli_only: no mcp.json."""
    harness = OpenHandsHarness(spec())
    install = SimpleNamespace(root=Path("/opt/oh"), entry=Path("/opt/oh/bin/openhands"))
    harness.prepare_home(fake_ctx(mode), tmp_path, install)  # type: ignore[arg-type]
    settings = json.loads((tmp_path / ".openhands" / "agent_settings.json").read_text())
    pattern = re.compile(settings["filter_tools_regex"])
    cli = {"terminal", "file_editor"} if mode != "gui_only" else set()
    gui = {f"gui_{t}" for t in GUI} if mode != "cli_only" else set()
    candidates = {
        "terminal",
        "file_editor",
        "task_tracker",
        "task",
        *GUI,
        *(f"gui_{t}" for t in GUI),
    }
    assert {t for t in candidates if pattern.match(t)} == cli | gui
    mcp = tmp_path / ".openhands" / "mcp.json"
    enforced, not_enforced = harness.modes(fake_ctx(mode))  # type: ignore[arg-type]
    if mode == "cli_only":
        assert not mcp.exists() and any("no MCP servers" in e for e in enforced)
        return
    (server,) = json.loads(mcp.read_text())["mcpServers"].values()
    assert server["args"][:3] == ["/run/realcli/gui/mcp_server.py", "--transport", "stdio"]
    assert {t: c["name"] for t, c in server["tools"].items()} == {t: f"gui_{t}" for t in GUI}
    assert any("gui MCP server" in e for e in enforced)
    shell = any("terminal runs any program" in n for n in not_enforced)
    assert shell == (mode == "hybrid")
    assert ("no terminal, no file_editor" in enforced[0]) == (mode == "gui_only")


def test_agent_settings_defaults() -> None:
    settings = agent_settings(base_url="http://x/v1", model="m", output_limit=16000)
    assert settings["kind"] == "Agent" and settings["tools"] == []
    assert settings["llm"]["stream"] is False and settings["system_prompt_kwargs"]["cli_mode"]


def test_native_files_are_the_conversation(tmp_path: Path) -> None:
    conversation = tmp_path / ".openhands" / "conversations" / "c1"
    (conversation / "events").mkdir(parents=True)
    (conversation / "observations").mkdir()
    (conversation / "base_state.json").write_text("{}")
    (conversation / "events" / "event-00000-a.json").write_text("{}")
    (conversation / "events" / ".eventlog.lock").write_text("")
    (conversation / "observations" / "out.txt").write_text("x")
    (tmp_path / ".openhands" / "agent_settings.json").write_text("{}")
    (tmp_path / ".openhands" / "cache").mkdir()
    (tmp_path / ".openhands" / "cache" / "x.cache").write_text("")
    kept = OpenHandsHarness(spec()).native_files(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in kept] == [
        ".openhands/conversations/c1/base_state.json",
        ".openhands/conversations/c1/events/event-00000-a.json",
        ".openhands/conversations/c1/observations/out.txt",
        ".openhands/agent_settings.json",
    ]
    assert OpenHandsHarness(spec()).native_files(tmp_path / "nothing") == []


def test_read_events_orders_by_number(tmp_path: Path) -> None:
    (tmp_path / "events").mkdir()
    for n in (10, 2, 1):
        (tmp_path / "events" / f"event-{n:05d}-x{n}.json").write_text(json.dumps({"n": n}))
    (tmp_path / "events" / "other.json").write_text("{}")
    assert [e["n"] for e in read_events(tmp_path)] == [1, 2, 10]


# ----------------------------------------------------------------------------- replay mapping
TARGET = Target("/app")


def test_native_tool_arguments() -> None:
    files = TABLES.file_tools["file_editor"]
    assert files["read"](ReadAction(action="read", path="a/b.py"), TARGET) == {
        "command": "view",
        "path": "/app/a/b.py",
        "security_risk": "LOW",
    }
    edit = EditAction(action="edit", path="/abs/x.py", old="a  \n", new="b\t\n")
    assert files["edit"](edit, TARGET) == {
        "command": "str_replace",
        "path": "/abs/x.py",
        "old_str": "a  \n",
        "new_str": "b\t\n",
        "security_risk": "LOW",
    }
    assert "write" not in files and TABLES.shell_tools == {}
    assert terminal_args("ls", 30, TARGET) == {
        "command": "ls",
        "timeout": 30.0,
        "security_risk": "LOW",
    }
    assert terminal_args("ls", 3600.0, TARGET)["timeout"] == 3600.0


@pytest.mark.parametrize(
    "action",
    [
        EditAction(action="edit", path="x.py", old="a\r\n", new="b\n"),
        EditAction(action="edit", path="x.py", old="a", new="b\r"),
    ],
)
def test_inexact_edits_are_declined(action: EditAction) -> None:
    with pytest.raises(NotExact):
        TABLES.file_tools["file_editor"]["edit"](action, TARGET)


def openhands_target() -> Target:
    body = json.loads((RECORDED / "request.json").read_text(encoding="utf-8"))
    return Target("/app", {t["function"]["name"]: t["function"] for t in body["tools"]})


def test_map_action_prefers_file_editor_in_the_openhands_pool() -> None:
    target = openhands_target()
    read = map_action(ReadAction(action="read", path="a.py"), POOL, call_id="c", target=target)
    assert (read.name, read.arguments["command"]) == ("file_editor", "view")
    edit = EditAction(action="edit", path="a.py", old="x", new="y")
    call = map_action(edit, POOL, call_id="c", target=target)
    assert (call.name, call.arguments["command"]) == ("file_editor", "str_replace")
    with pytest.raises(ToolMappingError):
        map_action(ShellAction(action="shell", cmd="ls"), ("finish", "think"), call_id="c")


def test_shell_write_and_inexact_edits_go_through_openhands_terminal() -> None:
    target = openhands_target()
    cases: list[Action] = [
        ShellAction(action="shell", cmd="ls", timeout_s=45),
        WriteAction(action="write", path="a.py", content="x\n"),
        EditAction(action="edit", path="a.py", old="x\r\n", new="y\r\n"),
    ]
    for action in cases:
        call = map_action(action, POOL, call_id="c", target=target)
        cmd, timeout_s = shell_equivalent(action)
        assert call.name == "terminal"
        assert call.arguments == terminal_args(cmd, timeout_s, target)
