"""OpenHandsHarness: the OpenHands CLI (PyPI ``openhands``, on the OpenHands SDK), headless.

The agent runs as::

    python -u -I $HOME/.realcli/openhands_launch.py --max-iterations N
        --instruction-file /run/realcli/task/instruction.md -- --headless --json

The launcher (:func:`launch_main`, stdlib only, written to the per-run home and run with
OpenHands's own Python) reads the instruction and calls the CLI's entry point as
``openhands --headless --json --task=<instruction>``; the CLI has no max-turns flag, so the
launcher sets the SDK's own per-run iteration limit (``max_iteration_per_run``, one LLM call
per iteration; default 500) to ``max_turns`` and changes nothing else. ``--headless``
approves every action (the CLI's NeverConfirm policy); ``--json`` prints one JSON object
per conversation event on stdout (``MessageEvent``, ``ActionEvent`` with the model's
``tool_call_id``, ``ObservationEvent``, ``AgentErrorEvent``, ``ConversationErrorEvent``),
mixed with a few human lines (kept, not parsed). That stream is
``native/openhands/stdout.jsonl``.

The model and everything else come from ``$HOME/.openhands/agent_settings.json`` (a
serialized SDK ``Agent``, see :func:`agent_settings`): the gateway as an OpenAI-compatible
endpoint (``openai/<model>``, litellm, Chat Completions, non-streaming), a dummy key,
``num_retries`` attempts per model call (the SDK's ``stop_after_attempt``: 0 and 1 both mean
one; each attempt is up to 3 HTTP requests, the OpenAI client inside litellm retries twice
on its own), ``max_message_chars`` = ``output_limit`` (the
longest tool output the model sees), no condenser (it would make summary calls of its own
after 80 events), and the tool pool: ``filter_tools_regex`` keeps ``terminal`` and
``file_editor`` of the CLI's tools (dropping ``task_tracker`` and ``task``, the sub-agent
launcher), plus the SDK's built-in ``finish`` and ``think``.

The session files are ``$HOME/.openhands/conversations/<id>/``: ``events/event-NNNNN-*.json``
(the same events, plus the system prompt and the tool pool in ``event-00000``) and
``base_state.json`` (end status; token usage of every answered LLM call, equal to the
gateway's). They are kept under ``native/openhands/home/``.

Startup tries the network and fails fast in the sandbox (no switch for either): a
``git clone`` of the public skills repository and a PyPI version check.
``LITELLM_LOCAL_MODEL_COST_MAP`` stops litellm's price-map download.

Limits: ``max_turns`` LLM calls (then ``ConversationErrorEvent MaxIterationsReached``: the
run ends ``max_turns``); ``output_limit`` as above; ``tool_timeout_s`` is not applied
(OpenHands's terminal has a per-call ``timeout`` the model sets, and returns after 30 s
without new output while the command keeps running). The CLI exits 0 even when it gave up
on a model error: the ending is read from the events and ``base_state.json``.

Modes: with the gui channel ``$HOME/.openhands/mcp.json`` holds the GUI MCP server (its tools
renamed ``gui_<tool>``, :func:`~realcli.harness.openhands_config.mcp_settings`) and the regex
keeps them too; ``gui_only`` keeps only them (no terminal, no file_editor).

Options (``harness.options``): ``tools`` (CLI tools kept, default ``[terminal,
file_editor]``), ``builtin_tools`` (SDK built-ins, default ``[FinishTool, ThinkTool]``),
``num_retries`` (attempts, default 2), ``condenser`` (default false: true keeps OpenHands's
LLM summarizing condenser), ``agent`` (a mapping deep-merged into
``agent_settings.json`` last).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realcli.harness.base import HARNESSES, HarnessContext, NativeSession
from realcli.harness.cli_agent import HOME_MOUNT, INSTRUCTION, AgentCliHarness
from realcli.harness.install import OPENHANDS, AgentInstall
from realcli.harness.openhands_config import (
    CLI_TOOLS,
    DEFAULT_BUILTINS,
    GUI_TOOLS,
    agent_settings,
    mcp_settings,
)
from realcli.harness.openhands_launch import launch_main, launch_source
from realcli.harness.openhands_transcript import (
    FILE_EDITOR_OPS,
    OPENHANDS_TOOLS,
    OpenHandsTranscript,
    read_events,
)
from realcli.harness.options import OpenHandsOptions
from realcli.harness.transcript import Transcript

__all__ = [
    "CLI_TOOLS",
    "DEFAULT_BUILTINS",
    "FILE_EDITOR_OPS",
    "GUI_TOOLS",
    "OPENHANDS_TOOLS",
    "OpenHandsHarness",
    "OpenHandsTranscript",
    "agent_settings",
    "launch_main",
    "launch_source",
    "mcp_settings",
    "read_events",
]

CONVERSATIONS = ".openhands/conversations"
"""Where the CLI keeps its conversations, relative to the per-run home."""
SETTINGS_FILE = ".openhands/agent_settings.json"
MCP_FILE = ".openhands/mcp.json"
"""The CLI's MCP servers (``list_enabled_servers``: it replaces the settings' ``mcp_config``)."""
LAUNCH_FILE = ".realcli/openhands_launch.py"
MAX_ITERATIONS = "MaxIterationsReached"
ENDED = frozenset({"finished", "error", "stuck"})
"""``execution_status`` values of a conversation that ended (its usage totals are final)."""
OPTION_NAMES = frozenset({"tools", "builtin_tools", "num_retries", "condenser", "agent"})


@HARNESSES.register("openhands")
class OpenHandsHarness(AgentCliHarness):
    """The OpenHands CLI's ``--headless --json`` mode (see the module docstring)."""

    kind = "openhands"
    MODES = frozenset({"cli_only", "gui_only", "hybrid"})
    agent = "openhands"
    transcript_class = OpenHandsTranscript
    permission_mode = "always-approve"
    Options = OpenHandsOptions
    RECIPE = OPENHANDS

    def _names(self, key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        value = self._options().get(key, default)
        if isinstance(value, str):
            value = value.split(",")
        return tuple(str(v).strip() for v in value if str(v).strip())

    def tools(self, ctx: HarnessContext | None = None) -> tuple[str, ...]:
        """The CLI tools kept (terminal, file_editor): none in ``gui_only``."""
        if ctx is not None and "cli" not in ctx.channels:
            return ()
        return self._names("tools", CLI_TOOLS)

    def gui_tools(self, ctx: HarnessContext) -> tuple[str, ...]:
        """The GUI MCP server's tools as OpenHands names them, in a mode with the gui channel."""
        return GUI_TOOLS if "gui" in ctx.channels else ()

    def builtin_tools(self) -> tuple[str, ...]:
        return self._names("builtin_tools", DEFAULT_BUILTINS)

    def settings(self, ctx: HarnessContext) -> dict[str, Any]:
        options = self._options()
        extra = options.get("agent") or {}
        if not isinstance(extra, Mapping):
            raise ValueError("harness.options.agent must be a mapping")
        return agent_settings(
            base_url=f"http://127.0.0.1:{ctx.gateway_port}/v1",
            model=ctx.model_id,
            output_limit=self.spec.output_limit,
            tools=self.tools(ctx),
            gui_tools=self.gui_tools(ctx),
            builtin_tools=self.builtin_tools(),
            num_retries=int(options.get("num_retries", 2)),
            condenser=bool(options.get("condenser", False)),
            extra=extra,
        )

    def prepare_home(self, ctx: HarnessContext, home: Path, install: AgentInstall) -> None:
        settings = home / SETTINGS_FILE
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps(self.settings(ctx), indent=2) + "\n", encoding="utf-8")
        mcp = home / MCP_FILE  # the CLI's MCP servers: the GUI MCP server, or none
        if "gui" in ctx.channels:
            command, args = self.gui_mcp_server(ctx)
            mcp.write_text(json.dumps(mcp_settings(command, args), indent=2) + "\n", "utf-8")
        else:
            mcp.unlink(missing_ok=True)
        (home / CONVERSATIONS).mkdir(parents=True, exist_ok=True)
        launcher = home / LAUNCH_FILE
        launcher.parent.mkdir(parents=True, exist_ok=True)
        launcher.write_text(launch_source(), encoding="utf-8")

    def environment(self, ctx: HarnessContext, install: AgentInstall) -> dict[str, str]:
        return {
            "OPENHANDS_WORK_DIR": ctx.workdir,
            "OPENHANDS_SUPPRESS_BANNER": "1",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            "NO_COLOR": "1",
        }

    def argv(self, ctx: HarnessContext, install: AgentInstall) -> list[str]:
        return [
            str(install.root / "bin" / "python"),
            "-u",
            "-I",
            f"{HOME_MOUNT}/{LAUNCH_FILE}",
            "--max-iterations",
            str(max(1, self.spec.max_turns)),
            "--instruction-file",
            INSTRUCTION,
            "--",
            "--headless",
            "--json",
        ]

    def native_files(self, home: Path) -> list[Path]:
        files: list[Path] = []
        conversations = home / CONVERSATIONS
        for conversation in sorted(conversations.iterdir()) if conversations.is_dir() else []:
            files.append(conversation / "base_state.json")
            files += sorted((conversation / "events").glob("event-*.json"))
            files += sorted((conversation / "observations").rglob("*"))
        files += [home / SETTINGS_FILE, home / MCP_FILE]
        return [f for f in files if f.is_file()]

    def native_session(
        self, ctx: HarnessContext, kept: list[Path], transcript: Transcript
    ) -> NativeSession | None:
        assert isinstance(transcript, OpenHandsTranscript)
        native = self.native_folder(ctx)
        conversations = sorted(
            p.parent for p in kept if p.name == "base_state.json" and p.is_relative_to(native)
        )
        problems = list(transcript.problems)
        if not conversations:
            problems.append("no conversation folder (base_state.json) was written")
            return NativeSession(
                source=f"native/{self.spec.kind}/stdout.jsonl", problems=tuple(problems)
            )
        if len(conversations) > 1:
            problems.append(f"{len(conversations)} conversations; read the first")
        conversation = conversations[0]
        state = json.loads((conversation / "base_state.json").read_text(encoding="utf-8"))
        status = state.get("execution_status")
        transcript.status = str(status) if status else None
        call_ids = tuple(
            str(e["tool_call_id"])
            for e in read_events(conversation)
            if e.get("kind") == "ActionEvent" and e.get("tool_call_id")
        )
        usages = [
            u
            for metrics in ((state.get("stats") or {}).get("usage_to_metrics") or {}).values()
            for u in (metrics or {}).get("token_usages") or []
            if isinstance(u, dict)
        ]
        if status not in ENDED:  # saved mid-run: the last calls' usage is not in it yet
            problems.append(
                f"base_state.json says {status!r}: the run did not end (killed?), "
                "no final token totals"
            )
            return NativeSession(
                source=str(conversation.relative_to(ctx.native_dir.parent)),
                tool_call_ids=call_ids,
                problems=tuple(problems),
            )
        return NativeSession(
            source=str(conversation.relative_to(ctx.native_dir.parent)),
            model_calls=len(usages),
            tokens_in=sum(int(u.get("prompt_tokens") or 0) for u in usages),
            tokens_out=sum(int(u.get("completion_tokens") or 0) for u in usages),
            tool_call_ids=call_ids,
            problems=tuple(problems),
        )

    def modes(self, ctx: HarnessContext) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if ctx.mode not in self.MODES:
            raise ValueError(f"openhands supports modes {sorted(self.MODES)}, not {ctx.mode!r}")
        tools = self.tools(ctx)
        builtins = ",".join(self.builtin_tools()) or "none"
        offered = ",".join(tools) if tools else "no terminal, no file_editor"
        gui = (
            "GUI tools: the gui MCP server only (.openhands/mcp.json, stdio; tools renamed "
            "gui_<tool>, all kept by filter_tools_regex)"
            if "gui" in ctx.channels
            else "no MCP servers (no .openhands/mcp.json)"
        )
        enforced = (
            f"CLI tools: {offered} + built-ins {builtins} (agent_settings.json "
            "filter_tools_regex, include_default_tools): no task_tracker, no sub-agents (task)",
            gui,
            "no browser (the CLI has none)",
            "no side model calls: no condenser, no critic (headless)",
            "network: loopback to the gateway only (sandbox)",
        )
        not_enforced: tuple[str, ...] = (
            "AGENTS.md and .openhands/ skills in the workdir are loaded into the system prompt",
            "a .env file in the workdir is loaded into the CLI's environment",
            "startup tries a git clone of the public skills repo and a PyPI version check "
            "(both fail without network)",
        )
        if "terminal" in tools:
            not_enforced = (
                "terminal runs any program present in the sandbox (incl. background processes)",
                *not_enforced,
                "tool_timeout_s: the model sets each terminal call's timeout",
            )
        else:  # the CLI still builds its terminal (a tmux session); the filter drops it
            not_enforced = (
                "the CLI still starts its terminal's tmux session (not offered to the model)",
                *not_enforced,
            )
        return enforced, not_enforced

    def ending(self, transcript: Transcript, exit_code: int | None) -> tuple[str | None, str]:
        assert isinstance(transcript, OpenHandsTranscript)
        for code, detail in transcript.errors:
            if code == MAX_ITERATIONS:
                return "max_turns", detail
        if transcript.errors:
            code, detail = transcript.errors[-1]
            if code.startswith("LLM") or transcript.turns == 0:
                return "error", f"{code}: {detail}"
            return None, f"{code}: {detail}"
        if exit_code != 0:
            return None, ""
        if transcript.status == "stuck":
            return "done", "OpenHands's stuck detector ended the run"
        if transcript.status == "finished" or (transcript.status is None and transcript.turns):
            return "done", ""
        return None, ""
