"""CodexHarness: the harness contract with the real CLI (when installed), and its tap,
transcript, command line, config and replay tool mapping against recorded output (always).

``recorded/codex/`` holds the files of real runs with Codex CLI 0.171.0 (the tap's stdout
stream, which carries every rollout record, and the ledger): a ``model=replay`` run of
smoke-bugfix-intervals; a scripted session with apply_patch (added, failed verification),
a failing command, unparsable arguments, a command polled with write_stdin and two calls in
one reply (``tools``); a gateway answering 500 (``api-error``); a run stopped at
``max_turns=2``; a "code mode" model (``catalog_model: gpt-6.2-sol``) whose JavaScript
``exec`` ran a command and a patch (``code-mode``); and the first request Codex sent.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from harness_contract import HarnessContract, NativeKind, NativeToolEvent
from harness_helpers import Session
from harness_scenarios import SMOKE_TASK

from realcli.catalog import load_task
from realcli.gateway import map_action
from realcli.gateway.backends import Backend, BackendError
from realcli.gateway.toolmap import shell_equivalent
from realcli.gateway.toolsets.base import Target
from realcli.gateway.toolsets.codex import MAX_YIELD_MS, TABLES
from realcli.gateway.wire import ChatReply, ChatRequest
from realcli.harness.cli_agent import HOME_MOUNT, INSTRUCTION
from realcli.harness.codex import (
    CATALOG_FILE,
    CODEX_DIR,
    KEY_ENV,
    TAP_FILE,
    CodexHarness,
    CodexTranscript,
    read_rollout,
    tap_source,
    toml_dumps,
)
from realcli.harness.install import InstallError, agents_dir, find_install
from realcli.harness.relay import ModelCallRelay
from realcli.ledger import LedgerWriter, read_ledger
from realcli.runner.execute import execute_run
from realcli.sandbox import sandbox_python
from realcli.schema.actions import Action, EditAction, ReadAction, ShellAction, WriteAction
from realcli.schema.events import HeaderEvent, ModelCallEvent
from realcli.schema.run_spec import HarnessSpec, RunSpec
from realcli.util.redact import Redactor
from tests.conftest import TASKS, compose_spec

RECORDED = Path(__file__).parent / "recorded" / "codex"
NATIVE = "codex"
POOL = ("apply_patch", "exec_command", "view_image", "write_stdin")
MODEL_ITEMS = ("function_call", "custom_tool_call")
OUTPUT_ITEMS = ("function_call_output", "custom_tool_call_output")


def installed() -> bool:
    try:
        find_install("codex", agents_dir())
    except InstallError:
        return False
    return True


def spec(**fields: Any) -> HarnessSpec:
    return HarnessSpec(**{"name": "codex", "kind": "codex", "version": "0.171.0", **fields})


def rollout_records(native_dir: Path) -> list[dict[str, Any]]:
    sessions = native_dir / NATIVE / "home" / CODEX_DIR / "sessions"
    return [r for path in sorted(sessions.rglob("rollout-*.jsonl")) for r in read_rollout(path)]


# ----------------------------------------------------------------------------- contract
@pytest.mark.sandbox
class TestCodexHarnessContract(HarnessContract):
    harness_overrides = ("harness=codex",)
    # every smoke task is replayed by this harness in tests/runner/test_harness_sweep.py;
    # the contract replays one (its sweep run checks the others)
    replay_tasks = (SMOKE_TASK,)
    tool_pool = frozenset(POOL)
    records_tool_pool = False  # the rollout does not list the tools offered

    @classmethod
    def skip_reason(cls) -> str | None:
        return None if installed() else "Codex is not installed: realcli agents install codex"

    @classmethod
    def native_tool_events(cls, native_dir: Path) -> list[NativeToolEvent]:
        """The rollout's tool calls and their outputs, in file order."""
        events: list[NativeToolEvent] = []
        for record in rollout_records(native_dir):
            payload = record.get("payload") or {}
            if record.get("type") != "response_item":
                continue
            kind: NativeKind
            if payload.get("type") in MODEL_ITEMS:
                kind = "call"
            elif payload.get("type") in OUTPUT_ITEMS:
                kind = "result"
            else:
                continue
            events.append(NativeToolEvent(kind, str(payload["call_id"])))
        return events


# ----------------------------------------------------------------------------- real CLI extras
class _Failing(Backend):
    name = "failing"

    def respond(self, request: ChatRequest) -> ChatReply:
        raise BackendError("upstream is down")


@pytest.mark.sandbox
@pytest.mark.skipif(not installed(), reason="Codex is not installed")
def test_real_cli_gives_up_on_http_500(run_session: Any) -> None:
    session: Session = run_session(_Failing(), harness=CodexHarness(spec()), timeout_s=120)
    assert session.outcome.reason == "error", session.outcome
    assert [e.status for e in session.of("model_call")] == [500] * 4  # max_retries: 1
    assert [e.error_type.value for e in session.of("error")] == ["gateway_error"]


@pytest.mark.sandbox
@pytest.mark.skipif(not installed(), reason="Codex is not installed")
def test_real_cli_stops_at_max_turns(run_session: Any) -> None:
    actions = [
        {"action": "shell", "cmd": "command -v python; echo $CODEX_HOME"},
        {"action": "shell", "cmd": "echo two"},
        {"action": "shell", "cmd": "echo three"},
        {"action": "message", "text": "never said"},
    ]
    session: Session = run_session(actions, harness=CodexHarness(spec(max_turns=2)))
    assert session.outcome.reason == "max_turns", session.outcome
    assert session.outcome.turns == 2 == len(session.of("model_call"))
    first = session.of("tool_result")[0].output_excerpt
    assert f"{sandbox_python()}\n" in first and f"{HOME_MOUNT}/{CODEX_DIR}" in first
    assert [m.text for m in session.of("message") if m.role == "assistant"] == []
    native = session.outcome.native
    assert native is not None and native.model_calls == 2 and not native.problems


# ----------------------------------------------------------------------------- recorded
def lines(name: str) -> list[str]:
    return (RECORDED / name).read_text(encoding="utf-8").splitlines()


def recorded_ledger(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines(name)]


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


def _opens_a_response(record: dict[str, Any]) -> bool:
    rollout = record.get("record") if record.get("type") == "rollout" else None
    if not isinstance(rollout, dict):
        return False
    payload = rollout.get("payload") or {}
    if rollout.get("type") == "token_usage_record":
        return True
    return rollout.get("type") == "response_item" and (
        payload.get("type") in MODEL_ITEMS
        or (payload.get("type") == "message" and payload.get("role") == "assistant")
    )


def transcribe(ledger: LedgerWriter, run: str) -> tuple[CodexTranscript, list[dict[str, Any]]]:
    """Feed ``<run>-stdout.jsonl``; the model calls of ``<run>-ledger.jsonl`` reach the relay
    as the gateway reported them: each answered call (and the failed ones before it) just
    before the first rollout record of its reply, the rest before the tap's last line."""
    calls = [
        ModelCallEvent.model_validate({**e, "seq": 0})
        for e in recorded_ledger(f"{run}-ledger.jsonl")
        if e["kind"] == "model_call"
    ]
    relay = ModelCallRelay()
    transcript = CodexTranscript(ledger, Redactor(env={}), "/app", relay)
    released = False
    for line in lines(f"{run}-stdout.jsonl"):
        record = json.loads(line)
        if _opens_a_response(record) and not released:
            while calls:
                call = calls.pop(0)
                relay(call)
                if call.status == 200:
                    break
            released = True
        rollout = record.get("record") or {}
        if record["type"] == "rollout" and rollout.get("type") == "token_usage_record":
            released = False
        if record["type"] == "tap_end":
            for call in calls:
                relay(call)
        transcript.feed(line + "\n")
    transcript.flush_model_calls()
    ledger.close()
    events = [e.model_dump(mode="json") for e in read_ledger(ledger.path).events]
    return transcript, events


def shape(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The agent-order skeleton of a ledger: kinds with call ids / statuses / texts."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        if e["kind"] == "model_call":
            out.append(("model_call", e["status"], tuple(e["tool_call_ids"])))
        elif e["kind"] in ("tool_call", "tool_result"):
            out.append((e["kind"], e["call_id"]))
        elif e["kind"] == "message":
            out.append(("message", e["role"], e["text"]))
    return out


def native_of(transcript: CodexTranscript, run: str, tmp_path: Path) -> Any:
    """The adapter's NativeSession of a rollout rebuilt from the recorded stream (the stream
    carries every rollout record)."""
    native_dir = tmp_path / "run" / "native"
    sessions = native_dir / NATIVE / "home" / CODEX_DIR / "sessions" / "2026"
    sessions.mkdir(parents=True)
    records = [json.loads(line) for line in lines(f"{run}-stdout.jsonl")]
    rollout = [json.dumps(r["record"]) for r in records if r["type"] == "rollout"]
    path = sessions / "rollout-x.jsonl"
    path.write_text("\n".join(rollout) + "\n", encoding="utf-8")
    ctx = SimpleNamespace(native_dir=native_dir, session_no=1)
    return CodexHarness(spec()).native_session(ctx, [path], transcript)  # type: ignore[arg-type]


def test_recorded_replay_gives_the_recorded_ledger_in_agent_order(
    ledger: LedgerWriter, tmp_path: Path
) -> None:
    transcript, events = transcribe(ledger, "replay")
    recorded = recorded_ledger("replay-ledger.jsonl")
    assert transcript.problems == [] and transcript.noise == 0
    assert shape(events) == shape(recorded)[1:]  # the harness itself writes the instruction
    assert transcript.turns == 17 and len(transcript.call_ids) == 16
    assert transcript.catalog == {"type": "catalog", "model": "realcli/replay", "base": "gpt-5.5"}
    calls = [e for e in events if e["kind"] == "tool_call"]
    assert {(c["name"], c["raw_name"], c["atomic_op"]) for c in calls} == {
        ("shell", "exec_command", "exec: shell")
    }
    assert calls[0]["args"] == {
        "cmd": "ls -R --ignore=__pycache__ && cat README.md",
        "yield_time_ms": MAX_YIELD_MS,
    }
    results = {e["call_id"]: e for e in events if e["kind"] == "tool_result"}
    assert all(r["ok"] and r["exit_code"] == 0 for r in results.values())
    assert results["call_0004"]["duration_ms"] > 100  # the baseline pytest run
    assert CodexHarness(spec()).ending(transcript, 0) == ("done", "")
    (fidelity,) = [e for e in recorded if e["kind"] == "fidelity"]
    assert fidelity["ok"] is True
    native = native_of(transcript, "replay", tmp_path)
    assert (native.model_calls, native.tokens_in, native.tokens_out) == (
        fidelity["gateway_calls"],
        fidelity["gateway_tokens_in"],
        fidelity["gateway_tokens_out"],
    )
    assert list(native.tool_call_ids) == [c["call_id"] for c in calls] and not native.problems
    assert native.source.startswith("native/codex/home/.codex/sessions/")


def test_recorded_stream_trims_the_base_instructions() -> None:
    meta = [
        json.loads(line)["record"]
        for line in lines("replay-stdout.jsonl")
        if '"session_meta"' in line[:200]
    ]
    assert len(meta) == 1
    text = meta[0]["payload"]["base_instructions"]["text"]
    assert text.startswith("[") and text.endswith("characters: see the rollout]")


def test_recorded_first_request_offers_the_pool() -> None:
    request = json.loads((RECORDED / "request.json").read_text(encoding="utf-8"))["body"]
    assert sorted(t["name"] for t in request["tools"]) == list(POOL)
    assert request["stream"] is True and "previous_response_id" not in request
    assert request["input"][0]["role"] == "developer"


def test_recorded_tool_formats(ledger: LedgerWriter, tmp_path: Path) -> None:
    transcript, events = transcribe(ledger, "tools")
    assert shape(events) == shape(recorded_ledger("tools-ledger.jsonl"))[1:]
    assert transcript.problems == []
    calls = [(e["call_id"], e["name"], e["atomic_op"]) for e in events if e["kind"] == "tool_call"]
    assert calls == [
        ("call_0000", "apply_patch", "fs: patch"),
        ("call_0001", "apply_patch", "fs: patch"),
        ("call_0002", "shell", "exec: shell"),
        ("call_0003", "shell", "exec: shell"),
        ("call_0004", "shell", "exec: shell"),
        ("call_0005", "write_stdin", "exec: stdin"),
        ("call_0006", "shell", "exec: shell"),
        ("call_0007", "shell", "exec: shell"),
    ]
    results = [
        (e["call_id"], e["ok"], e["exit_code"], tuple(e["touched_files"]))
        for e in events
        if e["kind"] == "tool_result"
    ]
    assert results == [
        ("call_0000", True, 0, ("notes.txt",)),  # *** Add File
        ("call_0001", False, None, ()),  # apply_patch verification failed
        ("call_0002", False, 3, ()),  # exit 3
        ("call_0003", False, None, ()),  # failed to parse function arguments
        ("call_0004", True, None, ()),  # still running after yield_time_ms
        ("call_0005", True, 0, ()),  # polled to its end
        ("call_0006", True, 0, ()),
        ("call_0007", True, 0, ()),
    ]
    kinds = [e["kind"] for e in events]
    two = next(i for i, e in enumerate(events) if e.get("text") == "Two at once.")
    assert kinds[two - 1 : two + 5] == [
        "model_call",
        "message",
        "tool_call",
        "tool_call",
        "tool_result",
        "tool_result",
    ]
    said = [e["text"] for e in events if e["kind"] == "message"]
    assert said == ["Add notes.", "Two at once.", "Finished."]
    assert CodexHarness(spec()).ending(transcript, 0) == ("done", "")
    native = native_of(transcript, "tools", tmp_path)
    assert native.tool_call_ids == tuple(c for c, _, _ in calls) and native.model_calls == 8


def test_recorded_api_error_ends_as_error(ledger: LedgerWriter, tmp_path: Path) -> None:
    transcript, events = transcribe(ledger, "api-error")
    assert [e["status"] for e in events if e["kind"] == "model_call"] == [500] * 4
    assert transcript.turns == 0 and [e for e in events if e["kind"] == "message"] == []
    assert transcript.errors[0].startswith("Reconnecting... 1/1")
    reason, detail = CodexHarness(spec()).ending(transcript, 1)
    assert reason == "error" and "high demand" in detail
    native = native_of(transcript, "api-error", tmp_path)
    assert (native.model_calls, native.tokens_in, native.tool_call_ids) == (0, 0, ())


def test_recorded_max_turns(ledger: LedgerWriter, tmp_path: Path) -> None:
    transcript, events = transcribe(ledger, "max-turns")
    assert shape(events) == shape(recorded_ledger("max-turns-ledger.jsonl"))[1:]
    assert transcript.turns == 2 and transcript.session_end is not None
    assert transcript.session_end["max_turns"] is True
    assert transcript.session_end["exit_code"] == -15  # the tap's SIGTERM
    assert CodexHarness(spec(max_turns=2)).ending(transcript, 143) == (
        "max_turns",
        "stopped after 2 model responses",
    )
    native = native_of(transcript, "max-turns", tmp_path)
    assert native.model_calls == 2 and native.tool_call_ids == ("call_0000", "call_0001")


def test_recorded_code_mode_records_the_nested_calls(ledger: LedgerWriter, tmp_path: Path) -> None:
    transcript, events = transcribe(ledger, "code-mode")
    assert shape(events) == shape(recorded_ledger("code-mode-ledger.jsonl"))[1:]
    assert transcript.catalog is not None and transcript.catalog["base"] == "gpt-6.2-sol"
    calls = [e for e in events if e["kind"] == "tool_call"]
    assert [(c["name"], c["atomic_op"]) for c in calls] == [
        ("exec", "exec: code"),
        ("shell", "exec: shell"),
        ("apply_patch", "fs: patch"),
    ]
    assert calls[0]["call_id"] == "call_0000"
    assert all(c["call_id"].startswith("exec-") for c in calls[1:])
    assert calls[1]["args"] == {"cmd": "echo hi > x.txt && cat x.txt"}
    results = [e for e in events if e["kind"] == "tool_result"]
    assert [r["call_id"] for r in results] == [c["call_id"] for c in calls[1:]] + ["call_0000"]
    assert results[1]["touched_files"] == ["y.txt"]
    native = native_of(transcript, "code-mode", tmp_path)
    assert native.tool_call_ids == tuple(c["call_id"] for c in calls)


def test_no_tap_end_is_a_crash(ledger: LedgerWriter, tmp_path: Path) -> None:
    transcript = CodexTranscript(ledger, Redactor(env={}), "/app")
    for line in lines("replay-stdout.jsonl")[:-1]:  # killed before its last line
        transcript.feed(line)
    transcript.feed("not json at all")
    transcript.feed('{"type": "rollout", "record": 3}')
    transcript.feed('{"type": "rollout", "record": {"type": "response_item", "payload": '
                    '{"type": "function_call_output"}}}')  # fmt: skip
    transcript.feed('{"type": "tap_error", "stage": "catalog", "error": "boom"}')
    assert transcript.noise == 1 and len(transcript.problems) == 3
    assert CodexHarness(spec()).ending(transcript, 137) == (None, "")
    native = native_of(transcript, "replay", tmp_path)
    assert native.model_calls == 17 and "the tap did not finish (killed?)" in native.problems


def test_a_nonzero_exit_without_a_failed_turn_is_a_crash(ledger: LedgerWriter) -> None:
    transcript = CodexTranscript(ledger, Redactor(env={}), "/app")
    transcript.feed(json.dumps({"type": "exec", "text": "thread 'main' panicked"}))
    transcript.feed(json.dumps({"type": "tap_end", "exit_code": 101, "max_turns": False}))
    assert CodexHarness(spec()).ending(transcript, 101) == (None, "")


def test_native_session_without_a_rollout(tmp_path: Path, ledger: LedgerWriter) -> None:
    transcript = CodexTranscript(ledger, Redactor(env={}), "/app")
    ctx = SimpleNamespace(native_dir=tmp_path / "native", session_no=1)
    native = CodexHarness(spec()).native_session(ctx, [], transcript)  # type: ignore[arg-type]
    assert native is not None and native.model_calls is None
    assert native.problems == ("codex wrote no rollout (session) file",)


# ----------------------------------------------------------------------------- config
def harness(**options: Any) -> CodexHarness:
    return CodexHarness(spec(options=options))


CHANNELS = {"cli_only": ("cli",), "hybrid": ("cli", "gui"), "gui_only": ("gui",)}


def ctx(tmp_path: Path, mode: str = "cli_only") -> Any:
    return SimpleNamespace(
        gateway_port=8765,
        model_id="realcli/replay",
        workdir="/app",
        mode=mode,
        channels=CHANNELS[mode],
        native_dir=tmp_path / "native",
    )


def test_config_toml_points_at_the_gateway_and_narrows_the_tools(tmp_path: Path) -> None:
    home = tmp_path / "home"
    install = SimpleNamespace(entry=Path("/opt/codex/bin/codex"))
    harness().prepare_home(ctx(tmp_path), home, install)  # type: ignore[arg-type]
    config = tomllib.loads((home / CODEX_DIR / "config.toml").read_text(encoding="utf-8"))
    assert config["model"] == "realcli/replay"
    assert config["model_catalog_json"] == f"{HOME_MOUNT}/{CODEX_DIR}/{CATALOG_FILE}"
    provider = config["model_providers"]["realcli"]
    assert provider == {
        "name": "realcli gateway",
        "base_url": "http://127.0.0.1:8765/v1",
        "env_key": KEY_ENV,
        "wire_api": "responses",
        "request_max_retries": 1,
        "stream_max_retries": 1,
    }
    assert (config["approval_policy"], config["sandbox_mode"]) == ("never", "danger-full-access")
    assert config["web_search"] == "disabled" and config["agents"] == {"enabled": False}
    assert config["features"] == {
        "plugins": False,
        "apps": False,
        "remote_plugin": False,
        "goals": False,
        "view_image": True,
    }
    assert config["tools"]["experimental_request_user_input"] == {"enabled": False}
    assert config["analytics"] == {"enabled": False}
    assert (home / TAP_FILE).read_text(encoding="utf-8") == tap_source()


def test_config_options_merge(tmp_path: Path) -> None:
    h = harness(tools=["update_plan"], max_retries=0, config={"features": {"goals": True}})
    config = h.config(ctx(tmp_path))
    assert config["features"]["view_image"] is False and config["features"]["goals"] is True
    assert config["tools"]["update_plan"] == {"enabled": True}
    assert config["model_providers"]["realcli"]["request_max_retries"] == 0
    assert tomllib.loads(toml_dumps(config)) == json.loads(json.dumps(config))


def test_toml_dumps_quotes_keys_and_values() -> None:
    text = toml_dumps({"a.b": 'x"y', "n": 1.5, "l": [1, "z"], "t": {"in": {"k": True}}})
    assert tomllib.loads(text) == {"a.b": 'x"y', "n": 1.5, "l": [1, "z"], "t": {"in": {"k": True}}}
    with pytest.raises(TypeError):
        toml_dumps({"x": object()})


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"colour": "blue"}, "unknown key"),
        ({"tools": ["web_search"]}, "optional codex tools"),
        ({"config": [1]}, "config: Input should be a valid dictionary"),
        ({"catalog_patch": 3}, "catalog_patch: Input should be a valid dictionary"),
    ],
)
def test_bad_options_are_errors(tmp_path: Path, options: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        h = harness(**options)
        h.config(ctx(tmp_path))
        h.catalog_patch()


def test_argv_runs_codex_exec_under_the_tap(tmp_path: Path) -> None:
    install = SimpleNamespace(entry=Path("/agents/codex/bin/codex"))
    h = harness(extra_args=["-c", "x=1"], catalog_model="gpt-6-sol")
    argv = h.argv(ctx(tmp_path), install)  # type: ignore[arg-type]
    assert argv[:3] == ["/usr/bin/python3", "-I", f"{HOME_MOUNT}/{TAP_FILE}"]
    tap = dict(zip(argv[3:19:2], argv[4:20:2], strict=True))
    assert tap == {
        "--codex-home": f"{HOME_MOUNT}/{CODEX_DIR}",
        "--model": "realcli/replay",
        "--catalog-model": "gpt-6-sol",
        "--catalog-patch": json.dumps({"supports_search_tool": False, "prefer_websockets": False}),
        "--catalog-file": f"{HOME_MOUNT}/{CODEX_DIR}/{CATALOG_FILE}",
        "--max-turns": "100",
        "--prompt-file": INSTRUCTION,
        "--": "/agents/codex/bin/codex",
    }
    assert argv[19:] == [
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "-C",
        "/app",
        "-m",
        "realcli/replay",
        "-c",
        "x=1",
        "-",
    ]
    env = h.environment(ctx(tmp_path), install)  # type: ignore[arg-type]
    assert env["CODEX_HOME"] == f"{HOME_MOUNT}/{CODEX_DIR}" and env[KEY_ENV] == "realcli-gateway"
    with pytest.raises(ValueError, match="extra_args"):
        harness(extra_args="-x").argv(ctx(tmp_path), install)  # type: ignore[arg-type]


def test_modes(tmp_path: Path) -> None:
    enforced, not_enforced = harness().modes(ctx(tmp_path))
    assert "exec_command, write_stdin, apply_patch, view_image" in enforced[0]
    assert any("tool_timeout_s" in n for n in not_enforced)
    with pytest.raises(ValueError, match="gui_only"):
        harness().modes(SimpleNamespace(mode="other", channels=()))  # type: ignore[arg-type]
    hybrid, _ = harness().modes(ctx(tmp_path, mode="hybrid"))
    assert any("gui MCP server" in e for e in hybrid)
    config = harness().config(ctx(tmp_path, mode="hybrid"))
    server = config["mcp_servers"]["gui"]
    assert server["args"][:2] == ["/run/realcli/gui/mcp_server.py", "--transport"]
    # required: no session starts before the GUI tools are there (the start-up race)
    assert (server["required"], server["startup_timeout_sec"]) == (True, 30)


def test_gui_only_turns_off_the_shell_and_apply_patch(tmp_path: Path) -> None:
    """gui_only: Codex's shell_tool and unified_exec features off, the model metadata without
    a shell or apply_patch, no view_image; the GUI MCP server still required."""
    h = harness()
    config = h.config(ctx(tmp_path, mode="gui_only"))
    assert config["features"]["shell_tool"] is False and config["features"]["unified_exec"] is False
    assert config["features"]["view_image"] is False
    assert config["mcp_servers"]["gui"]["required"] is True
    install = SimpleNamespace(entry=Path("/agents/codex/bin/codex"))
    argv = h.argv(ctx(tmp_path, mode="gui_only"), install)  # type: ignore[arg-type]
    patch = json.loads(argv[argv.index("--catalog-patch") + 1])
    assert patch["shell_type"] == "disabled" and patch["apply_patch_tool_type"] is None
    assert patch["supports_search_tool"] is False  # the defaults stay
    hybrid = json.loads(
        h.argv(ctx(tmp_path, mode="hybrid"), install)[argv.index("--catalog-patch") + 1]
    )  # type: ignore[arg-type]
    assert "shell_type" not in hybrid
    enforced, not_enforced = h.modes(ctx(tmp_path, mode="gui_only"))
    assert enforced[0].startswith("no shell, exec_command") and "gui MCP server" in enforced[1]
    assert not any("exec_command runs" in n for n in not_enforced)


HYBRID_TASK = "weave-ops-edge-outage"


@pytest.mark.sandbox
@pytest.mark.gui
@pytest.mark.slow
@pytest.mark.skipif(not installed(), reason="Codex is not installed")
def test_hybrid_replay_has_the_gui_tools_from_the_first_request(tmp_path: Path) -> None:
    """The start-up race: Codex's optional GUI MCP server came up after the session began, its
    first requests lacked the GUI tools and the run failed now and then. With the server
    required, three runs of the hybrid task pass, each with exactly one tool pool (GUI tools
    included), in ``native/tool_pools.json`` and the ledger alike."""
    for seed in (1, 2, 3):
        outcome = execute_run(_hybrid_spec(tmp_path, seed), load_task(TASKS / HYBRID_TASK))
        v, run_dir = outcome.verdict, outcome.run_dir
        assert v is not None and v.status.value == "graded" and v.passed, (run_dir, v)
        pools = json.loads((run_dir / "native" / "tool_pools.json").read_text())
        assert len(pools) == 1, (run_dir, [[t["name"] for t in p["tools"]] for p in pools])
        names = {t["name"] for t in pools[0]["tools"]}
        assert {"mcp__gui__screenshot", "mcp__gui__click", "exec_command"} <= names, names
        events = read_ledger(run_dir / "ledger.jsonl").events
        assert len([e for e in events if e.kind == "tool_pool"]) == 1, run_dir
        assert all(
            "mcp__gui__screenshot" in e.tools_offered for e in events if e.kind == "model_call"
        ), run_dir


def _hybrid_spec(base: Path, seed: int) -> RunSpec:
    overrides = [
        "harness=codex",
        "mode=hybrid",
        "model=replay",
        f"task={HYBRID_TASK}",
        f"seed={seed}",
        f"paths.tasks_dir={TASKS}",
        f"paths.runs_dir={base / 'runs'}",
    ]
    return compose_spec(base, overrides)


def test_native_files_are_the_rollouts_and_the_config(tmp_path: Path) -> None:
    codex = tmp_path / CODEX_DIR
    day = codex / "sessions" / "2026" / "11" / "29"
    day.mkdir(parents=True)
    for name in ("rollout-b.jsonl", "rollout-a.jsonl", "other.txt"):
        (day / name).write_text("{}\n")
    (codex / "config.toml").write_text("")
    kept = [p.relative_to(codex).as_posix() for p in harness().native_files(tmp_path)]
    assert kept == [
        "sessions/2026/11/29/rollout-a.jsonl",
        "sessions/2026/11/29/rollout-b.jsonl",
        "config.toml",
    ]


# ----------------------------------------------------------------------------- replay mapping
def mapped(action: Action) -> tuple[str, dict[str, Any]]:
    call = map_action(action, POOL, call_id="c", target=Target("/app"))
    return call.name, dict(call.arguments)


def test_every_action_is_an_exact_exec_command() -> None:
    actions: list[Action] = [
        ShellAction(action="shell", cmd="pytest -q", timeout_s=600),
        ReadAction(action="read", path="a.py"),
        WriteAction(action="write", path="b/c.txt", content="no newline"),
        EditAction(action="edit", path="a.py", old="x = 1", new="x = 2"),
    ]
    for action in actions:
        assert mapped(action) == (
            "exec_command",
            {"cmd": shell_equivalent(action)[0], "yield_time_ms": MAX_YIELD_MS},
        )
    assert TABLES.file_tools == {}


# ----------------------------------------------------------------------------- the tap
FAKE_CODEX = r"""
import json, os, sys, time
home = os.environ["CODEX_HOME"]
if sys.argv[1:3] == ["debug", "models"]:
    print(json.dumps({"models": [{"slug": "gpt-5.5", "tools": "direct", "keep": 1},
                                 {"slug": "gpt-6", "tools": "code"}]}))
    sys.exit(0)
prompt = sys.stdin.read()
print(json.dumps({"type": "thread.started", "thread_id": "t1"}), flush=True)
print("not json", flush=True)
day = os.path.join(home, "sessions", "2026", "11", "29")
os.makedirs(day, exist_ok=True)
path = os.path.join(day, "rollout-x-t1.jsonl")
def write(record, end="\n"):
    with open(path, "a") as f:
        f.write(json.dumps(record) + end)
write({"type": "session_meta", "payload": {"base_instructions": {"text": "B" * 100}}})
write({"type": "response_item", "payload": {"type": "message", "role": "user",
       "content": [{"type": "input_text", "text": prompt}]}})
for turn in range(int(os.environ.get("FAKE_TURNS", "1"))):
    write({"type": "response_item", "payload": {"type": "function_call", "call_id": f"c{turn}",
           "name": "exec_command", "arguments": "{}"}})
    write({"type": "token_usage_record", "payload": {"usage": {"input_tokens": 5,
           "output_tokens": 1}}})
    time.sleep(0.2)
with open(path, "a") as f:
    f.write('{"type": "token_usage_record", "payload": {"usage": {"input_tokens": 5, ')
    f.flush()
    time.sleep(0.2)
    f.write('"output_tokens": 2}}}\n')
print(json.dumps({"type": "turn.completed", "usage": {}}), flush=True)
"""


def run_tap(tmp_path: Path, *, turns: int = 1, max_turns: int = 0) -> list[dict[str, Any]]:
    fake = tmp_path / "fake_codex.py"
    fake.write_text(FAKE_CODEX, encoding="utf-8")
    runner = tmp_path / "codex"
    runner.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{fake}" "$@"\n', encoding="utf-8")
    runner.chmod(0o755)
    tap = tmp_path / "tap.py"
    tap.write_text(tap_source(), encoding="utf-8")
    prompt = tmp_path / "prompt.md"
    prompt.write_text("Fix it.", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    catalog = home / CATALOG_FILE
    argv = [
        sys.executable,
        "-I",
        str(tap),
        "--codex-home",
        str(home),
        "--model",
        "realcli/replay",
        "--catalog-model",
        "gpt-5.5",
        "--catalog-patch",
        '{"extra": true}',
        "--catalog-file",
        str(catalog),
        "--max-turns",
        str(max_turns),
        "--prompt-file",
        str(prompt),
        "--",
        str(runner),
        "exec",
        "-",
    ]
    env = {"CODEX_HOME": str(home), "FAKE_TURNS": str(turns), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, check=False)
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert records[-1]["type"] == "tap_end", out.stderr
    return records


def test_tap_builds_the_catalog_and_streams_rollout_and_stdout(tmp_path: Path) -> None:
    records = run_tap(tmp_path)
    catalog = json.loads((tmp_path / "home" / CATALOG_FILE).read_text(encoding="utf-8"))
    assert catalog == {
        "models": [
            {
                "slug": "realcli/replay",
                "display_name": "realcli/replay",
                "tools": "direct",
                "keep": 1,
                "extra": True,
            }
        ]
    }
    assert records[0] == {"type": "catalog", "model": "realcli/replay", "base": "gpt-5.5"}
    assert records[1]["type"] == "tap_start"
    execs = [r for r in records if r["type"] == "exec"]
    assert execs == [
        {"type": "exec", "event": {"type": "thread.started", "thread_id": "t1"}},
        {"type": "exec", "text": "not json"},
        {"type": "exec", "event": {"type": "turn.completed", "usage": {}}},
    ]
    rollout = [r["record"] for r in records if r["type"] == "rollout"]
    assert [r["type"] for r in rollout] == [
        "session_meta",
        "response_item",
        "response_item",
        "token_usage_record",
        "token_usage_record",
    ]
    assert rollout[0]["payload"]["base_instructions"] == {
        "text": "[100 characters: see the rollout]"
    }
    assert rollout[1]["payload"]["content"][0]["text"] == "Fix it."  # the prompt, via stdin
    assert rollout[-1]["payload"]["usage"]["output_tokens"] == 2  # a line written in two parts
    assert {r.get("file") for r in records if r["type"] == "rollout"} == {"rollout-x-t1.jsonl"}
    assert records[-1] == {"type": "tap_end", "exit_code": 0, "max_turns": False}


def test_tap_stops_codex_at_max_turns(tmp_path: Path) -> None:
    records = run_tap(tmp_path, turns=20, max_turns=2)
    usage = [
        r for r in records if r["type"] == "rollout" and r["record"]["type"] == "token_usage_record"
    ]
    assert 2 <= len(usage) < 20
    assert records[-1]["max_turns"] is True and records[-1]["exit_code"] == -15
