"""OpenClawHarness: the OpenClaw agent CLI (Node), one isolated headless turn.

Runs, in the sandbox, with OpenClaw's pinned Node 24::

    openclaw agent exec --config $HOME/openclaw.json --state-dir $HOME/state --cwd <workdir>
                        --model realcli/<model> --message-file <instruction> --json
                        --timeout 0 --code-mode direct

``agent exec`` is OpenClaw's embedded one-shot path: no Gateway daemon, no onboarding, no
pairing. Its config (written to the per-run home) declares one custom provider ``realcli``
(``api: openai-completions``, ``baseUrl`` the gateway's ``/v1``, dummy key) holding the run's
model, and turns off what reaches beyond loopback: update checks (``update.checkOnStart``,
``OPENCLAW_NO_AUTO_UPDATE``), telemetry, Bonjour, helper-binary downloads
(``OPENCLAW_OFFLINE``). OpenClaw streams Chat Completions (``stream: true`` with
``include_usage``). ``--timeout 0`` leaves the wall clock to realcli.

OpenClaw's ``--json`` stdout is one pretty-printed envelope at the very end (status, final
text, usage); its session store is SQLite (``$STATE/agents/main/agent/openclaw-agent.sqlite``:
``transcript_events``, one JSON event per row, rows over 1 KiB zstd-compressed, written as
they happen; ``trajectory_runtime_events``, flushed at the end, with the compiled tool list).
So the agent runs under a small tailer (:data:`TAILER_JS`, run with the same Node, read-only
at ``/run/realcli/task/openclaw_tail.mjs``) that starts the command above, polls the store
every 0.15 s (read-only) and prints each new row as one JSON line
(``{"type": "openclaw.transcript" | "openclaw.trajectory", "agent", "session", "seq",
"event"}``), then ``{"type": "openclaw.exit", "code", "signal", "stdout"}`` with OpenClaw's
own stdout. That stream is ``native/openclaw/stdout.jsonl``; the SQLite store itself is kept
under ``native/openclaw/home/state/``.

Transcript events: ``message`` with ``role`` ``user`` | ``assistant`` (``content`` blocks
``text`` / ``toolCall {id, name, arguments}`` / ``thinking``, ``usage {input, output,
cacheRead, cacheWrite}``, ``stopReason`` ``toolUse`` | ``stop`` | ``error``) |
``toolResult`` (``toolCallId``, ``content``, ``isError``, ``details.exitCode``). Tool call ids
are the gateway's (OpenClaw strips non-alphanumerics only in the history it sends back).
A failed model call is retried (8 retries within 90 s for 5xx, 10 attempts for 429) and
leaves no row; a terminal failure leaves an assistant row with ``stopReason: error``.

Tools (``cli_only``): ``read``, ``write``, ``edit``, ``apply_patch``, ``exec``, ``process``
(``tools.allow``), direct schemas (``tools.toolSearch: false``), no skills, no MCP servers.
``exec`` backgrounds a command still running after ``yieldMs`` (default 10 s; option
``background_ms``) and hands back a ``process`` session id; ``tool_timeout_s`` is
``tools.exec.timeoutSeconds``.

Options (``harness.options``): ``tools`` (the ``tools.allow`` list), ``plugins`` (default
true: bundled plugins load as usual; false skips plugin discovery), ``skills`` (default
false: no skills in the system prompt), ``background_ms`` (``tools.exec.backgroundMs``; null
keeps OpenClaw's 10000), ``context_window`` (default 200000) and ``max_tokens`` (default
8192) of the model entry, ``config`` (a mapping deep-merged into ``openclaw.json`` last),
``extra_args`` (appended to ``agent exec``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from realcli.harness.base import HARNESSES, HarnessContext, NativeSession
from realcli.harness.cli_agent import (
    HOME_MOUNT,
    INSTRUCTION,
    TASK_MOUNT,
    AgentCliHarness,
    deep_merge,
)
from realcli.harness.install import OPENCLAW, AgentInstall
from realcli.harness.options import OpenClawOptions
from realcli.harness.transcript import Transcript
from realcli.sandbox.base import Sandbox
from realcli.sandbox.local import LocalSandbox
from realcli.sandbox.neutral import SYSTEM_PATH
from realcli.schema.events import MessageEvent

__all__ = [
    "CLI_TOOLS",
    "OPENCLAW_TOOLS",
    "PROVIDER",
    "TAILER_JS",
    "OpenClawHarness",
    "OpenClawTranscript",
    "SessionSummary",
    "openclaw_config",
    "parse_envelope",
    "read_records",
    "summarize",
]

PROVIDER = "realcli"
"""The custom provider id in ``openclaw.json`` (the model is ``realcli/<model id>``)."""
CONFIG_FILE = "openclaw.json"
STATE_DIR = "state"
"""OpenClaw's state directory, relative to the per-run home."""
MIN_MEMORY_MB = 8192
"""Floor of the agent sandbox's per-process data limit (RLIMIT_DATA): OpenClaw's Node
process with its worker threads maps 4.7 GB of data (1.3 GB resident) on a short run, and
V8 dies ("Failed to reserve virtual memory for CodeRange") under 4096."""
TAILER_FILE = "openclaw_tail.mjs"
"""The tailer, in the task folder (read-only at ``/run/realcli/task``)."""
CLI_TOOLS = ("read", "write", "edit", "apply_patch", "exec", "process")
"""The tools offered in ``cli_only`` mode (``tools.allow``)."""
OPENCLAW_TOOLS: dict[str, tuple[str, str]] = {
    "exec": ("shell", "exec: shell"),
    "bash": ("shell", "exec: shell"),
    "process": ("process", "exec: process"),
    "read": ("read_file", "fs: read"),
    "write": ("write_file", "fs: write"),
    "edit": ("edit_file", "fs: edit"),
    "apply_patch": ("apply_patch", "fs: patch"),
    "ls": ("list_dir", "fs: list"),
}
"""raw tool name -> (normalised name, atomic op)."""
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.MULTILINE)
_MODEL_FAILED = re.compile(r"request failed|HTTP \d{3}|rate.?limit", re.IGNORECASE)

TAILER_JS = r"""// realcli's OpenClaw session tailer (runs inside the sandbox with OpenClaw's Node).
// usage: node --no-warnings openclaw_tail.mjs STATE_DIR -- COMMAND [ARGS...]
// Starts COMMAND and, while it runs, prints every new row of OpenClaw's SQLite session
// stores under STATE_DIR/agents/*/agent/openclaw-agent.sqlite as one JSON line:
//   {"type":"openclaw.transcript"|"openclaw.trajectory","agent","session","seq","event"}
// then, once COMMAND has exited and the stores are drained:
//   {"type":"openclaw.exit","code":C,"signal":S,"stdout":"<COMMAND's stdout>"}
// and exits with COMMAND's status. Read-only: it never writes to a store.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { zstdDecompressSync } from "node:zlib";

const POLL_MS = 150;
const MAX_STDOUT = 16 * 1024 * 1024;
const sep = process.argv.indexOf("--");
if (sep < 3 || sep === process.argv.length - 1) {
  process.stderr.write("usage: openclaw_tail.mjs STATE_DIR -- COMMAND [ARGS...]\n");
  process.exit(2);
}
const stateDir = process.argv[2];
const command = process.argv.slice(sep + 1);
const seen = new Set();
const stores = new Map(); // path -> {db, ino, rowids}
let problems = 0;

function emit(record) {
  process.stdout.write(JSON.stringify(record) + "\n");
}

function problem(message) {
  if (problems++ < 20) emit({ type: "openclaw.tail_error", error: String(message).slice(0, 500) });
}

function databases() {
  const root = `${stateDir}/agents`;
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .map((agent) => [agent, `${root}/${agent}/agent/openclaw-agent.sqlite`])
    .filter(([, path]) => existsSync(path));
}

function open(path) {
  const ino = statSync(path).ino;
  let store = stores.get(path);
  if (store && store.ino === ino) return store;
  if (store) store.db.close();
  store = { db: new DatabaseSync(path, { readOnly: true }), ino, rowids: {} };
  stores.set(path, store);
  return store;
}

function decode(row) {
  if (typeof row.event_json === "string") return row.event_json;
  const bytes = Buffer.from(row.event_zstd);
  const size = Number(row.event_utf8_bytes);
  return zstdDecompressSync(bytes, { maxOutputLength: size }).toString("utf8");
}

const TABLES = {
  transcript:
    "SELECT rowid AS r, session_id, seq, event_json, event_zstd, event_utf8_bytes " +
    "FROM transcript_events WHERE rowid > ? ORDER BY rowid",
  trajectory:
    "SELECT rowid AS r, session_id, seq, event_json FROM trajectory_runtime_events " +
    "WHERE rowid > ? ORDER BY rowid",
};

function pollTable(agent, store, kind) {
  let rows;
  try {
    rows = store.db.prepare(TABLES[kind]).all(store.rowids[kind] ?? 0);
  } catch (err) {
    if (!/no such table|SQLITE_BUSY|database is locked/i.test(String(err))) problem(err);
    return;
  }
  for (const row of rows) {
    store.rowids[kind] = Math.max(store.rowids[kind] ?? 0, Number(row.r));
    const key = `${kind}\u0000${agent}\u0000${row.session_id}\u0000${row.seq}`;
    if (seen.has(key)) continue;
    let event;
    try {
      event = JSON.parse(decode(row));
    } catch (err) {
      problem(`${kind} ${row.session_id}#${row.seq}: ${err}`);
      continue;
    }
    seen.add(key);
    emit({ type: `openclaw.${kind}`, agent, session: row.session_id, seq: Number(row.seq), event });
  }
}

function poll() {
  for (const [agent, path] of databases()) {
    let store;
    try {
      store = open(path);
    } catch (err) {
      if (!/SQLITE_BUSY|database is locked|unable to open/i.test(String(err))) problem(err);
      continue;
    }
    pollTable(agent, store, "transcript");
    pollTable(agent, store, "trajectory");
  }
}

const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
let stdout = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  if (stdout.length < MAX_STDOUT) stdout += chunk;
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
const timer = setInterval(poll, POLL_MS);
child.on("error", (err) => problem(`cannot start ${command[0]}: ${err}`));
child.on("close", (code, signal) => {
  clearInterval(timer);
  poll();
  setTimeout(() => {
    poll();
    for (const store of stores.values()) store.db.close();
    emit({ type: "openclaw.exit", code, signal, stdout });
    process.exitCode = code ?? 143;
  }, POLL_MS);
});
"""
"""The tailer (see the module docstring); Node 24's ``node:sqlite`` and ``zlib`` zstd."""


def openclaw_config(
    *,
    base_url: str,
    model: str,
    tools: Iterable[str] = CLI_TOOLS,
    tool_timeout_s: float = 300,
    plugins: bool = True,
    skills: bool = False,
    background_ms: int | None = None,
    context_window: int = 200_000,
    max_tokens: int = 8192,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``openclaw.json`` for one run against the gateway at ``base_url`` (ends in ``/v1``)."""
    exec_tool: dict[str, Any] = {"timeoutSeconds": max(1, round(tool_timeout_s))}
    if background_ms is not None:
        exec_tool["backgroundMs"] = int(background_ms)
    zero = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}
    agent_defaults: dict[str, Any] = {"model": {"primary": f"{PROVIDER}/{model}"}}
    if not skills:
        agent_defaults["skills"] = []
    config: dict[str, Any] = {
        "update": {"checkOnStart": False},
        "telemetry": {"enabled": False},
        "models": {
            "mode": "replace",
            "providers": {
                PROVIDER: {
                    "baseUrl": base_url,
                    "apiKey": "realcli-gateway",
                    "api": "openai-completions",
                    "models": [
                        {
                            "id": model,
                            "name": model,
                            "reasoning": False,
                            "input": ["text"],
                            "cost": zero,
                            "contextWindow": int(context_window),
                            "maxTokens": int(max_tokens),
                        }
                    ],
                }
            },
        },
        "tools": {"toolSearch": False, "allow": list(tools), "exec": exec_tool},
        "agents": {"defaults": agent_defaults},
    }
    if not plugins:
        config["plugins"] = {"enabled": False}
    return deep_merge(config, extra or {})


# ----------------------------------------------------------------- native records
def read_records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The JSON-object lines of the tailer's stream (anything else is skipped)."""
    for line in lines:
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            yield record


def parse_envelope(stdout: str) -> dict[str, Any] | None:
    """OpenClaw's ``--json`` envelope from its stdout, which may carry other lines: the
    whole text, else the text from the first line that opens an object, else the last
    parseable object that starts a line."""
    text = stdout.strip()
    candidates = [text]
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("{")]
    candidates += ["\n".join(lines[i:]) for i in starts]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    decoder = json.JSONDecoder()
    for i in reversed(starts):
        try:
            value, _ = decoder.raw_decode("\n".join(lines[i:]))
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text") or ""))
            elif isinstance(block, dict):
                parts.append(f"[{block.get('type')}]")
        return "\n".join(parts)
    return "" if content is None else json.dumps(content, ensure_ascii=False)


def _is_model_reply(message: Mapping[str, Any]) -> bool:
    """An assistant row that is a model's answer (not OpenClaw's terminal-error row)."""
    return message.get("role") == "assistant" and message.get("stopReason") != "error"


@dataclass
class SessionSummary:
    """What the tailer's stream says about the session (for the fidelity check)."""

    model_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    tool_call_ids: list[str] = field(default_factory=list)
    tool_pool: list[str] | None = None
    errors: list[str] = field(default_factory=list)
    exit: dict[str, Any] | None = None


def summarize(records: Iterable[Mapping[str, Any]]) -> SessionSummary:
    """Model replies (assistant rows but OpenClaw's terminal-error rows) with their usage:
    tokens in = ``input`` + ``cacheRead`` + ``cacheWrite``; tool call ids in order; the tool
    pool of the first ``context.compiled`` trajectory event; terminal model errors."""
    out = SessionSummary()
    for record in records:
        kind = record.get("type")
        event = record.get("event")
        if kind == "openclaw.exit":
            out.exit = dict(record)
        if not isinstance(event, Mapping):
            continue
        if kind == "openclaw.trajectory" and event.get("type") == "context.compiled":
            tools = (event.get("data") or {}).get("tools")
            if out.tool_pool is None and isinstance(tools, list):
                out.tool_pool = [str(t.get("name")) for t in tools if isinstance(t, Mapping)]
        if kind != "openclaw.transcript" or event.get("type") != "message":
            continue
        message = event.get("message")
        if not isinstance(message, Mapping) or message.get("role") != "assistant":
            continue
        if not _is_model_reply(message):
            out.errors.append(str(message.get("errorMessage") or "model error"))
            continue
        out.model_calls += 1
        usage = message.get("usage") if isinstance(message.get("usage"), Mapping) else {}
        assert isinstance(usage, Mapping)
        out.tokens_in += sum(int(usage.get(k) or 0) for k in ("input", "cacheRead", "cacheWrite"))
        out.tokens_out += int(usage.get("output") or 0)
        for block in message.get("content") or []:
            if isinstance(block, Mapping) and block.get("type") == "toolCall":
                call_id = str(block.get("id"))
                if call_id not in out.tool_call_ids:
                    out.tool_call_ids.append(call_id)
    return out


# ----------------------------------------------------------------- transcript
class OpenClawTranscript(Transcript):
    """The tailer's stream -> ledger events (see the module docstring)."""

    tools = OPENCLAW_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.envelope: dict[str, Any] | None = None
        self.exit: dict[str, Any] | None = None
        self.model_errors: list[str] = []
        self.tool_pool: list[str] | None = None

    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "openclaw.transcript":
            self._transcript(record["event"])
        elif kind == "openclaw.trajectory":
            self._trajectory(record["event"])
        elif kind == "openclaw.exit":
            self._exit(record)
        elif kind == "openclaw.tail_error":
            self.problems.append(f"tailer: {record.get('error')}")

    def _transcript(self, event: Mapping[str, Any]) -> None:
        if event.get("type") != "message":
            return  # session header, model/thinking changes, custom entries
        message = event["message"]
        role = message.get("role")
        if role == "assistant":
            self._assistant(message)
        elif role == "toolResult":
            self._tool_result(message)

    def _assistant(self, message: Mapping[str, Any]) -> None:
        if not _is_model_reply(message):
            self.model_errors.append(str(message.get("errorMessage") or "model error"))
            return
        self.turns += 1
        if self.model_calls is not None:  # this reply's calls (failed attempts first)
            self.emit_calls(self.model_calls.take_turn())
        for block in message.get("content") or []:
            if not isinstance(block, Mapping):
                continue
            if block.get("type") == "text" and block.get("text"):
                self.ledger.emit(MessageEvent(seq=0, role="assistant", text=str(block["text"])))
            elif block.get("type") == "toolCall":
                self.tool_call(
                    str(block["id"]), str(block.get("name") or ""), block.get("arguments")
                )

    def _tool_result(self, message: Mapping[str, Any]) -> None:
        call_id = str(message["toolCallId"])
        details = message.get("details") if isinstance(message.get("details"), Mapping) else {}
        assert isinstance(details, Mapping)
        failed = message.get("isError") is True
        exit_code = details.get("exitCode")
        exit_code = (
            exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None
        )
        duration = details.get("durationMs")
        self.tool_result(
            call_id,
            _text_of(message.get("content")),
            ok=not failed and exit_code in (None, 0),
            exit_code=exit_code,
            duration_ms=float(duration) if isinstance(duration, int | float) else 0.0,
            touched=self._patched(call_id),
        )

    def _patched(self, call_id: str) -> tuple[str, ...] | None:
        """Files an ``apply_patch`` call names (None: the default, a ``path`` argument)."""
        raw_name, args = self._calls.get(call_id, ("", {}))
        if raw_name != "apply_patch":
            return None
        patch = args.get("input")
        names = _PATCH_FILE.findall(patch) if isinstance(patch, str) else []
        return tuple(dict.fromkeys(self.relative(n) for n in names))

    def _trajectory(self, event: Mapping[str, Any]) -> None:
        if event.get("type") == "context.compiled" and self.tool_pool is None:
            tools = (event.get("data") or {}).get("tools")
            if isinstance(tools, list):
                self.tool_pool = [str(t.get("name")) for t in tools if isinstance(t, Mapping)]

    def _exit(self, record: Mapping[str, Any]) -> None:
        self.flush_model_calls()
        self.exit = dict(record)
        stdout = record.get("stdout")
        self.envelope = parse_envelope(stdout) if isinstance(stdout, str) else None
        self.session_end = {
            "code": record.get("code"),
            "signal": record.get("signal"),
            "envelope": self.envelope,
        }


# ----------------------------------------------------------------- harness
@HARNESSES.register("openclaw")
class OpenClawHarness(AgentCliHarness):
    """OpenClaw's ``agent exec`` under the session tailer (see the module docstring)."""

    kind = "openclaw"
    MODES = frozenset({"cli_only"})
    agent = "openclaw"
    transcript_class = OpenClawTranscript
    permission_mode = "exec-full"
    Options = OpenClawOptions
    RECIPE = OPENCLAW

    def tools(self) -> tuple[str, ...]:
        tools = self._options().get("tools") or CLI_TOOLS
        if isinstance(tools, str):
            tools = tools.split(",")
        return tuple(str(t).strip() for t in tools if str(t).strip())

    def config(self, ctx: HarnessContext) -> dict[str, Any]:
        options = self._options()
        extra = options.get("config") or {}
        if not isinstance(extra, Mapping):
            raise ValueError("harness.options.config must be a mapping")
        background = options.get("background_ms")
        return openclaw_config(
            base_url=f"http://127.0.0.1:{ctx.gateway_port}/v1",
            model=ctx.model_id,
            tools=self.tools(),
            tool_timeout_s=self.spec.tool_timeout_s,
            plugins=bool(options.get("plugins", True)),
            skills=bool(options.get("skills", False)),
            background_ms=None if background is None else int(background),
            context_window=int(options.get("context_window", 200_000)),
            max_tokens=int(options.get("max_tokens", 8192)),
            extra=extra,
        )

    def prepare_home(self, ctx: HarnessContext, home: Path, install: AgentInstall) -> None:
        (home / STATE_DIR).mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.config(ctx), indent=2) + "\n"
        (home / CONFIG_FILE).write_text(text, encoding="utf-8")

    def sandbox(
        self, ctx: HarnessContext, install: AgentInstall, home: Path, task_dir: Path
    ) -> Sandbox:
        (task_dir / TAILER_FILE).write_text(TAILER_JS, encoding="utf-8")
        sandbox = super().sandbox(ctx, install, home, task_dir)
        if sandbox.options.memory_mb < MIN_MEMORY_MB:
            sandbox = sandbox.with_options(memory_mb=MIN_MEMORY_MB)
        return sandbox

    def environment(self, ctx: HarnessContext, install: AgentInstall) -> dict[str, str]:
        sandbox = ctx.sandbox
        path = sandbox.environment().get("PATH") if isinstance(sandbox, LocalSandbox) else None
        return {
            # OpenClaw runs itself with an absolute Node; agent commands keep the sandbox's
            # PATH first (its python/pytest), Node 24 last
            "PATH": f"{path or SYSTEM_PATH}:{self.node_bin(install)}",
            "SHELL": "/bin/bash",
            "OPENCLAW_NO_AUTO_UPDATE": "1",
            "OPENCLAW_OFFLINE": "1",
            "OPENCLAW_DISABLE_BONJOUR": "1",
            "NO_COLOR": "1",
        }

    def argv(self, ctx: HarnessContext, install: AgentInstall) -> list[str]:
        node = f"{self.node_bin(install)}/node"
        extra = [str(a) for a in self._options().get("extra_args") or []]
        state = f"{HOME_MOUNT}/{STATE_DIR}"
        return [
            node,
            "--no-warnings",
            f"{TASK_MOUNT}/{TAILER_FILE}",
            state,
            "--",
            node,
            str(install.entry),
            "agent",
            "exec",
            "--config",
            f"{HOME_MOUNT}/{CONFIG_FILE}",
            "--state-dir",
            state,
            "--cwd",
            ctx.workdir,
            "--model",
            f"{PROVIDER}/{ctx.model_id}",
            "--message-file",
            INSTRUCTION,
            "--json",
            "--timeout",
            "0",
            "--code-mode",
            "direct",
            *extra,
        ]

    def native_files(self, home: Path) -> list[Path]:
        files = [home / CONFIG_FILE]
        agents = home / STATE_DIR / "agents"
        for db in sorted(agents.glob("*/agent/openclaw-agent.sqlite")):
            files += [db, db.with_name(db.name + "-wal")]
        return [f for f in files if f.is_file()]

    def native_session(
        self, ctx: HarnessContext, kept: list[Path], transcript: Transcript
    ) -> NativeSession | None:
        assert isinstance(transcript, OpenClawTranscript)
        source = f"native/{self.spec.kind}/stdout.jsonl"
        path = self.native_folder(ctx) / "stdout.jsonl"
        with path.open(encoding="utf-8") as lines:
            summary = summarize(read_records(lines))
        problems = list(transcript.problems)
        if summary.exit is None:
            problems.append("the tailer did not finish (killed?): the session may be cut short")
        return NativeSession(
            source=source,
            model_calls=summary.model_calls,
            tokens_in=summary.tokens_in,
            tokens_out=summary.tokens_out,
            tool_call_ids=tuple(summary.tool_call_ids),
            problems=tuple(problems),
        )

    def modes(self, ctx: HarnessContext) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if ctx.mode != "cli_only":
            raise ValueError(f"openclaw supports mode cli_only, not {ctx.mode!r}")
        enforced = (
            f"tools restricted to {','.join(self.tools())} (tools.allow)",
            "no web, browser, canvas, messaging, sessions/subagents, cron, media, memory, "
            "gateway tools (not allowed)",
            "direct tool schemas: no Tool Search catalog (tools.toolSearch false), no Code Mode "
            "(--code-mode direct)",
            "no skills (agents.defaults.skills [])"
            if not self._options().get("skills", False)
            else "skills listed in the system prompt (option skills)",
            "no MCP servers (none configured)",
            "no update checks / telemetry / Bonjour (config, OPENCLAW_* env)",
            "network: loopback to the gateway only (sandbox)",
        )
        not_enforced = (
            "exec runs any program present in the sandbox (incl. background sessions)",
            "max_turns: OpenClaw has no turn limit (only the wall clock ends a run)",
            "output_limit: OpenClaw's own caps apply to exec/read output",
            "AGENTS.md / SOUL.md / IDENTITY.md in the workdir are injected into the system "
            "prompt ([MISSING] markers when absent)",
        )
        return enforced, not_enforced

    def ending(self, transcript: Transcript, exit_code: int | None) -> tuple[str | None, str]:
        assert isinstance(transcript, OpenClawTranscript)
        end = transcript.session_end
        if end is None:
            return None, "the tailer reported no exit (see stderr)"
        envelope = transcript.envelope or {}
        status = envelope.get("status")
        code = end.get("code")
        if code == 0 and status == "ok":
            return "done", ""
        error = envelope.get("error") if isinstance(envelope.get("error"), Mapping) else {}
        assert isinstance(error, Mapping)
        message = str(error.get("message") or "")
        if transcript.model_errors or (status == "error" and _MODEL_FAILED.search(message)):
            detail = message or "; ".join(transcript.model_errors)
            return "error", detail
        detail = f"openclaw exited {code} (signal {end.get('signal')}), status {status!r}"
        return None, f"{detail}: {message}" if message else detail
