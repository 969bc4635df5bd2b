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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realcli.harness.base import HARNESSES, HarnessContext, NativeSession
from realcli.harness.cli_agent import HOME_MOUNT, INSTRUCTION, TASK_MOUNT, AgentCliHarness
from realcli.harness.install import OPENCLAW, AgentInstall
from realcli.harness.openclaw_config import (
    CLI_TOOLS,
    CONFIG_FILE,
    GUI_SERVER,
    GUI_TOOLS,
    PROVIDER,
    STATE_DIR,
    gui_server,
    openclaw_config,
)
from realcli.harness.openclaw_tap import TAILER_FILE, TAILER_JS
from realcli.harness.openclaw_transcript import (
    OPENCLAW_TOOLS,
    OpenClawTranscript,
    SessionSummary,
    parse_envelope,
    read_records,
    summarize,
)
from realcli.harness.options import OpenClawOptions
from realcli.harness.transcript import Transcript
from realcli.sandbox.base import Sandbox
from realcli.sandbox.neutral import SYSTEM_PATH

__all__ = [
    "CLI_TOOLS",
    "CONFIG_FILE",
    "GUI_TOOLS",
    "MIN_MEMORY_MB",
    "OPENCLAW_TOOLS",
    "PROVIDER",
    "STATE_DIR",
    "TAILER_FILE",
    "TAILER_JS",
    "OpenClawHarness",
    "OpenClawTranscript",
    "SessionSummary",
    "openclaw_config",
    "parse_envelope",
    "read_records",
    "summarize",
]

MIN_MEMORY_MB = 8192
"""Floor of the agent sandbox's per-process data limit (RLIMIT_DATA): OpenClaw's Node
process with its worker threads maps 4.7 GB of data (1.3 GB resident) on a short run, and
V8 dies ("Failed to reserve virtual memory for CodeRange") under 4096."""
_MODEL_FAILED = re.compile(r"request failed|HTTP \d{3}|rate.?limit", re.IGNORECASE)


# ----------------------------------------------------------------- harness
@HARNESSES.register("openclaw")
class OpenClawHarness(AgentCliHarness):
    """OpenClaw's ``agent exec`` under the session tailer (see the module docstring)."""

    kind = "openclaw"
    MODES = frozenset({"cli_only", "gui_only", "hybrid"})
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

    def allowed(self, ctx: HarnessContext) -> tuple[str, ...]:
        """``tools.allow`` for the run's mode: the CLI tools (:meth:`tools`) when the mode has
        the cli channel, the GUI MCP server's tools when it has the gui channel."""
        cli = self.tools() if "cli" in ctx.channels else ()
        return (*cli, *(GUI_TOOLS if "gui" in ctx.channels else ()))

    def config(self, ctx: HarnessContext) -> dict[str, Any]:
        options = self._options()
        extra = options.get("config") or {}
        if not isinstance(extra, Mapping):
            raise ValueError("harness.options.config must be a mapping")
        background = options.get("background_ms")
        servers = {}
        if "gui" in ctx.channels:  # the GUI MCP server (stdio): tools gui__<tool>
            servers[GUI_SERVER] = gui_server(*self.gui_mcp_server(ctx))
        return openclaw_config(
            base_url=f"http://127.0.0.1:{ctx.gateway_port}/v1",
            model=ctx.model_id,
            tools=self.allowed(ctx),
            mcp_servers=servers,
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
        path = ctx.sandbox.command_path()
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
        cli, gui = "cli" in ctx.channels, "gui" in ctx.channels
        if not (cli or gui):
            raise ValueError(f"openclaw: mode {ctx.mode!r} has neither the cli nor the gui channel")
        enforced = [
            f"tools restricted to {','.join(self.allowed(ctx))} (tools.allow)",
            "no web, browser, canvas, messaging, sessions/subagents, cron, media, memory, "
            "gateway tools (not allowed)",
            "direct tool schemas: no Tool Search catalog (tools.toolSearch false), no Code Mode "
            "(--code-mode direct)",
            "no skills (agents.defaults.skills [])"
            if not self._options().get("skills", False)
            else "skills listed in the system prompt (option skills)",
            "GUI tools: the gui MCP server only (mcp.servers.gui, stdio; gui__<tool>)"
            if gui
            else "no MCP servers (none configured)",
            "no update checks / telemetry / Bonjour (config, OPENCLAW_* env)",
            "network: loopback to the gateway only (sandbox)",
        ]
        if not cli:
            enforced.append(
                "no shell or file tools: exec, process, read, write, edit, apply_patch not allowed"
            )
        not_enforced = [
            "max_turns: OpenClaw has no turn limit (only the wall clock ends a run)",
            "AGENTS.md / SOUL.md / IDENTITY.md in the workdir are injected into the system "
            "prompt ([MISSING] markers when absent)",
        ]
        if cli:
            not_enforced[:0] = [
                "exec runs any program present in the sandbox (incl. background sessions)",
                "output_limit: OpenClaw's own caps apply to exec/read output",
            ]
        return tuple(enforced), tuple(not_enforced)

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
