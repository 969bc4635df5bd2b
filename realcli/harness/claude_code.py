"""ClaudeCodeHarness: Anthropic's Claude Code CLI (native Bun binary), headless.

Runs ``claude -p --output-format stream-json --verbose --permission-mode bypassPermissions
--tools Bash,Read,Write,Edit,Glob,Grep --strict-mcp-config --max-turns N --model <model> --
<instruction>`` in the sandbox (the instruction inline: at most 128 KiB, Linux's limit for one
argument), against the gateway's Anthropic Messages endpoint
(``ANTHROPIC_BASE_URL=http://127.0.0.1:PORT``; Claude Code appends ``/v1/messages``).

Environment (the sandbox's is otherwise clean): ``CLAUDE_CONFIG_DIR`` in the per-run home
(session files land in ``$CLAUDE_CONFIG_DIR/projects/<cwd with / as ->/<session>.jsonl``),
``IS_SANDBOX=1`` (bypassPermissions is refused as root otherwise), telemetry / autoupdate /
nonessential traffic off, ``ENABLE_TOOL_SEARCH=false`` (no deferred-tool placeholder in the
pool), ``CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1`` (else Bash refuses commands that start with
``sleep N`` and offers background shells), ``CLAUDE_CODE_MAX_RETRIES`` (option
``max_retries``), ``BASH_DEFAULT_TIMEOUT_MS`` = ``tool_timeout_s`` and
``BASH_MAX_OUTPUT_LENGTH`` = ``output_limit``.

stdout (stream-json) is one JSON object per line: ``system/init`` (tools, model),
``system/api_retry``, ``assistant`` (one line per content block; ``message.id`` is the
gateway's reply id), ``user`` (``tool_result`` blocks), and a final ``result``
(``subtype``: ``success``/``error_max_turns``/..., ``terminal_reason``, ``is_error``).

Modes: ``hybrid`` adds the GUI MCP server (``--mcp-config``, tools ``mcp__gui__<tool>``);
``gui_only`` passes ``--tools ""`` (no built-in tool at all) with that server only.

Options (``harness.options``): ``max_retries`` (default 2), ``tools`` (default the six above;
ignored in ``gui_only``), ``extra_args`` (list of extra CLI arguments, default none).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from realcli.harness.base import HARNESSES, HarnessContext, NativeSession
from realcli.harness.cli_agent import HOME_MOUNT, AgentCliHarness
from realcli.harness.install import CLAUDE_CODE, AgentInstall
from realcli.harness.options import ClaudeCodeOptions
from realcli.harness.transcript import Transcript, json_objects

__all__ = [
    "CLAUDE_TOOLS",
    "CLI_TOOLS",
    "ClaudeCodeHarness",
    "ClaudeCodeTranscript",
    "read_session",
]

CONFIG_DIR = ".claude"
"""``CLAUDE_CONFIG_DIR``, relative to the per-run home."""
CLI_TOOLS = ("Bash", "Read", "Write", "Edit", "Glob", "Grep")
"""The built-in tools offered in ``cli_only`` mode (``--tools``)."""
CLAUDE_TOOLS: dict[str, tuple[str, str]] = {
    "Bash": ("shell", "exec: shell"),
    "Read": ("read_file", "fs: read"),
    "Write": ("write_file", "fs: write"),
    "Edit": ("edit_file", "fs: edit"),
    "Glob": ("glob", "fs: search"),
    "Grep": ("grep", "fs: search"),
    "NotebookEdit": ("notebook_edit", "fs: edit"),
}
"""raw tool name -> (normalised name, atomic op)."""
GUI_MCP_TIMEOUT_MS = 120_000
"""``MCP_TIMEOUT`` in the GUI modes: how long Claude Code waits for the GUI MCP server to start
before it goes on without it (its init record then says ``"status": "failed"``; on a loaded
machine the shorter default was seen to run out)."""
SYNTHETIC_MODEL = "<synthetic>"
"""``message.model`` of the messages Claude Code makes up itself (e.g. "API Error: ...")."""
_EXIT_CODE = re.compile(r"^Exit code (\d+)")
_ENDINGS = {"success": "done", "error_max_turns": "max_turns"}


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", "")) if b.get("type") == "text" else f"[{b.get('type')}]"
            for b in content
            if isinstance(b, dict)
        )
    return "" if content is None else json.dumps(content)


SESSION_ID_FILE = "session_id"
"""Under the run's state folder: the session a resumed session continues."""


class ClaudeCodeTranscript(Transcript):
    """Claude Code's stream-json stdout -> ledger events."""

    tools = CLAUDE_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.init: dict[str, Any] | None = None
        self.reply_ids: list[str] = []
        self.retries = 0

    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "system":
            if record.get("subtype") == "init":
                self.init = record
                for server in record.get("mcp_servers") or []:
                    if isinstance(server, dict) and server.get("status") != "connected":
                        status = server.get("status")
                        self.problems.append(f"MCP server {server.get('name')!r}: {status}")
            elif record.get("subtype") == "api_retry":
                self.retries += 1
        elif kind == "assistant":
            self._assistant(record["message"])
        elif kind == "user":
            self._user(record["message"], record.get("tool_use_result"))
        elif kind == "result":
            self.calls_before(None)
            self.session_end = record
        # other records (stream events, hooks, rate limit notices...) carry no ledger event

    def _assistant(self, message: dict[str, Any]) -> None:
        if message.get("model") == SYNTHETIC_MODEL:
            return  # Claude Code's own error text, not a model reply
        reply_id = message.get("id")
        if isinstance(reply_id, str) and reply_id not in self.reply_ids:
            self.reply_ids.append(reply_id)
            self.turns = len(self.reply_ids)
        for block in message["content"]:
            if block.get("type") == "text" and block.get("text"):
                self.message(block["text"])
            elif block.get("type") == "tool_use":
                self.tool_call(str(block["id"]), str(block.get("name") or ""), block.get("input"))

    def _user(self, message: dict[str, Any], meta: Any) -> None:
        content = message.get("content")
        if not isinstance(content, list):
            return  # a prompt echo
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            call_id = str(block["tool_use_id"])
            output = _result_text(block.get("content"))
            failed = block.get("is_error") is True
            raw_name = self._calls.get(call_id, ("", {}))[0]
            exit_code: int | None = None
            if raw_name == "Bash":
                match = _EXIT_CODE.match(output)
                exit_code = int(match.group(1)) if match else (None if failed else 0)
            self.tool_result(call_id, output, ok=not failed, exit_code=exit_code)


def read_session(paths: list[Path]) -> tuple[int, int, int, list[str], list[str]]:
    """``(model calls, tokens in, tokens out, tool call ids, tool pool)`` of Claude Code
    session files: one model call per distinct assistant ``message.id`` (made-up
    ``<synthetic>`` messages excluded) with its last usage; tokens in = ``input_tokens`` +
    cache reads + cache writes; the tool pool of the first ``api-request-shape`` record."""
    usage: dict[str, dict[str, Any]] = {}
    call_ids: list[str] = []
    pool: list[str] = []
    for path in paths:
        for record in json_objects(path.read_text(encoding="utf-8").splitlines()):
            if record.get("type") == "api-request-shape" and not pool:
                tools = (record.get("shape") or {}).get("tools") or []
                pool = [str(t.get("name")) for t in tools if isinstance(t, dict)]
            if record.get("type") != "assistant" or record.get("isSidechain"):
                continue
            message = record.get("message") or {}
            if message.get("model") == SYNTHETIC_MODEL or not isinstance(message.get("id"), str):
                continue
            usage[message["id"]] = message.get("usage") or {}
            for block in message.get("content") or []:
                is_call = isinstance(block, dict) and block.get("type") == "tool_use"
                if is_call and str(block.get("id")) not in call_ids:
                    call_ids.append(str(block.get("id")))
    tokens_in = sum(
        int(u.get("input_tokens") or 0)
        + int(u.get("cache_read_input_tokens") or 0)
        + int(u.get("cache_creation_input_tokens") or 0)
        for u in usage.values()
    )
    tokens_out = sum(int(u.get("output_tokens") or 0) for u in usage.values())
    return len(usage), tokens_in, tokens_out, call_ids, pool


@HARNESSES.register("claude_code")
class ClaudeCodeHarness(AgentCliHarness):
    """Claude Code in headless print mode (see the module docstring)."""

    kind = "claude_code"
    MODES = frozenset({"cli_only", "gui_only", "hybrid"})
    agent = "claude_code"
    transcript_class = ClaudeCodeTranscript
    resumes = True
    permission_mode = "bypassPermissions"
    Options = ClaudeCodeOptions
    RECIPE = CLAUDE_CODE

    def tools(self, ctx: HarnessContext | None = None) -> tuple[str, ...]:
        """The built-in tools offered (``--tools``): none in ``gui_only``."""
        if ctx is not None and "cli" not in ctx.channels:
            return ()
        tools = self._options().get("tools", CLI_TOOLS)
        return tuple(str(t) for t in tools)

    def prepare_home(self, ctx: HarnessContext, home: Path, install: AgentInstall) -> None:
        (home / CONFIG_DIR).mkdir(parents=True, exist_ok=True)

    def environment(self, ctx: HarnessContext, install: AgentInstall) -> dict[str, str]:
        retries = int(self._options().get("max_retries", 2))
        gui = {"MCP_TIMEOUT": str(GUI_MCP_TIMEOUT_MS)} if "gui" in ctx.channels else {}
        return {
            **gui,
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{ctx.gateway_port}",
            "ANTHROPIC_API_KEY": "realcli-gateway",
            "CLAUDE_CONFIG_DIR": f"{HOME_MOUNT}/{CONFIG_DIR}",
            "IS_SANDBOX": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "ENABLE_TOOL_SEARCH": "false",
            "CLAUDE_CODE_DISABLE_BACKGROUND_TASKS": "1",
            "CLAUDE_CODE_MAX_RETRIES": str(retries),
            "BASH_DEFAULT_TIMEOUT_MS": str(int(self.spec.tool_timeout_s * 1000)),
            "BASH_MAX_OUTPUT_LENGTH": str(self.spec.output_limit),
        }

    def argv(self, ctx: HarnessContext, install: AgentInstall) -> list[str]:
        extra = [str(a) for a in self._options().get("extra_args", [])]
        return [
            str(install.entry),
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--permission-mode",
            "bypassPermissions",
            "--tools",
            ",".join(self.tools(ctx)),  # "" turns every built-in tool off
            "--strict-mcp-config",
            *self._gui_args(ctx),
            "--max-turns",
            str(self.spec.max_turns),
            "--model",
            ctx.model_id,
            *extra,
            *self._resume_args(ctx),
            "--",  # the instruction may start with "-"; --tools takes several values
            ctx.instruction,
        ]

    def _resume_args(self, ctx: HarnessContext) -> list[str]:
        """``--resume <session id>`` to continue the run's previous session (protocols)."""
        if not ctx.resume or ctx.state_dir is None:
            return []
        saved = ctx.state_dir / self.spec.kind / SESSION_ID_FILE
        return ["--resume", saved.read_text().strip()] if saved.is_file() else []

    def remember(self, state: Path, transcript: Transcript) -> None:
        assert isinstance(transcript, ClaudeCodeTranscript)
        session_id = (transcript.init or {}).get("session_id")
        if isinstance(session_id, str) and session_id:
            (state / SESSION_ID_FILE).write_text(session_id, encoding="utf-8")

    def _gui_args(self, ctx: HarnessContext) -> list[str]:
        """The GUI MCP server (``mcp__gui__<tool>``) for a mode with the gui channel."""
        if "gui" not in ctx.channels:
            return []
        command, args = self.gui_mcp_server(ctx)
        config = {"mcpServers": {"gui": {"type": "stdio", "command": command, "args": args}}}
        return ["--mcp-config", json.dumps(config)]

    def native_files(self, home: Path) -> list[Path]:
        projects = home / CONFIG_DIR / "projects"
        if not projects.is_dir():
            return []
        # the sessions first, then anything nested under them (subagent sidechains)
        return sorted(projects.rglob("*.jsonl"), key=lambda p: (len(p.parts), str(p)))

    def native_session(
        self, ctx: HarnessContext, kept: list[Path], transcript: Transcript
    ) -> NativeSession | None:
        native = ctx.native_dir.parent
        source = ", ".join(str(p.relative_to(native)) for p in kept) or "(no session file)"
        if not kept:
            return NativeSession(source=source, problems=("Claude Code wrote no session file",))
        calls, tokens_in, tokens_out, call_ids, _ = read_session(kept)
        return NativeSession(
            source=source,
            model_calls=calls,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            tool_call_ids=tuple(call_ids),
        )

    def modes(self, ctx: HarnessContext) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if ctx.mode not in self.MODES:
            raise ValueError(f"claude_code supports modes {sorted(self.MODES)}, not {ctx.mode!r}")
        mcp = (
            "GUI tools: the gui MCP server only (mcp__gui__*, --strict-mcp-config)"
            if "gui" in ctx.channels
            else "no MCP servers (--strict-mcp-config, none configured)"
        )
        tools = self.tools(ctx)
        builtin = (
            f"built-in tools restricted to {','.join(tools)} (--tools)"
            if tools
            else 'no built-in tools: no Bash, Read, Write, Edit, Glob, Grep (--tools "")'
        )
        enforced = (
            builtin,
            mcp,
            "no deferred tools / ToolSearch (ENABLE_TOOL_SEARCH=false)",
            "no web fetch/search, subagents, skills tool, background shells (not offered)",
            "network: loopback to the gateway only (sandbox)",
        )
        not_enforced = (
            ("Bash runs any program present in the sandbox",) if "Bash" in tools else ()
        ) + ("skills and slash commands are still described in the system prompt",)
        return enforced, not_enforced

    def ending(self, transcript: Transcript, exit_code: int | None) -> tuple[str | None, str]:
        end = transcript.session_end
        if end is None:
            return None, ""
        subtype = str(end.get("subtype") or "")
        errors = end.get("errors")
        detail = "; ".join(str(e) for e in errors) if isinstance(errors, list) else ""
        if end.get("terminal_reason") == "api_error" or (
            end.get("is_error") is True and end.get("api_error_status") is not None
        ):
            return "error", str(end.get("result") or detail or "API error")
        reason = _ENDINGS.get(subtype)
        if reason == "done" and end.get("is_error") is True:
            return None, str(end.get("result") or detail)
        if reason is None:
            return None, f"result {subtype}: {detail}"
        return reason, detail
