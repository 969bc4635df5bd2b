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

Options (``harness.options``): ``tools`` (CLI tools kept, default ``[terminal,
file_editor]``), ``builtin_tools`` (SDK built-ins, default ``[FinishTool, ThinkTool]``),
``num_retries`` (attempts, default 2), ``condenser`` (default false: true keeps OpenHands's
LLM summarizing condenser), ``agent`` (a mapping deep-merged into
``agent_settings.json`` last).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from realcli.harness.base import HARNESSES, HarnessContext, NativeSession
from realcli.harness.cli_agent import (
    HOME_MOUNT,
    INSTRUCTION,
    AgentCliHarness,
    deep_merge,
    script_of,
)
from realcli.harness.install import OPENHANDS, AgentInstall
from realcli.harness.options import OpenHandsOptions
from realcli.harness.transcript import Transcript, normalise_tool

__all__ = [
    "CLI_TOOLS",
    "DEFAULT_BUILTINS",
    "FILE_EDITOR_OPS",
    "OPENHANDS_TOOLS",
    "OpenHandsHarness",
    "OpenHandsTranscript",
    "agent_settings",
    "launch_main",
    "read_events",
]

CONVERSATIONS = ".openhands/conversations"
"""Where the CLI keeps its conversations, relative to the per-run home."""
SETTINGS_FILE = ".openhands/agent_settings.json"
LAUNCH_FILE = ".realcli/openhands_launch.py"
DUMMY_KEY = "realcli-gateway"
CLI_TOOLS = ("terminal", "file_editor")
"""CLI tools offered in ``cli_only`` mode (of terminal, file_editor, task_tracker, task)."""
DEFAULT_BUILTINS = ("FinishTool", "ThinkTool")
"""The SDK's built-in tools (``finish``, ``think``): its defaults, kept."""
OPENHANDS_TOOLS: dict[str, tuple[str, str]] = {
    "terminal": ("shell", "exec: shell"),
    "file_editor": ("file_editor", "fs: edit"),
    "finish": ("finish", "other: finish"),
    "think": ("think", "other: think"),
    "task_tracker": ("task_tracker", "other: task_tracker"),
    "task": ("task", "other: task"),
}
"""raw tool name -> (normalised name, atomic op); ``file_editor`` by its command below."""
FILE_EDITOR_OPS: dict[str, tuple[str, str]] = {
    "view": ("read_file", "fs: read"),
    "create": ("write_file", "fs: write"),
    "str_replace": ("edit_file", "fs: edit"),
    "insert": ("edit_file", "fs: edit"),
    "undo_edit": ("edit_file", "fs: edit"),
}
"""``file_editor`` command -> (normalised name, atomic op)."""
MAX_ITERATIONS = "MaxIterationsReached"
ENDED = frozenset({"finished", "error", "stuck"})
"""``execution_status`` values of a conversation that ended (its usage totals are final)."""
_EVENT_FILE = re.compile(r"^event-(\d+)-.*\.json$")


# --------------------------------------------------------------------------- the launcher
def launch_main() -> int:  # pragma: no cover - runs inside the sandbox (tested through runs)
    """Run the OpenHands CLI with the SDK's iteration limit set (see the module docstring).

    Self-contained and stdlib only: its source is written to the per-run home and run with
    OpenHands's Python. ``launch.py --max-iterations N --instruction-file FILE -- CLI ARGS``.
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="openhands_launch")
    parser.add_argument("--max-iterations", type=int, required=True)
    parser.add_argument("--instruction-file", required=True)
    parser.add_argument("cli_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cli_args = args.cli_args[1:] if args.cli_args[:1] == ["--"] else args.cli_args
    with open(args.instruction_file, encoding="utf-8") as f:
        instruction = f.read()

    from openhands.sdk.conversation.impl.local_conversation import LocalConversation

    init = LocalConversation.__init__
    limit = args.max_iterations

    def limited_init(self: object, *a: object, **kw: object) -> None:
        kw["max_iteration_per_run"] = limit
        init(self, *a, **kw)

    LocalConversation.__init__ = limited_init
    sys.argv = ["openhands", *cli_args, f"--task={instruction}"]
    from openhands_cli.entrypoint import main

    main()
    return 0


def launch_source() -> str:
    """The launcher as a script (its source plus the call)."""
    return script_of(launch_main)


# --------------------------------------------------------------------------- config


def agent_settings(
    *,
    base_url: str,
    model: str,
    output_limit: int,
    tools: tuple[str, ...] = CLI_TOOLS,
    builtin_tools: tuple[str, ...] = DEFAULT_BUILTINS,
    num_retries: int = 2,
    condenser: bool = False,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``agent_settings.json`` for one run: a serialized OpenHands SDK ``Agent``."""
    llm = {
        "model": f"openai/{model}",
        "base_url": base_url,
        "api_key": DUMMY_KEY,
        "usage_id": "agent",
        "num_retries": num_retries,
        "max_message_chars": output_limit,
        "stream": False,
    }
    settings: dict[str, Any] = {
        "llm": llm,
        "tools": [],  # the CLI sets its own tool list; the regex below filters it
        "filter_tools_regex": "^(" + "|".join(re.escape(t) for t in tools) + ")$",
        "include_default_tools": list(builtin_tools),
        "condenser": None,
        "system_prompt_kwargs": {"cli_mode": True},
        "kind": "Agent",
    }
    if condenser:  # OpenHands's default condenser (the CLI's when it creates the settings)
        settings["condenser"] = {
            "kind": "LLMSummarizingCondenser",
            "llm": {**llm, "usage_id": "condenser"},
            "max_size": 80,
            "keep_first": 4,
        }
    return deep_merge(settings, extra or {})


# --------------------------------------------------------------------------- transcript
def _text(content: Any) -> str:
    """The text of an SDK content list (``[{"type": "text", "text": ...}, ...]``)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        str(part.get("text") or "")
        for part in content
        if isinstance(part, dict) and part.get("type") == "text"
    )


def _ts(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


class OpenHandsTranscript(Transcript):
    """``--json`` events -> ledger events."""

    tools = OPENHANDS_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.response_ids: list[str] = []
        self.errors: list[tuple[str, str]] = []
        """``(code, detail)`` of each ``ConversationErrorEvent``."""
        self.status: str | None = None
        """``execution_status`` of ``base_state.json`` (set after the run, when readable)."""
        self.finished = False
        """The agent called ``finish``."""
        self.user_messages = 0
        self.ignored: dict[str, int] = {}
        self._started: dict[str, datetime] = {}

    # ----------------------------------------------------------------- records
    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("kind")
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            key = str(kind)
            self.ignored[key] = self.ignored.get(key, 0) + 1
            return
        handler(record)

    def _turn(self, record: dict[str, Any]) -> None:
        reply = record.get("llm_response_id")
        if isinstance(reply, str) and reply and reply not in self.response_ids:
            self.response_ids.append(reply)
            self.turns = len(self.response_ids)

    def _on_MessageEvent(self, record: dict[str, Any]) -> None:
        message = record["llm_message"]
        text = _text(message.get("content"))
        if record.get("source") == "agent":
            self._turn(record)
            self.message(text)
            return
        self.user_messages += 1
        if self.user_messages > 1:  # the first is the instruction (already in the ledger)
            self.message(text, role="user")

    def _on_ActionEvent(self, record: dict[str, Any]) -> None:
        reply = record.get("llm_response_id")
        first_of_reply = not (isinstance(reply, str) and reply in self.response_ids)
        self._turn(record)
        call_id = str(record["tool_call_id"])
        name = str(record.get("tool_name") or "")
        call = record.get("tool_call") or {}
        raw = call.get("arguments") if isinstance(call, dict) else None
        try:
            args = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            args = {"_raw": raw}
        if not isinstance(args, dict):
            args = {"_raw": raw}
        thought = _text(record.get("thought"))
        if first_of_reply and thought.strip():
            self.message(thought)
        self.tool_call(call_id, name, args)
        started = _ts(record.get("timestamp"))
        if started is not None:
            self._started[call_id] = started
        action = record.get("action")
        if name == "finish" and isinstance(action, dict):
            self.finished = True
            self.message(str(action.get("message") or ""))

    def _on_ObservationEvent(self, record: dict[str, Any]) -> None:
        call_id = str(record["tool_call_id"])
        observation = record.get("observation") or {}
        output = _text(observation.get("content"))
        code = observation.get("exit_code")
        exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
        ok = observation.get("is_error") is not True and exit_code in (None, 0)
        self.tool_result(
            call_id, output, ok=ok, exit_code=exit_code, duration_ms=self._duration(call_id, record)
        )

    def _on_AgentErrorEvent(self, record: dict[str, Any]) -> None:
        call_id = record.get("tool_call_id")
        if call_id:  # the tool call's result: unknown tool, bad arguments, ...
            cid = str(call_id)
            error = str(record.get("error") or "")
            self.tool_result(cid, error, ok=False, duration_ms=self._duration(cid, record))
        else:
            self.problems.append(f"agent error: {str(record.get('error'))[:300]}")

    def _on_UserRejectObservation(self, record: dict[str, Any]) -> None:
        cid = str(record["tool_call_id"])
        reason = str(record.get("rejection_reason") or "rejected")
        self.tool_result(cid, reason, ok=False, duration_ms=self._duration(cid, record))

    def _on_ConversationErrorEvent(self, record: dict[str, Any]) -> None:
        self.calls_before(None)
        self.errors.append((str(record.get("code") or ""), str(record.get("detail") or "")))

    def _duration(self, call_id: str, record: dict[str, Any]) -> float:
        started, ended = self._started.get(call_id), _ts(record.get("timestamp"))
        if started is None or ended is None:
            return 0.0
        return max((ended - started).total_seconds() * 1000.0, 0.0)

    # ----------------------------------------------------------------- file_editor
    def normalise(self, raw_name: str, args: Mapping[str, Any]) -> tuple[str, str]:
        """``(normalised name, atomic op)`` of a call: ``file_editor`` by its command."""
        if raw_name == "file_editor":
            kind = FILE_EDITOR_OPS.get(str(args.get("command")))
            if kind is not None:
                return kind
        return normalise_tool(raw_name, self.tools)


def read_events(conversation: Path) -> list[dict[str, Any]]:
    """The event files of a kept conversation folder, in event order."""
    numbered: list[tuple[int, Path]] = []
    for path in (conversation / "events").glob("event-*.json"):
        m = _EVENT_FILE.match(path.name)
        if m:
            numbered.append((int(m.group(1)), path))
    out: list[dict[str, Any]] = []
    for _, path in sorted(numbered):
        record = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(record, dict):
            out.append(record)
    return out


# --------------------------------------------------------------------------- harness
@HARNESSES.register("openhands")
class OpenHandsHarness(AgentCliHarness):
    """The OpenHands CLI's ``--headless --json`` mode (see the module docstring)."""

    kind = "openhands"
    MODES = frozenset({"cli_only"})
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

    def tools(self) -> tuple[str, ...]:
        return self._names("tools", CLI_TOOLS)

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
            tools=self.tools(),
            builtin_tools=self.builtin_tools(),
            num_retries=int(options.get("num_retries", 2)),
            condenser=bool(options.get("condenser", False)),
            extra=extra,
        )

    def prepare_home(self, ctx: HarnessContext, home: Path, install: AgentInstall) -> None:
        settings = home / SETTINGS_FILE
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps(self.settings(ctx), indent=2) + "\n", encoding="utf-8")
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
        files.append(home / SETTINGS_FILE)
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
        if ctx.mode != "cli_only":
            raise ValueError(f"openhands supports mode cli_only, not {ctx.mode!r}")
        enforced = (
            f"tools restricted to {','.join(self.tools())} + built-ins "
            f"{','.join(self.builtin_tools()) or 'none'} (agent_settings.json filter_tools_regex,"
            " include_default_tools): no task_tracker, no sub-agents (task), no MCP",
            "no browser (the CLI has none)",
            "no side model calls: no condenser, no critic (headless)",
            "network: loopback to the gateway only (sandbox)",
        )
        not_enforced = (
            "terminal runs any program present in the sandbox (incl. background processes)",
            "AGENTS.md and .openhands/ skills in the workdir are loaded into the system prompt",
            "a .env file in the workdir is loaded into the CLI's environment",
            "startup tries a git clone of the public skills repo and a PyPI version check "
            "(both fail without network)",
            "tool_timeout_s: the model sets each terminal call's timeout",
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
