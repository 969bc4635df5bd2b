"""HermesHarness: Nous Research's Hermes Agent CLI (``hermes-agent``, Python), headless.

Hermes prints only text (the final answer); its session store is a SQLite database,
``$HERMES_HOME/state.db``, into which it inserts every message as it happens (the assistant
message with its tool calls before the tools run, each tool result when it is back). So the
agent runs under a small tap (:func:`tap_main`, stdlib only, written to the per-run home and
run with Hermes's own Python) that starts::

    hermes chat --query=<instruction> -Q --yolo --provider custom -m <model>
                -t terminal,file --max-turns N

polls ``state.db`` (read-only, every 0.1 s) and prints one JSON line per new row, verbatim
(``{"type": "message", "row": {...}}``, ``{"type": "session", "row": {...}}``), the session
counters whenever they change (``{"type": "totals", "sessions": [...]}``: model calls and
tokens as Hermes counts them), Hermes's stdout lines (``{"type": "stdout", "text": ...}``)
and a last ``{"type": "tap_end", "exit_code": N, "sessions": [...]}``. That stream is
``native/hermes/stdout.jsonl``; Hermes's own session JSON (``sessions/session_<id>.json``,
rewritten at the start and end of its turn only), ``logs/agent.log`` and ``config.yaml`` are
kept under ``native/hermes/home/.hermes/``. (``state.db`` itself is not kept: it is binary,
so it could not be redacted; the stream holds every row of it.)

The per-run ``HERMES_HOME`` is ``$HOME/.hermes``; its ``config.yaml`` points Hermes at the
gateway (``provider: custom``, dummy key, ``context_length`` set so it fetches no model
metadata) and turns off everything that would reach beyond loopback or call the model on the
side: the tirith scanner download, lazy installs, the model catalog, context compression,
session titles, memory, the skill curator. Hermes checks PyPI for updates on every
``hermes chat`` and has no switch for it: ``HERMES_HOME`` gets a fresh update-check cache
(``.update_check``) instead. Hermes still probes the endpoint with a few GETs
(``/api/v1/models``, ``/api/tags``, ``/v1/props``, ``/props``, ``/version``, ``/v1/models``)
to tell which local server it is; the gateway answers 404 (200 for ``/v1/models``).

Limits: ``max_turns`` model calls in all: Hermes gets ``--max-turns max_turns - 1``, and when
those run out it makes one more call, without tools, asking for a summary (the run ends
``max_turns``); ``tool_timeout_s`` is ``terminal.timeout`` (at most 600 s, Hermes's cap for
one foreground command); ``output_limit`` is ``tool_output.max_bytes``. Hermes retries a
failed model call twice (``api_max_retries: 3`` attempts), then prints "API call failed after
3 retries: ..." and exits 1 (``error``).

Worth knowing: Hermes puts the directory of the ``hermes`` it finds on ``PATH`` first on the
``PATH`` of its terminal commands (else its venv's ``bin``, whose ``python`` lacks the task's
packages): a ``hermes`` shim in ``$HOME/.realcli/bin``, last on ``PATH``, keeps the sandbox's
``python`` first. Hermes refuses (exit -1, "use terminal(background=true)") a foreground
command that backgrounds with ``&``, ``nohup``, ``setsid`` or ``disown`` outside quotes;
in a code workspace it may nudge the model to run the tests before accepting a final answer
(``verify_on_stop``); tool results are JSON (``{"output", "exit_code", "error"}`` for
``terminal``), sometimes followed by a note such as "[Tool loop warning: ...]".

Options (``harness.options``): ``toolsets`` (default ``[terminal, file]``),
``verify_on_stop`` (Hermes's "verify after editing code" nudges: ``auto`` (its default, on
for the CLI), ``true``, ``false``; each nudge is one more model call),
``environment_probe`` (default false: the Python-toolchain line of the system prompt; its
probe takes seconds at startup), ``max_retries`` (``agent.api_max_retries``, default 3),
``config`` (a mapping deep-merged into ``config.yaml`` last).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realcli.harness.base import HARNESSES, HarnessContext, NativeSession
from realcli.harness.cli_agent import HOME_MOUNT, INSTRUCTION, AgentCliHarness
from realcli.harness.hermes_config import (
    CLI_TOOLSETS,
    GUI_SERVER,
    gui_server,
    hermes_config,
)
from realcli.harness.hermes_tap import TAP_FILE, tap_main, tap_source
from realcli.harness.hermes_transcript import (
    HERMES_TOOLS,
    MAX_ITERATIONS_PROMPT,
    HermesTranscript,
    json_prefix,
    read_rows,
)
from realcli.harness.install import HERMES, AgentInstall
from realcli.harness.options import HermesOptions
from realcli.harness.transcript import Transcript
from realcli.sandbox.neutral import SYSTEM_PATH

__all__ = [
    "CLI_TOOLSETS",
    "HERMES_DIR",
    "HERMES_TOOLS",
    "MAX_ITERATIONS_PROMPT",
    "HermesHarness",
    "HermesTranscript",
    "hermes_config",
    "read_rows",
    "tap_main",
]

HERMES_DIR = ".hermes"
"""``HERMES_HOME``, relative to the per-run home."""
SHIM_DIR = ".realcli/bin"
"""Holds a ``hermes`` shim, last on ``PATH`` (relative to the per-run home): Hermes puts the
directory of the ``hermes`` it finds on ``PATH`` (else its own venv's ``bin``) first on the
``PATH`` of every terminal command, which would make ``python`` its own interpreter."""
API_FAILED = re.compile(r"API call failed after \d+ retries")


# --------------------------------------------------------------------------- harness
@HARNESSES.register("hermes")
class HermesHarness(AgentCliHarness):
    """Hermes Agent's ``chat -q`` mode under the state.db tap (see the module docstring)."""

    kind = "hermes"
    MODES = frozenset({"cli_only", "gui_only", "hybrid"})
    agent = "hermes"
    transcript_class = HermesTranscript
    permission_mode = "yolo"
    Options = HermesOptions
    RECIPE = HERMES

    def toolsets(self) -> tuple[str, ...]:
        toolsets = self._options().get("toolsets", CLI_TOOLSETS)
        if isinstance(toolsets, str):
            toolsets = toolsets.split(",")
        return tuple(str(t).strip() for t in toolsets if str(t).strip())

    def enabled(self, ctx: HarnessContext) -> tuple[str, ...]:
        """``-t`` for the run's mode: the CLI toolsets (:meth:`toolsets`) when the mode has the
        cli channel, the GUI MCP server (toolset ``gui``) when it has the gui channel."""
        cli = self.toolsets() if "cli" in ctx.channels else ()
        return (*cli, *((GUI_SERVER,) if "gui" in ctx.channels else ()))

    def config(self, ctx: HarnessContext) -> dict[str, Any]:
        options = self._options()
        extra = options.get("config") or {}
        if not isinstance(extra, Mapping):
            raise ValueError("harness.options.config must be a mapping")
        servers = {}
        if "gui" in ctx.channels:  # the GUI MCP server (stdio): tools mcp__gui__<tool>
            servers[GUI_SERVER] = gui_server(*self.gui_mcp_server(ctx))
        return hermes_config(
            base_url=f"http://127.0.0.1:{ctx.gateway_port}/v1",
            model=ctx.model_id,
            workdir=ctx.workdir,
            tool_timeout_s=self.spec.tool_timeout_s,
            output_limit=self.spec.output_limit,
            verify_on_stop=options.get("verify_on_stop", "auto"),
            environment_probe=bool(options.get("environment_probe", False)),
            max_retries=int(options.get("max_retries", 3)),
            mcp_servers=servers,
            extra=extra,
        )

    def prepare_home(self, ctx: HarnessContext, home: Path, install: AgentInstall) -> None:
        hermes = home / HERMES_DIR
        hermes.mkdir(parents=True, exist_ok=True)
        # config.yaml as JSON (a YAML subset): no YAML writer needed
        text = json.dumps(self.config(ctx), indent=2) + "\n"
        (hermes / "config.yaml").write_text(text, encoding="utf-8")
        check = {"ts": time.time(), "behind": 0, "rev": None, "ver": self.spec.version}
        (hermes / ".update_check").write_text(json.dumps(check), encoding="utf-8")
        tap = home / TAP_FILE
        tap.parent.mkdir(parents=True, exist_ok=True)
        tap.write_text(tap_source(), encoding="utf-8")
        shim = home / SHIM_DIR / "hermes"
        shim.parent.mkdir(parents=True, exist_ok=True)
        python = install.root / "bin" / "python"
        shim.write_text(f'#!/bin/sh\nexec "{python}" "{install.entry}" "$@"\n', encoding="utf-8")
        shim.chmod(0o755)

    def environment(self, ctx: HarnessContext, install: AgentInstall) -> dict[str, str]:
        path = ctx.sandbox.command_path()
        return {
            "PATH": f"{path or SYSTEM_PATH}:{HOME_MOUNT}/{SHIM_DIR}",
            "HERMES_HOME": f"{HOME_MOUNT}/{HERMES_DIR}",
            "HERMES_DISABLE_LAZY_INSTALLS": "1",
            "HERMES_SKIP_NODE_BOOTSTRAP": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "NO_COLOR": "1",
        }

    def argv(self, ctx: HarnessContext, install: AgentInstall) -> list[str]:
        python = str(install.root / "bin" / "python")
        return [
            python,
            "-I",
            f"{HOME_MOUNT}/{TAP_FILE}",
            "--db",
            f"{HOME_MOUNT}/{HERMES_DIR}/state.db",
            "--query-file",
            INSTRUCTION,
            "--",
            python,
            str(install.entry),
            "chat",
            "-Q",
            "--yolo",
            "--provider",
            "custom",
            "-m",
            ctx.model_id,
            "-t",
            ",".join(self.enabled(ctx)),
            "--max-turns",
            str(max(1, self.spec.max_turns - 1)),
        ]

    def native_files(self, home: Path) -> list[Path]:
        hermes = home / HERMES_DIR
        files = sorted((hermes / "sessions").glob("*.json"))
        files += [hermes / "logs" / "agent.log", hermes / "logs" / "errors.log"]
        files.append(hermes / "config.yaml")
        return [f for f in files if f.is_file()]

    def native_session(
        self, ctx: HarnessContext, kept: list[Path], transcript: Transcript
    ) -> NativeSession | None:
        assert isinstance(transcript, HermesTranscript)
        source = f"native/{self.spec.kind}/stdout.jsonl"
        end = transcript.session_end
        problems = list(transcript.problems)
        sessions = end.get("sessions") if end is not None else transcript.totals
        if end is None and not sessions:
            problems.append("the tap did not finish (killed?) and saw no session totals")
        call_ids = tuple(
            str(call["id"])
            for row in read_rows(self.native_folder(ctx) / "stdout.jsonl")
            if row.get("role") == "assistant" and row.get("tool_calls")
            for call in (json_prefix(row["tool_calls"]) or [])
            if isinstance(call, dict) and call.get("id")
        )
        if not isinstance(sessions, list) or not sessions:
            return NativeSession(source=source, tool_call_ids=call_ids, problems=tuple(problems))
        calls = sum(int(s.get("api_call_count") or 0) for s in sessions)
        tokens_in: int | None = sum(int(s.get("input_tokens") or 0) for s in sessions)
        tokens_out: int | None = sum(int(s.get("output_tokens") or 0) for s in sessions)
        if transcript.summary == "answered":  # the summary call is not in Hermes's totals
            calls += 1
            tokens_in = tokens_out = None
        return NativeSession(
            source=source,
            model_calls=calls,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            tool_call_ids=call_ids,
            problems=tuple(problems),
        )

    def modes(self, ctx: HarnessContext) -> tuple[tuple[str, ...], tuple[str, ...]]:
        cli, gui = "cli" in ctx.channels, "gui" in ctx.channels
        if not (cli or gui):
            raise ValueError(f"hermes: mode {ctx.mode!r} has neither the cli nor the gui channel")
        enforced = [
            f"toolsets restricted to {','.join(self.enabled(ctx))} (-t)"
            + (": terminal, process, read_file, write_file, patch, search_files" if cli else ""),
            "GUI tools: the gui MCP server only (mcp_servers.gui, stdio; mcp__gui__<tool>, no "
            "resource/prompt tools), waited for before the first request"
            if gui
            else "no MCP servers (none configured)",
            "no web, browser, vision, memory, skills, todo, delegation, cron (not offered)",
            "no side model calls: compression, titles, memory, curator off (config.yaml)",
            "network: loopback to the gateway only (sandbox)",
        ]
        if not cli:
            enforced.append("no shell or file tools: terminal and file toolsets not offered")
        not_enforced = [
            "AGENTS.md / .cursorrules in the workdir are injected into the system prompt"
        ]
        if cli:
            not_enforced.insert(
                0, "terminal runs any program present in the sandbox (incl. background processes)"
            )
        if gui:
            not_enforced.append(
                "screenshots reach the model as a MEDIA:<path> text, not as an image (Hermes "
                "caches an MCP image block in its home)"
            )
        return tuple(enforced), tuple(not_enforced)

    def ending(self, transcript: Transcript, exit_code: int | None) -> tuple[str | None, str]:
        assert isinstance(transcript, HermesTranscript)
        end = transcript.session_end
        if end is None:
            return None, ""
        code = end.get("exit_code")
        if code == 0:
            return ("max_turns", "") if transcript.max_iterations else ("done", "")
        failed = next((line for line in transcript.stdout if API_FAILED.search(line)), None)
        if failed is not None:
            return "error", failed.strip()
        tail = "\n".join(transcript.stdout[-20:])
        return None, f"hermes exited {code}: {tail}"
