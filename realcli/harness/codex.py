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
import re
from collections.abc import Mapping
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
from realcli.harness.install import CODEX, AgentInstall
from realcli.harness.options import CodexOptions
from realcli.harness.transcript import Transcript

__all__ = [
    "CODEX_DIR",
    "CODEX_TOOLS",
    "CodexHarness",
    "CodexTranscript",
    "codex_config",
    "read_rollout",
    "tap_main",
    "toml_dumps",
]

CODEX_DIR = ".codex"
"""``CODEX_HOME``, relative to the per-run home."""
TAP_FILE = ".realcli/codex_tap.py"
CATALOG_FILE = "realcli-models.json"
"""The model catalog the tap writes, relative to ``CODEX_HOME``."""
SYSTEM_PYTHON = "/usr/bin/python3"
KEY_ENV = "REALCLI_GATEWAY_KEY"
DUMMY_KEY = "realcli-gateway"
GUI_MCP_STARTUP_TIMEOUT_S = 30
"""``mcp_servers.gui.startup_timeout_sec``: how long Codex waits for the (required) GUI MCP
server's handshake before it gives up (Codex's default is 10 s; a busy machine needs more)."""
CODEX_TOOLS: dict[str, tuple[str, str]] = {
    "exec_command": ("shell", "exec: shell"),
    "write_stdin": ("write_stdin", "exec: stdin"),
    "apply_patch": ("apply_patch", "fs: patch"),
    "view_image": ("view_image", "fs: read image"),
    "update_plan": ("update_plan", "other: plan"),
    "exec": ("exec", "exec: code"),
}
"""raw tool name -> (normalised name, atomic op)."""
OPTIONAL_TOOLS = ("view_image", "update_plan")
DEFAULT_CATALOG_PATCH: dict[str, Any] = {"supports_search_tool": False, "prefer_websockets": False}
_EXIT_CODE = re.compile(r"^Process exited with code (-?\d+)$", re.M)
_PATCH_EXIT = re.compile(r"^Exit code: (-?\d+)$", re.M)
_RUNNING = re.compile(r"^Process running with session ID (\d+)$", re.M)
_FAILED_CALL = ("unsupported call:", "failed to parse function arguments")


# --------------------------------------------------------------------------- the tap
def tap_main() -> int:  # pragma: no cover - runs inside the sandbox (tested through runs)
    """Run ``codex exec`` and stream its rollout and stdout as JSON lines (module docstring).

    Self-contained and stdlib only. ``tap.py --codex-home DIR --model ID --catalog-model NAME
    --catalog-patch JSON --max-turns N --prompt-file FILE -- CODEX ARGS...`` (the codex
    binary first; ``debug models --bundled`` is run with it).
    """
    import argparse
    import contextlib
    import json
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    parser = argparse.ArgumentParser(prog="codex_tap")
    parser.add_argument("--codex-home", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--catalog-model", required=True)
    parser.add_argument("--catalog-patch", default="{}")
    parser.add_argument("--catalog-file", required=True)
    parser.add_argument("--max-turns", type=int, default=0)
    parser.add_argument("--prompt-file", required=True)
    parser.add_argument("--poll", type=float, default=0.05)
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    lock = threading.Lock()

    def emit(record: dict) -> None:
        line = json.dumps(record, ensure_ascii=False)
        with lock:
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, ValueError):
                pass

    # 1. the model catalog
    try:
        bundled = subprocess.run(
            [cmd[0], "debug", "models", "--bundled"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        models = json.loads(bundled.stdout)["models"]
        by_slug = {m.get("slug"): m for m in models if isinstance(m, dict)}
        base = args.model if args.model in by_slug else args.catalog_model
        entry = dict(by_slug[base])
        entry.update({"slug": args.model, "display_name": args.model})
        entry.update(json.loads(args.catalog_patch))
        with open(args.catalog_file, "w", encoding="utf-8") as f:
            json.dump({"models": [entry]}, f)
        emit({"type": "catalog", "model": args.model, "base": base})
    except Exception as exc:  # Codex then runs on its fallback metadata: say so
        emit({"type": "tap_error", "stage": "catalog", "error": f"{type(exc).__name__}: {exc}"})

    # 2. codex exec
    with open(args.prompt_file, encoding="utf-8") as f:
        prompt = f.read()
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    assert proc.stdin is not None and proc.stdout is not None
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.write(prompt)
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.close()
    emit({"type": "tap_start", "pid": proc.pid})

    def forward(signum: int, frame: object) -> None:
        with contextlib.suppress(OSError):
            proc.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            text = line.rstrip("\n")
            try:
                event = json.loads(text)
            except ValueError:
                event = None
            if isinstance(event, dict):
                emit({"type": "exec", "event": event})
            else:
                emit({"type": "exec", "text": text})

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()

    # 3. the rollout, line by line
    sessions = os.path.join(args.codex_home, "sessions")
    offsets: dict = {}
    state = {"turns": 0, "calls": 0, "stopped": False}

    def tail() -> None:
        found = []
        for root, _dirs, files in os.walk(sessions):
            found += [os.path.join(root, n) for n in files if n.startswith("rollout-")]
        for path in sorted(found):  # one rollout per exec (sub-agents are off)
            try:
                with open(path, "rb") as f:
                    f.seek(offsets.get(path, 0))
                    data = f.read()
            except OSError:
                continue
            end = data.rfind(b"\n") + 1  # complete lines only
            offsets[path] = offsets.get(path, 0) + end
            for raw in data[:end].splitlines():
                try:
                    record = json.loads(raw.decode("utf-8", errors="replace"))
                except ValueError:
                    emit({"type": "tap_error", "stage": "rollout", "error": raw[:200].decode()})
                    continue
                watch(record)
                meta = record.get("payload") if isinstance(record, dict) else None
                base = meta.get("base_instructions") if isinstance(meta, dict) else None
                if isinstance(meta, dict) and isinstance(base, dict) and "text" in base:
                    n = len(str(base["text"]))  # ~20 KB, kept in the rollout file itself
                    meta["base_instructions"] = {"text": f"[{n} characters: see the rollout]"}
                emit({"type": "rollout", "file": os.path.basename(path), "record": record})

    def watch(record: object) -> None:
        if not isinstance(record, dict):
            return
        payload = record.get("payload")
        if not isinstance(payload, dict):
            return
        if record.get("type") == "response_item" and payload.get("type") in (
            "function_call",
            "custom_tool_call",
        ):
            state["calls"] += 1
        elif record.get("type") == "token_usage_record":
            state["turns"] += 1
            asked, state["calls"] = state["calls"], 0
            if args.max_turns and state["turns"] >= args.max_turns and asked:
                state["stopped"] = True  # the next model call would be one too many
                with contextlib.suppress(OSError):
                    proc.terminate()

    while proc.poll() is None:
        tail()
        time.sleep(args.poll)
    reader.join(timeout=5.0)
    tail()
    code = proc.returncode
    emit({"type": "tap_end", "exit_code": code, "max_turns": state["stopped"]})
    return code if code >= 0 else 128 - code


def tap_source() -> str:
    """The tap as a script (its source plus the call)."""
    return script_of(tap_main)


# --------------------------------------------------------------------------- config


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _toml_key(key: Any) -> str:
    key = str(key)
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def toml_dumps(data: Mapping[str, Any], _prefix: str = "") -> str:
    """A TOML document of nested mappings (tables), lists and scalars (enough for config)."""
    lines: list[str] = []
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            tables.append((f"{_prefix}{_toml_key(key)}", value))
        elif value is not None:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    out = "\n".join(lines) + ("\n" if lines else "")
    for name, table in tables:
        out += f"\n[{name}]\n" + toml_dumps(table, f"{name}.")
    return out


def codex_config(
    *,
    base_url: str,
    model: str,
    catalog: str,
    max_retries: int = 1,
    tools: tuple[str, ...] = ("view_image",),
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Codex's ``config.toml`` for one run, as a mapping (see the module docstring)."""
    config: dict[str, Any] = {
        "model": model,
        "model_provider": "realcli",
        "model_catalog_json": catalog,
        "approval_policy": "never",
        "sandbox_mode": "danger-full-access",
        "check_for_update_on_startup": False,
        "web_search": "disabled",
        "features": {
            "plugins": False,
            "apps": False,
            "remote_plugin": False,
            "goals": False,
            "view_image": "view_image" in tools,
        },
        "agents": {"enabled": False},
        "tools": {
            "experimental_request_user_input": {"enabled": False},
            "update_plan": {"enabled": "update_plan" in tools},
        },
        "model_providers": {
            "realcli": {
                "name": "realcli gateway",
                "base_url": base_url,
                "env_key": KEY_ENV,
                "wire_api": "responses",
                "request_max_retries": max_retries,
                "stream_max_retries": max_retries,
            }
        },
        "analytics": {"enabled": False},
    }
    return deep_merge(config, extra or {})


# --------------------------------------------------------------------------- transcript
def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {"_raw": raw}


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "\n".join(
            str(p.get("text", f"[{p.get('type', 'part')}]")) for p in output if isinstance(p, dict)
        )
    return "" if output is None else json.dumps(output)


def _call_name(payload: Mapping[str, Any]) -> str:
    name = str(payload.get("name") or "")
    namespace = payload.get("namespace")
    if isinstance(namespace, str) and namespace and namespace != "functions":
        return f"{namespace}__{name}"
    return name


def _duration_ms(item: Mapping[str, Any]) -> float:
    duration = item.get("duration")
    if isinstance(duration, Mapping):
        secs, nanos = duration.get("secs", 0), duration.get("nanos", 0)
        if isinstance(secs, int | float) and isinstance(nanos, int | float):
            return float(secs) * 1000.0 + float(nanos) / 1e6
    return 0.0


class CodexTranscript(Transcript):
    """The tap's JSON lines (Codex's rollout records and stdout events) -> ledger events."""

    tools = CODEX_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.items: dict[str, dict[str, Any]] = {}
        """``item_completed`` items by id (a call's exit code, duration, changed files)."""
        self.usage: list[tuple[int, int]] = []
        """(input, output) tokens of each model response, as Codex recorded them."""
        self.catalog: dict[str, Any] | None = None
        self.errors: list[str] = []
        """Codex's error events (gateway retries, a failed turn)."""
        self.failed: str | None = None
        self.task_complete: dict[str, Any] | None = None
        self.exec_events = 0

    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "rollout":
            self._rollout(record["record"])
        elif kind == "exec":
            self._exec(record.get("event"))
        elif kind == "catalog":
            self.catalog = record
        elif kind == "tap_error":
            self.problems.append(f"tap {record.get('stage')}: {record.get('error')}")
        elif kind == "tap_end":
            self.calls_before(None)
            self.session_end = record
        # tap_start: nothing to record

    # ----------------------------------------------------------------- stdout
    def _exec(self, event: Any) -> None:
        if not isinstance(event, dict):
            return
        self.exec_events += 1
        kind = event.get("type")
        if kind == "error":
            self.errors.append(str(event.get("message", "")))
        elif kind == "turn.failed":
            error = event.get("error")
            message = error.get("message") if isinstance(error, dict) else error
            self.failed = str(message or "turn failed")

    # ----------------------------------------------------------------- rollout
    def _rollout(self, record: Any) -> None:
        if not isinstance(record, dict):
            raise TypeError("a rollout record must be an object")
        payload = record.get("payload")
        if not isinstance(payload, dict):
            return
        kind = record.get("type")
        if kind == "response_item":
            self._response_item(payload)
        elif kind == "token_usage_record":
            usage = payload.get("usage") or {}
            self.usage.append(
                (int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)))
            )
            self.turns = len(self.usage)
        elif kind == "event_msg":
            self._event(payload)

    def _response_item(self, item: dict[str, Any]) -> None:
        kind = item.get("type")
        if kind == "message" and item.get("role") == "assistant":
            text = "\n".join(
                str(p.get("text", ""))
                for p in item.get("content") or []
                if isinstance(p, dict) and p.get("type") == "output_text"
            )
            if text:
                self.message(text)
        elif kind == "function_call":
            self.tool_call(
                str(item["call_id"]), _call_name(item), _arguments(item.get("arguments"))
            )
        elif kind == "custom_tool_call":
            self.tool_call(str(item["call_id"]), _call_name(item), {"input": item.get("input", "")})
        elif kind in ("function_call_output", "custom_tool_call_output"):
            self._result(str(item["call_id"]), item.get("output"))

    def _result(self, call_id: str, output: Any) -> None:
        text = _output_text(output)
        raw_name = self._calls.get(call_id, ("", {}))[0]
        item = self.items.get(call_id, {})
        exit_code: int | None = None
        touched: tuple[str, ...] | None = None
        if text.startswith(_FAILED_CALL):
            ok = False
        elif item.get("type") == "FileChange" or raw_name == "apply_patch":
            match = _PATCH_EXIT.search(text)
            exit_code = int(match.group(1)) if match else None
            ok = item.get("status") == "completed" if item else exit_code == 0
            changes = item.get("changes")
            if isinstance(changes, dict):
                touched = tuple(self.relative(str(p)) for p in changes)
        elif raw_name in ("exec_command", "write_stdin") or item.get("type") == "CommandExecution":
            match = _EXIT_CODE.search(text)
            code = item.get("exit_code") if item.get("type") == "CommandExecution" else None
            exit_code = code if isinstance(code, int) else int(match.group(1)) if match else None
            ok = exit_code == 0 if exit_code is not None else bool(_RUNNING.search(text))
        else:
            ok = True
        self.tool_result(
            call_id,
            text,
            ok=ok,
            exit_code=exit_code,
            duration_ms=_duration_ms(item),
            touched=touched,
        )

    def _event(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "item_completed":
            item = payload.get("item")
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                self.items[item["id"]] = item
                if item["id"] not in self._calls and item.get("type") in (
                    "CommandExecution",
                    "FileChange",
                ):
                    self._nested(item)
        elif kind == "task_complete":
            self.task_complete = payload
            error = payload.get("error")
            if isinstance(error, dict) and error.get("message"):
                self.failed = self.failed or str(error["message"])

    def _nested(self, item: dict[str, Any]) -> None:
        """A tool call made by a code-mode ``exec`` script (Codex's own id, ``exec-...``)."""
        call_id = str(item["id"])
        if item.get("type") == "CommandExecution":
            command = item.get("command")
            cmd = command[-1] if isinstance(command, list) and command else str(command)
            self.tool_call(call_id, "exec_command", {"cmd": cmd})
            code = item.get("exit_code")
            exit_code = code if isinstance(code, int) else None
            output = str(item.get("aggregated_output", ""))
            self.tool_result(
                call_id,
                output,
                ok=exit_code == 0,
                exit_code=exit_code,
                duration_ms=_duration_ms(item),
            )
        else:
            changes = item.get("changes")
            paths = [str(p) for p in changes] if isinstance(changes, dict) else []
            self.tool_call(call_id, "apply_patch", {"paths": paths})
            output = str(item.get("stdout", "")) + str(item.get("stderr", ""))
            touched = tuple(self.relative(p) for p in paths)
            self.tool_result(call_id, output, ok=item.get("status") == "completed", touched=touched)


def read_rollout(path: Path) -> list[dict[str, Any]]:
    """The records of a rollout file (lines that are not JSON objects are skipped)."""
    out: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            out.append(record)
    return out


def rollout_summary(records: list[dict[str, Any]]) -> tuple[int, int, int, tuple[str, ...]]:
    """``(model responses, input tokens, output tokens, tool call ids)`` of a rollout."""
    calls = tokens_in = tokens_out = 0
    ids: list[str] = []
    for record in records:
        payload = record.get("payload")
        if not isinstance(payload, dict):
            continue
        if record.get("type") == "token_usage_record":
            usage = payload.get("usage") or {}
            calls += 1
            tokens_in += int(usage.get("input_tokens", 0))
            tokens_out += int(usage.get("output_tokens", 0))
        elif record.get("type") == "response_item" and payload.get("type") in (
            "function_call",
            "custom_tool_call",
        ):
            ids.append(str(payload.get("call_id")))
        elif record.get("type") == "event_msg" and payload.get("type") == "item_completed":
            item = payload.get("item")
            if isinstance(item, dict) and str(item.get("id", "")).startswith("exec-"):
                ids.append(str(item["id"]))  # a code-mode script's nested call
    return calls, tokens_in, tokens_out, tuple(ids)


# --------------------------------------------------------------------------- harness
@HARNESSES.register("codex")
class CodexHarness(AgentCliHarness):
    """``codex exec --json`` under the rollout tap (see the module docstring)."""

    kind = "codex"
    MODES = frozenset({"cli_only", "hybrid"})
    agent = "codex"
    transcript_class = CodexTranscript
    permission_mode = "bypass"
    Options = CodexOptions
    RECIPE = CODEX

    def tools(self) -> tuple[str, ...]:
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

    def catalog_patch(self) -> dict[str, Any]:
        patch = self._options().get("catalog_patch", DEFAULT_CATALOG_PATCH)
        if not isinstance(patch, Mapping):
            raise ValueError("harness.options.catalog_patch must be a mapping")
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
            gui = {"mcp_servers": {"gui": server}}
            extra = deep_merge(gui, extra)
        return codex_config(
            base_url=f"http://127.0.0.1:{ctx.gateway_port}/v1",
            model=ctx.model_id,
            catalog=f"{HOME_MOUNT}/{CODEX_DIR}/{CATALOG_FILE}",
            max_retries=int(options.get("max_retries", 1)),
            tools=self.tools(),
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
            json.dumps(self.catalog_patch()),
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
        if "cli" not in ctx.channels:
            raise ValueError(
                f"codex supports modes cli_only and hybrid, not {ctx.mode!r} (exec_command "
                "cannot be turned off)"
            )
        tools = ", ".join(("exec_command", "write_stdin", "apply_patch", *self.tools()))
        enforced = (
            f"tools offered: {tools} (config.toml; model metadata of "
            f"{self._options().get('catalog_model', 'gpt-5.5')} unless the model is a bundled one)",
            "no web_search, tool_search, plugins/apps, goals, sub-agents, request_user_input",
            "GUI tools: the gui MCP server only (mcp_servers.gui, stdio, required: Codex "
            "starts no session without it)"
            if "gui" in ctx.channels
            else "no MCP servers configured",
            "Codex's own sandbox and approvals off (realcli's sandbox is the boundary)",
            "network: loopback to the gateway only (sandbox)",
            f"max_turns: the tap stops codex after {self.spec.max_turns} model responses",
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
