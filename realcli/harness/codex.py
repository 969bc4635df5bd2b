"""CodexHarness: OpenAI's Codex CLI (native Rust binary from npm ``@openai/codex``), headless.

Codex speaks the OpenAI Responses API (``realcli.gateway.wire_responses``). Its ``exec --json``
stdout names items with its own ids (``item_0``...), not the call ids of the model's tool
calls; those are in its session file, the "rollout"
(``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl``), which Codex writes and
flushes line by line: every Responses item as sent or received (``response_item``: the
model's ``message``/``function_call``/``custom_tool_call`` items with their ``call_id``, the
``function_call_output``/``custom_tool_call_output`` results), one ``token_usage_record`` per
model response, and ``event_msg`` records (``item_completed`` with a command's exit code and
duration or a patch's changed files, ``task_complete``). So the agent runs under a small tap
(:func:`tap_main`, stdlib only, written to the per-run home, run with the system Python) that

1. builds the model catalog: ``codex debug models --bundled`` (the metadata shipped in the
   binary), the entry of the model id if it is a bundled one, else a copy of
   ``options.catalog_model`` renamed to the model id (so any gateway model gets the tools and
   instructions of a real Codex model, not Codex's degraded "fallback metadata"), patched
   with ``options.catalog_patch``; written to ``$CODEX_HOME/realcli-models.json``
   (``model_catalog_json``);
2. starts ``codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox
   -C <workdir> -m <model> -`` with the instruction on stdin;
3. prints one JSON line per rollout line (``{"type": "rollout", "record": ...}``), per stdout
   line of Codex (``{"type": "exec", "event": ...}``) and a last ``{"type": "tap_end",
   "exit_code": N, "max_turns": bool}``. That stream is ``native/codex/stdout.jsonl``; the
   rollout itself is kept under ``native/codex/home/.codex/sessions/``.

Codex has no turn limit in ``exec`` mode: the tap stops it (SIGTERM) once ``max_turns`` model
responses are recorded and the last one asked for tools (the run ends ``max_turns``).

``$CODEX_HOME`` is ``$HOME/.codex``; its ``config.toml`` points Codex at the gateway
(``wire_api = "responses"``, dummy key) and turns off whatever would reach beyond loopback or
widen the tool pool: web search, plugins/apps (a ``git ls-remote`` of the plugin marketplace
at startup), goals, sub-agents, ``request_user_input``; the update check and analytics.
Codex's own sandbox (landlock/seccomp/bwrap) is off: realcli's sandbox is the boundary.

Tool pool in ``cli_only`` (with the default ``catalog_model``): ``exec_command`` (``bash -lc``;
a command running past ``yield_time_ms``, at most 30 s, is left running and polled with
``write_stdin``), ``write_stdin``, ``apply_patch`` (free-form ``*** Begin Patch`` grammar),
``view_image``. Newer catalog models (``gpt-5.6-*``, ``gpt-6*``) are "code mode" models: one
``exec`` tool that runs JavaScript calling those tools; their nested calls are recorded with
Codex's ids (``exec-<uuid>``) after the ``exec`` call, and the replay backend cannot drive it.

Modes: ``hybrid`` adds the GUI MCP server (``mcp_servers.gui``, required; tools
``mcp__gui__<tool>``). ``gui_only`` also turns the shell and ``apply_patch`` off
(:data:`~realcli.harness.codex_config.GUI_ONLY_CONFIG`,
:data:`~realcli.harness.codex_config.GUI_ONLY_CATALOG_PATCH`) and ``view_image`` with them.

Options (``harness.options``): ``catalog_model`` (default ``gpt-5.5``), ``catalog_patch``
(merged into the catalog entry; default ``supports_search_tool: false`` (MCP tools offered
upfront, not behind ``tool_search``) and ``prefer_websockets: false``), ``max_retries``
(``request_max_retries`` and ``stream_max_retries`` of the provider; Codex's own defaults
are 4 and 5: 30 requests, ~25 s for a failing gateway), ``tools`` (extra tools:
``update_plan``, ``view_image``; default ``[view_image]``), ``config`` (a mapping
deep-merged into ``config.toml`` last), ``extra_args`` (appended to ``codex exec``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realcli.harness.base import HARNESSES, HarnessContext, NativeSession
from realcli.harness.cli_agent import HOME_MOUNT, INSTRUCTION, AgentCliHarness, deep_merge
from realcli.harness.codex_config import (
    CATALOG_FILE,
    CODEX_DIR,
    DEFAULT_CATALOG_PATCH,
    DUMMY_KEY,
    GUI_MCP_STARTUP_TIMEOUT_S,
    GUI_ONLY_CATALOG_PATCH,
    GUI_ONLY_CONFIG,
    KEY_ENV,
    OPTIONAL_TOOLS,
    codex_config,
    toml_dumps,
)
from realcli.harness.codex_tap import tap_main, tap_source
from realcli.harness.codex_transcript import (
    CODEX_TOOLS,
    CodexTranscript,
    read_rollout,
    rollout_summary,
)
from realcli.harness.install import CODEX, AgentInstall
from realcli.harness.options import CodexOptions
from realcli.harness.transcript import Transcript

__all__ = [
    "CATALOG_FILE",
    "CODEX_DIR",
    "CODEX_TOOLS",
    "KEY_ENV",
    "TAP_FILE",
    "CodexHarness",
    "CodexTranscript",
    "codex_config",
    "read_rollout",
    "rollout_summary",
    "tap_main",
    "tap_source",
    "toml_dumps",
]

TAP_FILE = ".realcli/codex_tap.py"
SYSTEM_PYTHON = "/usr/bin/python3"


@HARNESSES.register("codex")
class CodexHarness(AgentCliHarness):
    """``codex exec --json`` under the rollout tap (see the module docstring)."""

    kind = "codex"
    MODES = frozenset({"cli_only", "gui_only", "hybrid"})
    agent = "codex"
    transcript_class = CodexTranscript
    permission_mode = "bypass"
    Options = CodexOptions
    RECIPE = CODEX

    def tools(self, ctx: HarnessContext | None = None) -> tuple[str, ...]:
        """The optional tools offered (``view_image`` reads files: none in ``gui_only``)."""
        if ctx is not None and "cli" not in ctx.channels:
            return ()
        tools = self._options().get("tools", ["view_image"])
        if isinstance(tools, str):
            tools = tools.split(",")
        out = tuple(str(t).strip() for t in tools if str(t).strip())
        unknown = set(out) - set(OPTIONAL_TOOLS)
        if unknown:
            raise ValueError(
                f"harness.options.tools: unknown {sorted(unknown)}; optional codex tools: "
                f"{list(OPTIONAL_TOOLS)} (exec_command, write_stdin, apply_patch always)"
            )
        return out

    def catalog_patch(self, ctx: HarnessContext | None = None) -> dict[str, Any]:
        patch = self._options().get("catalog_patch", DEFAULT_CATALOG_PATCH)
        if not isinstance(patch, Mapping):
            raise ValueError("harness.options.catalog_patch must be a mapping")
        if ctx is not None and "cli" not in ctx.channels:  # no shell, no apply_patch
            return {**patch, **GUI_ONLY_CATALOG_PATCH}
        return dict(patch)

    def config(self, ctx: HarnessContext) -> dict[str, Any]:
        options = self._options()
        extra = options.get("config") or {}
        if not isinstance(extra, Mapping):
            raise ValueError("harness.options.config must be a mapping")
        if "gui" in ctx.channels:  # the GUI MCP server (stdio): tools mcp__gui__<tool>
            command, args = self.gui_mcp_server(ctx)
            # required: Codex waits for the server before its first request and exits
            # ("required MCP servers failed to initialize") if it cannot start in time;
            # optional servers may come up after the session began, so its first requests
            # would lack the GUI tools
            server = {
                "command": command,
                "args": args,
                "required": True,
                "startup_timeout_sec": GUI_MCP_STARTUP_TIMEOUT_S,
            }
            gui: dict[str, Any] = {"mcp_servers": {"gui": server}}
            if "cli" not in ctx.channels:
                gui = deep_merge(gui, GUI_ONLY_CONFIG)
            extra = deep_merge(gui, extra)
        return codex_config(
            base_url=f"http://127.0.0.1:{ctx.gateway_port}/v1",
            model=ctx.model_id,
            catalog=f"{HOME_MOUNT}/{CODEX_DIR}/{CATALOG_FILE}",
            max_retries=int(options.get("max_retries", 1)),
            tools=self.tools(ctx),
            extra=extra,
        )

    def prepare_home(self, ctx: HarnessContext, home: Path, install: AgentInstall) -> None:
        codex = home / CODEX_DIR
        codex.mkdir(parents=True, exist_ok=True)
        (codex / "config.toml").write_text(toml_dumps(self.config(ctx)), encoding="utf-8")
        tap = home / TAP_FILE
        tap.parent.mkdir(parents=True, exist_ok=True)
        tap.write_text(tap_source(), encoding="utf-8")

    def environment(self, ctx: HarnessContext, install: AgentInstall) -> dict[str, str]:
        return {
            "CODEX_HOME": f"{HOME_MOUNT}/{CODEX_DIR}",
            KEY_ENV: DUMMY_KEY,
            "NO_COLOR": "1",
        }

    def argv(self, ctx: HarnessContext, install: AgentInstall) -> list[str]:
        options = self._options()
        extra_args = options.get("extra_args") or []
        if not isinstance(extra_args, list):
            raise ValueError("harness.options.extra_args must be a list")
        return [
            SYSTEM_PYTHON,
            "-I",
            f"{HOME_MOUNT}/{TAP_FILE}",
            "--codex-home",
            f"{HOME_MOUNT}/{CODEX_DIR}",
            "--model",
            ctx.model_id,
            "--catalog-model",
            str(options.get("catalog_model", "gpt-5.5")),
            "--catalog-patch",
            json.dumps(self.catalog_patch(ctx)),
            "--catalog-file",
            f"{HOME_MOUNT}/{CODEX_DIR}/{CATALOG_FILE}",
            "--max-turns",
            str(self.spec.max_turns),
            "--prompt-file",
            INSTRUCTION,
            "--",
            str(install.entry),
            "exec",
            "--json",
            "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox",
            "-C",
            ctx.workdir,
            "-m",
            ctx.model_id,
            *[str(a) for a in extra_args],
            "-",
        ]

    def native_files(self, home: Path) -> list[Path]:
        codex = home / CODEX_DIR
        files = sorted((codex / "sessions").rglob("rollout-*.jsonl"))
        files += [codex / "config.toml", codex / CATALOG_FILE]
        return [f for f in files if f.is_file()]

    def native_session(
        self, ctx: HarnessContext, kept: list[Path], transcript: Transcript
    ) -> NativeSession | None:
        assert isinstance(transcript, CodexTranscript)
        rollouts = [p for p in kept if p.name.startswith("rollout-")]
        base = ctx.native_dir.parent
        problems = list(transcript.problems)
        if not rollouts:
            problems.append("codex wrote no rollout (session) file")
            return NativeSession(source=f"native/{self.spec.kind}", problems=tuple(problems))
        if len(rollouts) > 1:
            problems.append(f"{len(rollouts)} rollout files (sub-agents?): all counted")
        records = [r for path in rollouts for r in read_rollout(path)]
        calls, tokens_in, tokens_out, ids = rollout_summary(records)
        if transcript.session_end is None:
            problems.append("the tap did not finish (killed?)")
        return NativeSession(
            source=", ".join(str(p.relative_to(base)) for p in rollouts),
            model_calls=calls,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            tool_call_ids=ids,
            problems=tuple(problems),
        )

    def modes(self, ctx: HarnessContext) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if ctx.mode not in self.MODES:
            raise ValueError(f"codex supports modes {sorted(self.MODES)}, not {ctx.mode!r}")
        catalog = self._options().get("catalog_model", "gpt-5.5")
        metadata = f"model metadata of {catalog} unless the model is a bundled one"
        gui = (
            "GUI tools: the gui MCP server only (mcp_servers.gui, stdio, required: Codex "
            "starts no session without it)"
        )
        common = (
            "no web_search, tool_search, plugins/apps, goals, sub-agents, request_user_input",
            "Codex's own sandbox and approvals off (realcli's sandbox is the boundary)",
            "network: loopback to the gateway only (sandbox)",
            f"max_turns: the tap stops codex after {self.spec.max_turns} model responses",
        )
        if "cli" not in ctx.channels:  # gui_only
            enforced = (
                "no shell, exec_command, write_stdin, apply_patch or view_image (config.toml "
                "features.shell_tool/unified_exec false; catalog shell_type disabled, "
                f"apply_patch_tool_type null; {metadata})",
                gui,
                *common,
            )
            not_enforced: tuple[str, ...] = (
                "Codex adds its MCP resource tools (list_mcp_resources, "
                "list_mcp_resource_templates, read_mcp_resource) with any MCP server; the gui "
                "server has no resources",
                "AGENTS.md files in the workdir are injected into the prompt; bundled skills "
                "listed (no tool can read them)",
                "automatic context compaction (a side model call) near the context window",
            )
            return enforced, not_enforced
        tools = ", ".join(("exec_command", "write_stdin", "apply_patch", *self.tools(ctx)))
        enforced = (
            f"tools offered: {tools} (config.toml; {metadata})",
            gui if "gui" in ctx.channels else "no MCP servers configured",
            *common,
        )
        not_enforced = (
            "tool_timeout_s: exec_command has no kill timeout (it yields after at most 30 s "
            "and the command keeps running)",
            "output_limit: Codex's own output budget applies (max_output_tokens, 10000 tokens)",
            "exec_command runs any program present in the sandbox (incl. background processes)",
            "AGENTS.md files in the workdir are injected into the prompt; bundled skills listed",
            "automatic context compaction (a side model call) near the context window",
        )
        return enforced, not_enforced

    def ending(self, transcript: Transcript, exit_code: int | None) -> tuple[str | None, str]:
        assert isinstance(transcript, CodexTranscript)
        end = transcript.session_end
        if end is None:
            return None, ""
        if end.get("max_turns"):
            return "max_turns", f"stopped after {self.spec.max_turns} model responses"
        if transcript.failed is not None:
            return "error", transcript.failed
        code = end.get("exit_code")
        if code == 0:
            return "done", ""
        return None, ""
