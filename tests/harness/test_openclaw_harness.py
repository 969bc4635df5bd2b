"""OpenClawHarness: the harness contract with the real CLI (when installed), and its tailer,
transcript, command line, config and replay tool mapping against recorded output (always).

The real-CLI tests run OpenClaw from an agents folder this test session installs it into from
empty (``openclaw_agents_dir``, once per session), never from an earlier install: a fresh
``realcli agents install openclaw`` must start.

``recorded/openclaw/`` holds the files of real runs with OpenClaw 2026.9.6: a ``model=replay``
run of smoke-bugfix-intervals (the tailer's stdout and the ledger), a run whose model calls
all failed with HTTP 500 (OpenClaw retried 7 times in about 90 s, then gave up; its stdout
keeps the first trajectory event of each type: OpenClaw wrote one set per attempt), and the
first request OpenClaw sent (cli_only pool).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from harness_contract import HarnessContract, NativeKind, NativeToolEvent
from harness_helpers import Session
from harness_scenarios import SMOKE_TASK, ContractRun

from realcli.gateway import map_action
from realcli.gateway.backends import Backend, BackendError
from realcli.gateway.toolsets.base import Target
from realcli.gateway.toolsets.openclaw import TABLES
from realcli.gateway.wire import ChatReply, ChatRequest
from realcli.harness.cli_agent import HOME_MOUNT, INSTRUCTION, TASK_MOUNT
from realcli.harness.install import InstallError, agents_dir, find_install
from realcli.harness.openclaw import (
    CLI_TOOLS,
    CONFIG_FILE,
    GUI_TOOLS,
    MIN_MEMORY_MB,
    STATE_DIR,
    TAILER_FILE,
    TAILER_JS,
    OpenClawHarness,
    OpenClawTranscript,
    openclaw_config,
    parse_envelope,
    read_records,
    summarize,
)
from realcli.harness.relay import ModelCallRelay
from realcli.ledger import LedgerWriter, read_ledger
from realcli.sandbox import sandbox_python
from realcli.schema.actions import (
    GUI_PRIMITIVES,
    Action,
    EditAction,
    GuiAction,
    ReadAction,
    ShellAction,
    WriteAction,
)
from realcli.schema.events import HeaderEvent, ModelCallEvent
from realcli.schema.run_spec import HarnessSpec
from realcli.util.redact import Redactor

RECORDED = Path(__file__).parent / "recorded" / "openclaw"
NATIVE = "openclaw"
POOL = ("apply_patch", "edit", "exec", "process", "read", "write")


@pytest.fixture
def fresh_openclaw(openclaw_agents_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Sessions of this test run OpenClaw from the session's fresh install."""
    monkeypatch.setenv("REALCLI_AGENTS_DIR", str(openclaw_agents_dir))
    return openclaw_agents_dir


def native_records(native_dir: Path) -> list[dict[str, Any]]:
    path = native_dir / NATIVE / "stdout.jsonl"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8") as lines:
        return list(read_records(lines))


# ----------------------------------------------------------------------------- contract
@pytest.mark.sandbox
class TestOpenClawHarnessContract(HarnessContract):
    harness_overrides = ("harness=openclaw",)
    tool_pool = frozenset(POOL)
    # OpenClaw (Node, a 330 MB package) takes 8-20 s from start to its first model call on a
    # busy 2-core machine: the contract's 3 s would kill it before the sleeping shell call.
    agent_timeout_s = 45.0
    agents_fixture = "openclaw_agents_dir"

    def test_a_fresh_install_runs_a_smoke_task(
        self, run_of: Callable[..., ContractRun], openclaw_agents_dir: Path
    ) -> None:
        """``realcli agents install openclaw`` into an empty folder: the package's lifecycle
        ran (its pending marker is gone), and ``model=replay`` passes a smoke task from that
        install (the contract's own replay run; before the fix every run crashed at start:
        ``package lifecycle is incomplete``)."""
        install = find_install("openclaw", openclaw_agents_dir)
        package = install.root / install.recipe.package_dir
        assert install.recipe.pending_marker is not None
        assert not (package / install.recipe.pending_marker).exists()
        marker = json.loads((install.root / ".installed.json").read_text())
        assert marker["lifecycle"] == ["preinstall", "postinstall"]
        run = run_of("replay", SMOKE_TASK)
        v = run.verdict
        assert (v.status, v.passed, v.fidelity) == ("graded", True, "ok"), (run.where, v.error)

    @classmethod
    def native_tool_events(cls, native_dir: Path) -> list[NativeToolEvent]:
        """OpenClaw's transcript rows as the tailer streamed them: calls in assistant rows,
        results in toolResult rows."""
        events: list[NativeToolEvent] = []
        for record in native_records(native_dir):
            event = record.get("event") or {}
            if record["type"] != "openclaw.transcript" or event.get("type") != "message":
                continue
            message = event["message"]
            if message.get("role") == "assistant":
                for block in message.get("content") or []:
                    if block.get("type") == "toolCall":
                        events.append(NativeToolEvent("call", str(block["id"])))
            elif message.get("role") == "toolResult":
                kind: NativeKind = "result"
                events.append(NativeToolEvent(kind, str(message["toolCallId"])))
        return events

    @classmethod
    def native_tool_pool(cls, native_dir: Path) -> set[str] | None:
        pool = summarize(native_records(native_dir)).tool_pool
        return set(pool) if pool is not None else None


# ----------------------------------------------------------------------------- real CLI extras
class _Failing(Backend):
    name = "failing"

    def respond(self, request: ChatRequest) -> ChatReply:
        raise BackendError("upstream is down")


@pytest.mark.sandbox
@pytest.mark.slow
@pytest.mark.usefixtures("fresh_openclaw")
def test_real_cli_gives_up_on_http_500(run_session: Any) -> None:
    """OpenClaw retries a 5xx with growing jittered delays (1 s ... 28 s) for at most 8
    retries within a 90 s window (not configurable), then exits 1 with status error: about
    100 s, 7 to 9 calls depending on the jitter."""
    session: Session = run_session(_Failing(), harness=OpenClawHarness(spec()), timeout_s=240)
    assert session.outcome.reason == "error", session.outcome
    assert "HTTP 500" in session.outcome.detail
    statuses = [e.status for e in session.of("model_call")]
    assert set(statuses) == {500} and 7 <= len(statuses) <= 9, statuses
    assert [e.error_type.value for e in session.of("error")] == ["gateway_error"]
    native = session.outcome.native
    assert native is not None and native.model_calls == 0 and not native.problems


@pytest.mark.sandbox
@pytest.mark.usefixtures("fresh_openclaw")
def test_real_cli_backgrounds_nothing_the_replay_runs_and_sees_the_task_python(
    run_session: Any,
) -> None:
    """A replayed command longer than OpenClaw's 10 s background threshold still runs in the
    foreground (yieldMs = its timeout); agent commands see the sandbox's PATH first; CRLF
    text is written exactly by ``write`` and edited exactly through the shell fallback."""
    actions = [
        {"action": "shell", "cmd": "sleep 11; command -v python; echo done > slept.txt"},
        {"action": "write", "path": "sub/a.txt", "content": "tab\t \r\nno newline"},
        {"action": "edit", "path": "sub/a.txt", "old": "tab\t \r\n", "new": "x  \n"},
        {"action": "message", "text": "All done."},
    ]
    session: Session = run_session(actions, harness=OpenClawHarness(spec()), timeout_s=120)
    assert session.outcome.reason == "done", session.outcome
    assert (session.workspace / "slept.txt").read_text() == "done\n"
    assert (session.workspace / "sub" / "a.txt").read_bytes() == b"x  \nno newline"
    calls = [(c.raw_name, c.args.get("path")) for c in session.of("tool_call")]
    assert calls == [("exec", None), ("write", "sub/a.txt"), ("exec", None)]
    first = session.of("tool_result")[0]
    assert first.ok and first.exit_code == 0 and "/bin/python" in first.output_excerpt
    said = [m.text for m in session.of("message") if m.role == "assistant"]
    assert said[-1] == "All done."
    native = session.outcome.native
    assert native is not None and native.model_calls == 4 == session.outcome.turns
    assert (session.native_dir / NATIVE / "home" / CONFIG_FILE).is_file()


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


def _is_reply_row(record: dict[str, Any]) -> bool:
    event = record.get("event") or {}
    message = event.get("message") or {}
    return record["type"] == "openclaw.transcript" and message.get("role") == "assistant"


def transcribe(ledger: LedgerWriter, run: str) -> tuple[OpenClawTranscript, list[dict[str, Any]]]:
    """Feed ``<run>-stdout.jsonl``; the model calls of ``<run>-ledger.jsonl`` reach the relay
    as the gateway reported them: each answered call (and the failed ones before it) just
    before the assistant row of its reply, the rest before the tailer's last line."""
    calls = [
        ModelCallEvent.model_validate({**e, "seq": 0})
        for e in recorded_ledger(f"{run}-ledger.jsonl")
        if e["kind"] == "model_call"
    ]
    relay = ModelCallRelay()
    transcript = OpenClawTranscript(ledger, Redactor(env={}), "/app", relay)
    for line in lines(f"{run}-stdout.jsonl"):
        record = json.loads(line)
        if _is_reply_row(record):
            while calls:
                call = calls.pop(0)
                relay(call)
                if call.status == 200:
                    break
        if record["type"] == "openclaw.exit":
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


def native_of(run: str, tmp_path: Path, transcript: OpenClawTranscript) -> Any:
    native_dir = tmp_path / "native"
    (native_dir / NATIVE).mkdir(parents=True, exist_ok=True)
    text = "\n".join(lines(f"{run}-stdout.jsonl")) + "\n"
    (native_dir / NATIVE / "stdout.jsonl").write_text(text, encoding="utf-8")
    ctx = SimpleNamespace(native_dir=native_dir, session_no=1)
    return OpenClawHarness(spec()).native_session(ctx, [], transcript)  # type: ignore[arg-type]


def test_recorded_replay_gives_the_recorded_ledger_in_agent_order(
    ledger: LedgerWriter, tmp_path: Path
) -> None:
    transcript, events = transcribe(ledger, "replay")
    recorded = recorded_ledger("replay-ledger.jsonl")
    assert transcript.problems == [] and transcript.noise == 0
    assert shape(events) == shape(recorded)[1:]  # the harness itself writes the instruction
    assert transcript.turns == 17 and len(transcript.call_ids) == 16
    calls = [e for e in events if e["kind"] == "tool_call"]
    assert [(c["name"], c["raw_name"]) for c in calls[:2]] == [
        ("shell", "exec"),
        ("read_file", "read"),
    ]
    assert calls[0]["args"] == {
        "command": "ls -R --ignore=__pycache__ && cat README.md",
        "yieldMs": 30000,
        "timeoutSeconds": 30,
    }
    assert calls[1]["args"] == {"path": "intervals/core.py"}
    assert {c["atomic_op"] for c in calls} == {"exec: shell", "fs: read", "fs: edit", "fs: write"}
    results = {e["call_id"]: e for e in events if e["kind"] == "tool_result"}
    assert all(r["ok"] for r in results.values())
    assert results["call_0000"]["exit_code"] == 0 and results["call_0001"]["exit_code"] is None
    assert results["call_0006"]["touched_files"] == ["intervals/core.py"]
    assert results["call_0014"]["touched_files"] == ["tests/test_reported_bugs.py"]
    assert transcript.tool_pool == ["apply_patch", "edit", "exec", "process", "read", "write"]
    assert transcript.envelope is not None and transcript.envelope["status"] == "ok"
    assert OpenClawHarness(spec()).ending(transcript, 0) == ("done", "")
    (fidelity,) = [e for e in recorded if e["kind"] == "fidelity"]
    native = native_of("replay", tmp_path, transcript)
    assert (native.model_calls, native.tokens_in, native.tokens_out) == (
        fidelity["gateway_calls"],
        fidelity["gateway_tokens_in"],
        fidelity["gateway_tokens_out"],
    )
    assert list(native.tool_call_ids) == [c["call_id"] for c in calls] and not native.problems


def test_recorded_first_request_offers_the_pool() -> None:
    request = json.loads((RECORDED / "request.json").read_text(encoding="utf-8"))
    assert sorted(t["function"]["name"] for t in request["tools"]) == list(POOL)
    assert request["stream"] is True and request["stream_options"] == {"include_usage": True}
    assert request["messages"][0]["role"] == "system"
    assert "Tool Search" not in request["messages"][0]["content"]  # direct schemas
    assert "<available_skills>" not in request["messages"][0]["content"]


def test_recorded_api_error_ends_as_error(ledger: LedgerWriter, tmp_path: Path) -> None:
    transcript, events = transcribe(ledger, "api-error")
    assert [e["status"] for e in events if e["kind"] == "model_call"] == [500] * 8
    assert transcript.turns == 0 and [e for e in events if e["kind"] == "message"] == []
    assert transcript.model_errors and transcript.envelope is not None
    reason, detail = OpenClawHarness(spec()).ending(transcript, 1)
    assert reason == "error" and "HTTP 500" in detail
    native = native_of("api-error", tmp_path, transcript)
    assert (native.model_calls, native.tokens_in, native.tool_call_ids) == (0, 0, ())


def test_no_exit_record_is_a_crash(ledger: LedgerWriter, tmp_path: Path) -> None:
    transcript = OpenClawTranscript(ledger, Redactor(env={}), "/app")
    for line in lines("replay-stdout.jsonl")[:-1]:
        transcript.feed(line)
    transcript.feed("not json at all")
    transcript.feed('{"type": "openclaw.transcript", "event": {"type": "message"}}')
    transcript.feed('{"type": "openclaw.tail_error", "error": "database is malformed"}')
    assert transcript.noise == 1 and len(transcript.problems) == 2
    assert "tailer: database is malformed" in transcript.problems
    reason, _ = OpenClawHarness(spec()).ending(transcript, None)
    assert reason is None
    text = "\n".join(lines("replay-stdout.jsonl")[:-1]) + "\n"
    native_dir = tmp_path / "native"
    (native_dir / NATIVE).mkdir(parents=True)
    (native_dir / NATIVE / "stdout.jsonl").write_text(text, encoding="utf-8")
    ctx = SimpleNamespace(native_dir=native_dir, session_no=1)
    native = OpenClawHarness(spec()).native_session(ctx, [], transcript)  # type: ignore[arg-type]
    assert native is not None and "did not finish" in native.problems[-1]


def exit_record(code: int | None, stdout: str, signal: str | None = None) -> str:
    return json.dumps({"type": "openclaw.exit", "code": code, "signal": signal, "stdout": stdout})


def test_endings(ledger: LedgerWriter) -> None:
    harness = OpenClawHarness(spec())

    def ending(*records: str) -> tuple[str | None, str]:
        transcript = OpenClawTranscript(ledger, Redactor(env={}), "/app")
        for record in records:
            transcript.feed(record)
        return harness.ending(transcript, None)

    ok = json.dumps({"ok": True, "status": "ok", "final": "hi"}, indent=2)
    assert ending(exit_record(0, "[plugins] loaded\n" + ok)) == ("done", "")
    failed = {"ok": False, "status": "error", "error": {"message": "Exec failed", "kind": "x"}}
    reason, detail = ending(exit_record(1, json.dumps(failed)))
    assert reason is None and "Exec failed" in detail and "status 'error'" in detail
    overloaded = {"status": "error", "error": {"message": "request failed (HTTP 529)"}}
    assert ending(exit_record(1, json.dumps(overloaded)))[0] == "error"
    assert ending(exit_record(None, "", "SIGKILL"))[0] is None
    assert ending(exit_record(0, "no json here"))[0] is None


def message(role: str, **fields: Any) -> str:
    event = {"type": "message", "message": {"role": role, **fields}}
    return json.dumps({"type": "openclaw.transcript", "session": "s", "seq": 0, "event": event})


def test_tool_results(ledger: LedgerWriter) -> None:
    transcript = OpenClawTranscript(ledger, Redactor(env={}), "/app")
    patch = "*** Begin Patch\n*** Update File: /app/a.py\n@@\n-x\n+y\n*** Add File: b.py\n+z\n"
    calls = [
        ("e1", "exec", {"command": "pytest"}),
        ("e2", "exec", {"command": "false"}),
        ("e3", "exec", {"command": "sleep 99"}),
        ("w1", "write", {"path": "/app/pkg/a.py", "content": "x"}),
        ("p1", "apply_patch", {"input": patch}),
        ("r1", "read", {"path": "missing.py"}),
        ("b1", "bogus", "not an object"),
    ]
    content = [{"type": "text", "text": "Let me look."}] + [
        {"type": "toolCall", "id": i, "name": n, "arguments": a} for i, n, a in calls
    ]
    transcript.feed(message("user", content="Do it"))
    transcript.feed(message("assistant", content=content, stopReason="toolUse", usage={}))
    results: list[tuple[str, bool, dict[str, Any]]] = [
        ("e1", False, {"status": "completed", "exitCode": 0, "durationMs": 812}),
        ("e2", False, {"status": "completed", "exitCode": 1}),
        ("e3", False, {"status": "running", "sessionId": "amber-comet"}),
        ("w1", False, {"changed": True}),
        ("p1", False, {}),
        ("r1", True, {}),
        ("b1", True, {}),
    ]
    for call_id, is_error, details in results:
        text = [{"type": "text", "text": f"out {call_id}"}]
        transcript.feed(
            message(
                "toolResult", toolCallId=call_id, content=text, isError=is_error, details=details
            )
        )
    ledger.close()
    events = read_ledger(ledger.path).events
    assert [
        (e.call_id, e.ok, e.exit_code, e.touched_files, e.duration_ms)
        for e in events
        if e.kind == "tool_result"
    ] == [
        ("e1", True, 0, (), 812.0),
        ("e2", False, 1, (), 0.0),
        ("e3", True, None, (), 0.0),
        ("w1", True, None, ("pkg/a.py",), 0.0),
        ("p1", True, None, ("a.py", "b.py"), 0.0),
        ("r1", False, None, (), 0.0),
        ("b1", False, None, (), 0.0),
    ]
    tool_calls = [e for e in events if e.kind == "tool_call"]
    assert [(c.name, c.atomic_op) for c in tool_calls] == [
        ("shell", "exec: shell"),
        ("shell", "exec: shell"),
        ("shell", "exec: shell"),
        ("write_file", "fs: write"),
        ("apply_patch", "fs: patch"),
        ("read_file", "fs: read"),
        ("bogus", "other: bogus"),
    ]
    assert tool_calls[-1].args == {"_raw": "not an object"}
    assert [e.kind for e in events][:2] == ["message", "tool_call"] and transcript.turns == 1
    assert transcript.problems == []


def test_terminal_error_rows_are_not_model_replies(ledger: LedgerWriter) -> None:
    transcript = OpenClawTranscript(ledger, Redactor(env={}), "/app")
    transcript.feed(message("assistant", content=[], stopReason="error", errorMessage="500 boom"))
    assert transcript.turns == 0 and transcript.model_errors == ["500 boom"]
    summary = summarize(read_records([message("assistant", content=[], stopReason="error")]))
    assert summary.model_calls == 0 and summary.errors == ["model error"]


def test_summarize_counts_replies_tokens_and_calls() -> None:
    usage = {"input": 90, "output": 7, "cacheRead": 10, "cacheWrite": 1}
    call = {"type": "toolCall", "id": "c1", "name": "exec", "arguments": {}}
    tools = [{"name": "exec"}, {"name": "read"}]
    records = [
        message("assistant", content=[call], usage=usage, stopReason="toolUse"),
        message("assistant", content=[{"type": "text", "text": "ok"}], usage=usage),
        json.dumps(
            {
                "type": "openclaw.trajectory",
                "event": {"type": "context.compiled", "data": {"tools": tools}},
            }
        ),
        exit_record(0, "{}"),
        "garbage",
    ]
    summary = summarize(read_records(records))
    assert (summary.model_calls, summary.tokens_in, summary.tokens_out) == (2, 202, 14)
    assert summary.tool_call_ids == ["c1"] and summary.tool_pool == ["exec", "read"]
    assert summary.exit is not None and summary.exit["code"] == 0


def test_parse_envelope_is_defensive() -> None:
    envelope = {"ok": True, "status": "ok", "final": "{not json"}
    pretty = json.dumps(envelope, indent=2)
    assert parse_envelope(pretty) == envelope
    assert parse_envelope(f"[warn] something\n\x1b[33mlog\x1b[39m\n{pretty}\n") == envelope
    assert parse_envelope(f"{{ half\n{pretty}\ntrailing words") == envelope
    assert parse_envelope("") is None and parse_envelope("[1, 2]") is None


# ----------------------------------------------------------------------------- the tailer
FAKE_OPENCLAW = r"""
import { DatabaseSync } from "node:sqlite";
import { mkdirSync } from "node:fs";
import { zstdCompressSync } from "node:zlib";
const dir = `${process.argv[2]}/agents/main/agent`;
mkdirSync(dir, { recursive: true });
const db = new DatabaseSync(`${dir}/openclaw-agent.sqlite`);
db.exec("PRAGMA journal_mode=WAL");
db.exec(`CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT,
  created_at INTEGER, event_zstd BLOB, event_utf8_bytes INTEGER, navigation_json TEXT,
  PRIMARY KEY (session_id, seq))`);
db.exec(`CREATE TABLE trajectory_runtime_events (session_id TEXT, seq INTEGER, run_id TEXT,
  event_json TEXT, created_at INTEGER, PRIMARY KEY (session_id, seq))`);
const put = db.prepare("INSERT INTO transcript_events VALUES (?, ?, ?, 0, ?, ?, NULL)");
put.run("s1", 0, JSON.stringify({ type: "session", id: "s1" }), null, 38);
await new Promise((r) => setTimeout(r, 400));
const user = { role: "user", content: "x".repeat(5000) };
const big = JSON.stringify({ type: "message", message: user });
put.run("s1", 1, null, zstdCompressSync(Buffer.from(big)), Buffer.byteLength(big));
db.prepare("INSERT INTO trajectory_runtime_events VALUES ('s1', 0, 'r', ?, 0)")
  .run(JSON.stringify({ type: "session.ended" }));
db.close();
console.log("[warn] a log line");
console.log(JSON.stringify({ ok: false, status: "error" }, null, 2));
process.exit(3);
"""


def node() -> str | None:
    try:
        install = find_install("node", agents_dir())
    except InstallError:
        return shutil.which("node24")
    return str(install.entry)


@pytest.mark.skipif(node() is None, reason="Node 24 is not installed (realcli agents install)")
def test_tailer_streams_rows_and_the_exit(tmp_path: Path) -> None:
    tailer = tmp_path / TAILER_FILE
    tailer.write_text(TAILER_JS)
    fake = tmp_path / "fake_openclaw.mjs"
    fake.write_text(FAKE_OPENCLAW)
    state = tmp_path / "state"
    exe = node()
    assert exe is not None
    argv = [exe, "--no-warnings", str(tailer), str(state), "--", exe, "--no-warnings"]
    argv += [str(fake), str(state)]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 3, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["type"], r.get("seq")) for r in records] == [
        ("openclaw.transcript", 0),
        ("openclaw.transcript", 1),
        ("openclaw.trajectory", 0),
        ("openclaw.exit", None),
    ]
    assert records[0]["event"] == {"type": "session", "id": "s1"}
    assert records[0]["agent"] == "main" and records[0]["session"] == "s1"
    assert records[1]["event"]["message"]["content"] == "x" * 5000  # zstd row decoded
    assert records[-1]["code"] == 3 and records[-1]["signal"] is None
    assert parse_envelope(records[-1]["stdout"]) == {"ok": False, "status": "error"}
    usage = subprocess.run([exe, str(tailer)], capture_output=True, text=True, check=False)
    assert usage.returncode == 2 and "usage" in usage.stderr


# ----------------------------------------------------------------------------- command line
def spec(**fields: Any) -> HarnessSpec:
    options = fields.pop("options", {})
    values: dict[str, Any] = {
        "max_turns": 7,
        "tool_timeout_s": 90,
        "output_limit": 9000,
        **fields,
    }
    return HarnessSpec(
        name="openclaw", kind="openclaw", version="2026.9.6", options=options, **values
    )


CHANNELS = {"cli_only": ("cli",), "gui_only": ("gui",), "hybrid": ("cli", "gui")}


def fake_ctx(mode: str = "cli_only") -> Any:
    return SimpleNamespace(
        instruction="Fix it.",
        model_id="replay",
        gateway_port=8765,
        mode=mode,
        channels=CHANNELS[mode],
        workdir="/app",
        sandbox=SimpleNamespace(command_path=lambda: None),  # a sandbox without its own PATH
    )


NODE_ROOT = Path("/opt/agents/node-24.21.0")


def fake_install(root: Path = Path("/opt/agents/openclaw-2026.9.6")) -> Any:
    return SimpleNamespace(root=root, entry=root / "node_modules/openclaw/openclaw.mjs")


def test_argv_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = OpenClawHarness(spec(options={"extra_args": ["--thinking", "low"]}))
    monkeypatch.setattr(harness, "node_bin", lambda install: f"{NODE_ROOT}/bin")
    argv = harness.argv(fake_ctx(), fake_install())
    state = f"{HOME_MOUNT}/{STATE_DIR}"
    node_exe = f"{NODE_ROOT}/bin/node"
    assert argv[:5] == [node_exe, "--no-warnings", f"{TASK_MOUNT}/{TAILER_FILE}", state, "--"]
    cli = argv[argv.index("--") + 1 :]
    assert cli[:4] == [node_exe, str(fake_install().entry), "agent", "exec"]
    assert cli[cli.index("--config") + 1] == f"{HOME_MOUNT}/{CONFIG_FILE}"
    assert cli[cli.index("--state-dir") + 1] == state
    assert cli[cli.index("--cwd") + 1] == "/app"
    assert cli[cli.index("--model") + 1] == "realcli/replay"
    assert cli[cli.index("--message-file") + 1] == INSTRUCTION
    assert cli[cli.index("--timeout") + 1] == "0"
    assert cli[cli.index("--code-mode") + 1] == "direct"
    assert "--json" in cli and cli[-2:] == ["--thinking", "low"]
    env = harness.environment(fake_ctx(), fake_install())
    assert env["PATH"].endswith(f":{NODE_ROOT}/bin") and env["PATH"].startswith("/")
    assert env["OPENCLAW_NO_AUTO_UPDATE"] == "1" and env["OPENCLAW_OFFLINE"] == "1"
    assert env["SHELL"] == "/bin/bash"


def test_config_points_at_the_gateway_and_turns_side_traffic_off() -> None:
    config = OpenClawHarness(spec()).config(fake_ctx())
    provider = config["models"]["providers"]["realcli"]
    assert config["models"]["mode"] == "replace"
    assert provider["baseUrl"] == "http://127.0.0.1:8765/v1"
    assert provider["api"] == "openai-completions" and provider["apiKey"] == "realcli-gateway"
    assert [m["id"] for m in provider["models"]] == ["replay"]
    assert provider["models"][0]["contextWindow"] == 200000
    assert config["agents"]["defaults"] == {"model": {"primary": "realcli/replay"}, "skills": []}
    assert config["tools"] == {
        "toolSearch": False,
        "allow": list(CLI_TOOLS),
        "exec": {"timeoutSeconds": 90},
    }
    assert config["update"] == {"checkOnStart": False}
    assert config["telemetry"] == {"enabled": False}
    assert "plugins" not in config
    merged = openclaw_config(
        base_url="u",
        model="m",
        plugins=False,
        skills=True,
        background_ms=60000,
        extra={"tools": {"loopDetection": {"enabled": True}}, "logging": {"level": "warn"}},
    )
    assert merged["plugins"] == {"enabled": False} and "skills" not in merged["agents"]["defaults"]
    assert merged["tools"]["exec"] == {"timeoutSeconds": 300, "backgroundMs": 60000}
    assert merged["tools"]["loopDetection"] == {"enabled": True}
    assert merged["tools"]["toolSearch"] is False and merged["logging"] == {"level": "warn"}


def test_prepare_home_and_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, task = tmp_path / "home", tmp_path / "task"
    home.mkdir()
    task.mkdir()
    harness = OpenClawHarness(spec(options={"context_window": 64000}))
    harness.prepare_home(fake_ctx(), home, fake_install())
    config = json.loads((home / CONFIG_FILE).read_text())
    assert config["models"]["providers"]["realcli"]["models"][0]["contextWindow"] == 64000
    assert (home / STATE_DIR).is_dir()
    seen: dict[str, Any] = {}

    class FakeSandbox:
        def __init__(self, memory_mb: int) -> None:
            self.options = SimpleNamespace(memory_mb=memory_mb)

        def with_options(self, **changes: Any) -> FakeSandbox:
            seen.update(changes)
            return FakeSandbox(changes.get("memory_mb", self.options.memory_mb))

    for memory, expected in ((2048, MIN_MEMORY_MB), (16384, 16384)):
        monkeypatch.setattr(
            "realcli.harness.cli_agent.AgentCliHarness.sandbox",
            lambda self, ctx, install, home, task_dir, m=memory: FakeSandbox(m),
        )
        sandbox = harness.sandbox(fake_ctx(), fake_install(), home, task)
        assert sandbox.options.memory_mb == expected
    assert (task / TAILER_FILE).read_text() == TAILER_JS


def test_options_and_modes_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown key"):
        OpenClawHarness(spec(options={"colour": "red"})).tools()
    assert OpenClawHarness(spec()).tools() == CLI_TOOLS
    assert OpenClawHarness(spec(options={"tools": "exec, read"})).tools() == ("exec", "read")
    with pytest.raises(ValueError, match="config: Input should be a valid dictionary"):
        OpenClawHarness(spec(options={"config": ["x"]})).config(fake_ctx())
    enforced, not_enforced = OpenClawHarness(spec()).modes(fake_ctx())
    assert any("tools.allow" in e for e in enforced)
    assert any("max_turns" in n for n in not_enforced)
    assert {"cli_only", "gui_only", "hybrid"} == OpenClawHarness.MODES


def test_gui_modes_configure_the_gui_mcp_server_and_allow_its_tools() -> None:
    """hybrid: the CLI tools and the ten gui__<tool>; gui_only: the GUI tools alone; both
    start the GUI MCP server (stdio) with the gateway's URL; cli_only configures no server."""
    harness = OpenClawHarness(spec())
    assert tuple(f"gui__{t}" for t in GUI_PRIMITIVES) == GUI_TOOLS and len(GUI_TOOLS) == 10
    assert "mcp" not in harness.config(fake_ctx())
    for mode, allowed in (("hybrid", (*CLI_TOOLS, *GUI_TOOLS)), ("gui_only", GUI_TOOLS)):
        config = harness.config(fake_ctx(mode))
        assert config["tools"]["allow"] == list(allowed), mode
        ((name, server),) = config["mcp"]["servers"].items()
        assert name == "gui" and server["command"] == sandbox_python()
        assert server["args"] == [
            "/run/realcli/gui/mcp_server.py", "--transport", "stdio",
            "--gateway", "http://127.0.0.1:8765",
        ]  # fmt: skip
        assert server["requestTimeoutMs"] > 120_000  # the server's own per-call limit
        enforced, not_enforced = harness.modes(fake_ctx(mode))
        assert any("gui MCP server" in e for e in enforced), enforced
        assert any(",".join(allowed) in e for e in enforced)
        assert any("exec runs" in n for n in not_enforced) == (mode == "hybrid")
        assert any("no shell or file tools" in e for e in enforced) == (mode == "gui_only")
    # every reference GUI step maps onto OpenClaw's name for it
    for tool in GUI_PRIMITIVES:
        action = GuiAction(action="gui", tool=tool, args={})  # type: ignore[arg-type]
        assert map_action(action, GUI_TOOLS, call_id="c").name == f"gui__{tool}"


def test_native_files(tmp_path: Path) -> None:
    agent = tmp_path / STATE_DIR / "agents" / "main" / "agent"
    agent.mkdir(parents=True)
    for name in ("openclaw-agent.sqlite", "openclaw-agent.sqlite-wal", "other.sqlite"):
        (agent / name).write_bytes(b"SQLite format 3\x00")
    (tmp_path / CONFIG_FILE).write_text("{}")
    kept = OpenClawHarness(spec()).native_files(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in kept] == [
        CONFIG_FILE,
        f"{STATE_DIR}/agents/main/agent/openclaw-agent.sqlite",
        f"{STATE_DIR}/agents/main/agent/openclaw-agent.sqlite-wal",
    ]
    assert OpenClawHarness(spec()).native_files(tmp_path / "nothing") == []


# ----------------------------------------------------------------------------- replay mapping
TARGET = Target("/app")


def test_native_tool_arguments() -> None:
    edit = EditAction(action="edit", path="x.py", old="a  \n", new="b\n")
    assert TABLES.file_tools["edit"]["edit"](edit, TARGET) == {
        "path": "x.py",
        "edits": [{"oldText": "a  \n", "newText": "b\n"}],
    }
    write = WriteAction(action="write", path="d/x.py", content="x\r\n")
    assert TABLES.file_tools["write"]["write"](write, TARGET) == {
        "path": "d/x.py",
        "content": "x\r\n",
    }
    run = TABLES.shell_tools["exec"]
    assert run("ls", 30.0, TARGET) == {"command": "ls", "yieldMs": 30000, "timeoutSeconds": 30}
    assert run("ls", 0.2, TARGET)["timeoutSeconds"] == 1
    assert run("ls", 2.5, TARGET) == {"command": "ls", "yieldMs": 3000, "timeoutSeconds": 3}


def test_map_action_uses_the_openclaw_pool() -> None:
    cases: list[tuple[Action, str, dict[str, Any] | None]] = [
        (ReadAction(action="read", path="a.py"), "read", {"path": "a.py"}),
        (
            WriteAction(action="write", path="a.py", content="x\n"),
            "write",
            {"path": "a.py", "content": "x\n"},
        ),
        (EditAction(action="edit", path="a.py", old="x", new="y"), "edit", None),
        (EditAction(action="edit", path="a.py", old="x\r\n", new="y\r\n"), "exec", None),
        (EditAction(action="edit", path="a.py", old="x", new="y\r\n"), "exec", None),
        (ShellAction(action="shell", cmd="ls"), "exec", None),
    ]
    for action, name, args in cases:
        call = map_action(action, POOL, call_id="c", target=TARGET)
        assert call.name == name
        assert args is None or dict(call.arguments) == args
