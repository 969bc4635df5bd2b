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
from realcli.harness.cli_agent import (
    HOME_MOUNT,
    INSTRUCTION,
    AgentCliHarness,
    deep_merge,
    script_of,
)
from realcli.harness.install import HERMES, AgentInstall
from realcli.harness.options import HermesOptions
from realcli.harness.transcript import Transcript
from realcli.sandbox.local import LocalSandbox
from realcli.sandbox.neutral import SYSTEM_PATH
from realcli.schema.events import MessageEvent

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
TAP_FILE = ".realcli/hermes_tap.py"
"""The tap script, relative to the per-run home."""
SHIM_DIR = ".realcli/bin"
"""Holds a ``hermes`` shim, last on ``PATH`` (relative to the per-run home): Hermes puts the
directory of the ``hermes`` it finds on ``PATH`` (else its own venv's ``bin``) first on the
``PATH`` of every terminal command, which would make ``python`` its own interpreter."""
CLI_TOOLSETS = ("terminal", "file")
"""Hermes toolsets offered in ``cli_only`` mode: terminal, process, read_file, write_file,
patch, search_files."""
HERMES_TOOLS: dict[str, tuple[str, str]] = {
    "terminal": ("shell", "exec: shell"),
    "process": ("process", "other: process"),
    "read_file": ("read_file", "fs: read"),
    "write_file": ("write_file", "fs: write"),
    "patch": ("edit_file", "fs: edit"),
    "search_files": ("search_files", "fs: search"),
}
"""raw tool name -> (normalised name, atomic op)."""
MAX_ITERATIONS_PROMPT = "You've reached the maximum number of tool-calling iterations allowed."
"""Start of the user message Hermes adds when ``--max-turns`` runs out (asking for a summary)."""
SUMMARY_FAILED = re.compile(r"I reached the maximum iterations \(\d+\) but couldn't summarize\.")
"""The text Hermes stores as the assistant's answer when its summary call failed (made up,
not a model reply)."""
API_FAILED = re.compile(r"API call failed after \d+ retries")
DUMMY_KEY = "realcli-gateway"
TERMINAL_MAX_TIMEOUT_S = 600
"""Hermes rejects a foreground terminal command with a larger timeout (also in
:mod:`realcli.gateway.toolsets.hermes`, which this layer may not import)."""


# --------------------------------------------------------------------------- the tap
def tap_main() -> int:  # pragma: no cover - runs inside the sandbox (tested through runs)
    """Run Hermes and stream its ``state.db`` rows as JSON lines (see the module docstring).

    Self-contained and stdlib only: its source is written to the per-run home and run with
    Hermes's Python. ``tap.py --db STATE_DB --query-file FILE [--poll S] -- HERMES ARGS...``
    (``--query=<file contents>`` is appended to the Hermes command line).
    """
    import argparse
    import contextlib
    import json
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import threading
    import time

    parser = argparse.ArgumentParser(prog="hermes_tap")
    parser.add_argument("--db", required=True)
    parser.add_argument("--query-file", required=True)
    parser.add_argument("--poll", type=float, default=0.1)
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    with open(args.query_file, encoding="utf-8") as f:
        query = f.read()
    lock = threading.Lock()

    def emit(record: dict) -> None:
        line = json.dumps(record, ensure_ascii=False, default=str)
        with lock:
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, ValueError):
                pass

    proc = subprocess.Popen(
        [*cmd, f"--query={query}"],  # "=": an instruction may start with "-"
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        errors="replace",
    )
    emit({"type": "tap_start", "pid": proc.pid, "db": args.db})

    def forward(signum: int, frame: object) -> None:
        with contextlib.suppress(OSError):
            proc.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            emit({"type": "stdout", "text": line.rstrip("\n")})

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    state: dict = {"last": 0, "totals": None}
    seen: set = set()
    keys = ("api_call_count", "input_tokens", "output_tokens", "tool_call_count", "ended_at")

    def rows(conn: sqlite3.Connection, sql: str, params: tuple = ()) -> list:
        cur = conn.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [
            {k: v for k, v in zip(names, r, strict=True) if v is not None} for r in cur.fetchall()
        ]

    def poll() -> list:
        if not os.path.exists(args.db):
            return []
        try:
            conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True, timeout=2.0)
        except sqlite3.Error:
            return []
        try:
            sessions = rows(conn, "SELECT * FROM sessions ORDER BY started_at")
            for row in sessions:
                if row.get("id") not in seen:
                    seen.add(row.get("id"))
                    emit({"type": "session", "row": row})
            new = rows(conn, "SELECT * FROM messages WHERE id > ? ORDER BY id", (state["last"],))
            for row in new:
                state["last"] = row["id"]
                emit({"type": "message", "row": row})
            brief = [{k: v for k, v in r.items() if k != "system_prompt"} for r in sessions]
            totals = [[r.get(k) for k in keys] for r in brief]
            if brief and totals != state["totals"]:
                state["totals"] = totals
                emit({"type": "totals", "sessions": brief})
            return brief
        except sqlite3.Error:
            return []  # not created yet, or busy: the next poll reads it
        finally:
            conn.close()

    while proc.poll() is None:
        poll()
        time.sleep(args.poll)
    reader.join(timeout=5.0)
    sessions = poll()
    for _ in range(20):  # a read can fail while Hermes's last write settles
        if sessions or not os.path.exists(args.db):
            break
        time.sleep(0.1)
        sessions = poll()
    code = proc.returncode
    emit({"type": "tap_end", "exit_code": code, "sessions": sessions})
    return code if code >= 0 else 128 - code


def tap_source() -> str:
    """The tap as a script (its source plus the call)."""
    return script_of(tap_main)


# --------------------------------------------------------------------------- config


def hermes_config(
    *,
    base_url: str,
    model: str,
    workdir: str,
    tool_timeout_s: float,
    output_limit: int,
    verify_on_stop: Any = "auto",
    environment_probe: bool = False,
    max_retries: int = 3,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Hermes's ``config.yaml`` for one run (see the module docstring)."""
    config: dict[str, Any] = {
        "model": {
            "provider": "custom",
            "base_url": base_url,
            "api_key": DUMMY_KEY,
            "default": model,
            "context_length": 200000,
        },
        "agent": {
            "api_max_retries": max_retries,
            "verify_on_stop": verify_on_stop,
            "environment_probe": environment_probe,
        },
        "terminal": {
            "backend": "local",
            "cwd": workdir,
            "timeout": min(max(1, int(tool_timeout_s)), TERMINAL_MAX_TIMEOUT_S),
            "auto_source_bashrc": False,
        },
        "tool_output": {"max_bytes": output_limit},
        "security": {"tirith_enabled": False, "allow_lazy_installs": False},
        "model_catalog": {"enabled": False},
        "compression": {"enabled": False},
        "auxiliary": {"title_generation": {"enabled": False}},
        "sessions": {"write_json_snapshots": True},
        "memory": {"memory_enabled": False, "user_profile_enabled": False},
        "curator": {"enabled": False},
        "display": {"inline_diffs": False, "file_mutation_verifier": False},
    }
    return deep_merge(config, extra or {})


# --------------------------------------------------------------------------- transcript
def _json(text: Any) -> Any:
    """The JSON value at the start of ``text`` (Hermes appends notes such as a "[Tool loop
    warning: ...]" after a tool's JSON result), or None."""
    if not isinstance(text, str):
        return None
    try:
        return json.JSONDecoder().raw_decode(text.lstrip())[0]
    except ValueError:
        return None


class HermesTranscript(Transcript):
    """The tap's JSON lines (Hermes's ``state.db`` rows) -> ledger events."""

    tools = HERMES_TOOLS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sessions: list[dict[str, Any]] = []
        self.totals: list[dict[str, Any]] = []
        """The ``sessions`` rows (counters, no system prompt) as last seen by the tap."""
        self.stdout: list[str] = []
        self.rows = 0
        self.user_rows = 0
        self.max_iterations = False
        """Hermes ran out of ``--max-turns`` and asked for a summary."""
        self.summary: str | None = None
        """``answered`` / ``failed``: how that summary call went."""

    def on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "message":
            self._row(record["row"])
        elif kind == "stdout":
            self.stdout.append(str(record.get("text", "")))
        elif kind == "session":
            self.sessions.append(record["row"])
        elif kind == "totals":
            totals = record["sessions"]
            if not isinstance(totals, list):
                raise TypeError("totals.sessions must be a list")
            self.totals = totals
        elif kind == "tap_end":
            self.calls_before(None)
            self.session_end = record
        # tap_start: nothing to record

    def _row(self, row: dict[str, Any]) -> None:
        self.rows += 1
        role = row.get("role")
        if role == "assistant":
            self._assistant(row)
        elif role == "tool":
            self._tool(row)
        elif role == "user":
            self.user_rows += 1
            text = row.get("content")
            if self.user_rows > 1 and isinstance(text, str):  # the first is the instruction
                self.max_iterations |= text.startswith(MAX_ITERATIONS_PROMPT)
                self.ledger.emit(MessageEvent(seq=0, role="user", text=text))

    def _take_turn(self, first_call: str | None) -> None:
        """Write the model calls behind one assistant row: through the reply that issued
        ``first_call``, else (a text reply) through the first answered call."""
        if self.model_calls is None:
            return
        events = self.model_calls.take_through(first_call) if first_call else []
        if not events:
            events = self.model_calls.take_turn(timeout_s=2.0)
        self.emit_calls(events)

    def _assistant(self, row: dict[str, Any]) -> None:
        text = row.get("content")
        if self.max_iterations and self.summary is None:
            failed = isinstance(text, str) and SUMMARY_FAILED.match(text) is not None
            self.summary = "failed" if failed else "answered"
            if failed:  # Hermes's own words; its failed call stays queued for the end
                return
        self.turns += 1
        calls = _json(row.get("tool_calls")) if row.get("tool_calls") else []
        if not isinstance(calls, list):
            self.problems.append(f"row {row.get('id')}: tool_calls is not a JSON list")
            calls = []
        calls = [c for c in calls if isinstance(c, dict) and c.get("id")]
        self._take_turn(str(calls[0]["id"]) if calls else None)
        if isinstance(text, str) and text.strip():
            self.ledger.emit(MessageEvent(seq=0, role="assistant", text=text))
        for call in calls:
            fn = call.get("function") or {}
            raw = fn.get("arguments")
            args = _json(raw) if isinstance(raw, str) else raw
            if not isinstance(args, dict):
                args = {"_raw": raw}
            self.tool_call(str(call["id"]), str(fn.get("name") or ""), args)

    def _tool(self, row: dict[str, Any]) -> None:
        call_id = str(row["tool_call_id"])
        output = row.get("content")
        output = output if isinstance(output, str) else ""
        result = _json(output)
        raw_name = self._calls.get(call_id, (str(row.get("tool_name") or ""), {}))[0]
        exit_code: int | None = None
        touched: tuple[str, ...] | None = None
        if not isinstance(result, dict):
            ok = False  # e.g. "Tool 'x' does not exist. Available tools: ..."
        elif raw_name == "terminal":
            code = result.get("exit_code")
            exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
            ok = exit_code == 0 and not result.get("error")
        else:
            ok = not result.get("error") and result.get("success") is not False
            modified = result.get("files_modified")
            if isinstance(modified, list):
                touched = tuple(self.relative(str(p)) for p in modified if p)
        self.tool_result(call_id, output, ok=ok, exit_code=exit_code, touched=touched)


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The ``state.db`` message rows in a kept tap stream (``stdout.jsonl``), in order."""
    out: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("type") == "message":
            row = record.get("row")
            if isinstance(row, dict):
                out.append(row)
    return out


# --------------------------------------------------------------------------- harness
@HARNESSES.register("hermes")
class HermesHarness(AgentCliHarness):
    """Hermes Agent's ``chat -q`` mode under the state.db tap (see the module docstring)."""

    kind = "hermes"
    MODES = frozenset({"cli_only"})
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

    def config(self, ctx: HarnessContext) -> dict[str, Any]:
        options = self._options()
        extra = options.get("config") or {}
        if not isinstance(extra, Mapping):
            raise ValueError("harness.options.config must be a mapping")
        return hermes_config(
            base_url=f"http://127.0.0.1:{ctx.gateway_port}/v1",
            model=ctx.model_id,
            workdir=ctx.workdir,
            tool_timeout_s=self.spec.tool_timeout_s,
            output_limit=self.spec.output_limit,
            verify_on_stop=options.get("verify_on_stop", "auto"),
            environment_probe=bool(options.get("environment_probe", False)),
            max_retries=int(options.get("max_retries", 3)),
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
        sandbox = ctx.sandbox
        path = sandbox.environment().get("PATH") if isinstance(sandbox, LocalSandbox) else None
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
            ",".join(self.toolsets()),
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
            for call in (_json(row["tool_calls"]) or [])
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
        if ctx.mode != "cli_only":
            raise ValueError(f"hermes supports mode cli_only, not {ctx.mode!r}")
        enforced = (
            f"toolsets restricted to {','.join(self.toolsets())} (-t): terminal, process, "
            "read_file, write_file, patch, search_files",
            "no web, browser, vision, memory, skills, todo, delegation, cron, MCP (not offered)",
            "no side model calls: compression, titles, memory, curator off (config.yaml)",
            "network: loopback to the gateway only (sandbox)",
        )
        not_enforced = (
            "terminal runs any program present in the sandbox (incl. background processes)",
            "AGENTS.md / .cursorrules in the workdir are injected into the system prompt",
        )
        return enforced, not_enforced

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
