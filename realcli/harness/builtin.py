"""BuiltinHarness: runs ``agents/builtin_agent.py`` in the sandbox with the system Python.

Inside the sandbox the agent sees, read-only, ``/run/realcli/agent/builtin_agent.py`` (with its
stdlib-only sibling modules beside it) and ``/run/realcli/task/instruction.md`` (a private
copy), and the gateway at ``http://127.0.0.1:PORT/v1``. Its stdout (JSONL) becomes ledger
events as it arrives and is kept, redacted, in ``native/builtin_agent.jsonl``; its stderr in
``native/builtin_agent.stderr``.
"""

from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path
from typing import TextIO

from realcli.harness.base import HARNESSES, Harness, HarnessContext, HarnessOutcome, OutcomeReason
from realcli.harness.process import DRAIN_S, TASK_MOUNT, wait_or_kill
from realcli.harness.transcript import BuiltinTranscript
from realcli.sandbox.base import SandboxProcess
from realcli.schema.events import ErrorEvent, ErrorType, MessageEvent, SessionEvent

__all__ = ["AGENT_MOUNT", "AGENT_SCRIPT", "BuiltinHarness", "agent_binds"]

AGENT_SCRIPT = Path(__file__).parent / "agents" / "builtin_agent.py"
AGENT_MOUNT = "/run/realcli/agent/builtin_agent.py"
AGENT_MODULES = ("builtin_tools.py",)
"""The script's stdlib-only sibling modules: it imports them from its own folder."""
AGENT_PYTHON = "/usr/bin/python3"
STATE_MOUNT = "/run/realcli/state"
STATE_FILE = f"{STATE_MOUNT}/conversation.json"
NATIVE_STDOUT = "builtin_agent.jsonl"
NATIVE_STDERR = "builtin_agent.stderr"
_ENDINGS: dict[str, OutcomeReason] = {"done": "done", "max_turns": "max_turns", "error": "error"}


def agent_binds() -> tuple[tuple[Path, str], ...]:
    """Read-only binds of the agent script at :data:`AGENT_MOUNT` and its sibling modules
    beside it."""
    folder = AGENT_MOUNT.rsplit("/", 1)[0]
    siblings = tuple((AGENT_SCRIPT.with_name(m), f"{folder}/{m}") for m in AGENT_MODULES)
    return ((AGENT_SCRIPT, AGENT_MOUNT), *siblings)


@HARNESSES.register("builtin")
class BuiltinHarness(Harness):
    """realcli's own minimal agent loop (shell, read_file, write_file, edit_file)."""

    kind = "builtin"
    resumes = True

    def argv(self, ctx: HarnessContext) -> list[str]:
        """The agent's command line inside the sandbox."""
        s = self.spec
        return [
            AGENT_PYTHON,
            "-I",
            AGENT_MOUNT,
            "--base-url",
            f"http://127.0.0.1:{ctx.gateway_port}/v1",
            "--model",
            ctx.model_id,
            "--instruction-file",
            f"{TASK_MOUNT}/instruction.md",
            "--workdir",
            ctx.workdir,
            "--max-turns",
            str(s.max_turns),
            "--tool-timeout",
            str(s.tool_timeout_s),
            "--output-limit",
            str(s.output_limit),
            "--channels",
            ",".join(ctx.channels),
            *(["--state-file", STATE_FILE] if ctx.state_dir is not None else []),
            *(["--resume"] if ctx.resume else []),
        ]

    def session(self, ctx: HarnessContext) -> SessionEvent:
        """How the agent runs: every offered tool without approval; its tool pool is exactly
        the mode's channels (CLI tools, GUI tools or both)."""
        tools = [
            *(["shell", "read_file", "write_file", "edit_file"] if "cli" in ctx.channels else [])
        ]
        tools += ["gui_<tool> (the GUI service's tools)"] if "gui" in ctx.channels else []
        return SessionEvent(
            seq=0,
            harness="builtin",
            harness_version=self.spec.version,
            mode=ctx.mode,
            permission_mode="no-approvals",
            argv=tuple(self.argv(ctx)),
            enforced=(f"tools offered: {', '.join(tools)}",),
        )

    def run(self, ctx: HarnessContext) -> HarnessOutcome:
        options = ctx.sandbox.options
        if options.gateway_socket is None or options.gateway_port != ctx.gateway_port:
            raise ValueError(
                "the agent's sandbox needs gateway_socket set and gateway_port equal to "
                f"ctx.gateway_port ({options.gateway_socket}, {options.gateway_port} != "
                f"{ctx.gateway_port})"
            )
        ctx.native_dir.mkdir(parents=True, exist_ok=True)
        transcript = BuiltinTranscript(ctx.ledger, ctx.redactor, ctx.workdir, ctx.model_calls)
        with tempfile.TemporaryDirectory(prefix="realcli-task-") as task_dir:
            (Path(task_dir) / "instruction.md").write_text(ctx.instruction, encoding="utf-8")
            sandbox = ctx.sandbox.with_ro_binds(*agent_binds(), (Path(task_dir), TASK_MOUNT))
            if ctx.state_dir is not None:  # the conversation, kept for a resumed session
                state = ctx.state_dir / "builtin"
                state.mkdir(parents=True, exist_ok=True)
                sandbox = sandbox.with_rw_binds((state, STATE_MOUNT))
            ctx.ledger.emit(self.session(ctx))
            ctx.ledger.emit(MessageEvent(seq=0, role="user", text=ctx.instruction))
            started = time.monotonic()
            with (
                (ctx.native_dir / _numbered(NATIVE_STDOUT, ctx)).open("w", encoding="utf-8") as raw,
                sandbox.spawn(self.argv(ctx), cwd=ctx.workdir) as proc,
            ):
                reader = threading.Thread(
                    target=_pump,
                    args=(proc, raw, transcript, ctx),
                    name="builtin-agent-stdout",
                    daemon=True,
                )
                reader.start()
                exit_code, stopped = wait_or_kill(proc, ctx)
                reader.join(timeout=DRAIN_S)
                if reader.is_alive():  # a leftover process holds stdout open
                    proc.kill_tree()
                    reader.join(timeout=DRAIN_S)
                wall = time.monotonic() - started
                stderr = ctx.redactor.text(proc.stderr_text())
            transcript.flush_model_calls()
            (ctx.native_dir / _numbered(NATIVE_STDERR, ctx)).write_text(stderr, encoding="utf-8")
        return self._outcome(ctx, transcript, stopped, exit_code, wall, stderr)

    def _outcome(
        self,
        ctx: HarnessContext,
        transcript: BuiltinTranscript,
        stopped: str | None,
        exit_code: int | None,
        wall: float,
        stderr: str,
    ) -> HarnessOutcome:
        turns = transcript.turns
        if stopped == "limit":  # the resource_limit event is in the ledger already
            detail = "the sandbox stopped the agent at a resource limit; process tree killed"
            return HarnessOutcome("resource_limit", turns, wall, None, detail)
        if stopped == "timeout":
            detail = f"agent exceeded its {ctx.timeout_s:g}s wall clock; process tree killed"
            ctx.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.agent_timeout, message=detail))
            return HarnessOutcome("timeout", turns, wall, None, detail)
        if stopped == "stop" or ctx.stop.is_set():
            detail = "the runner stopped the agent (cost cap); process tree killed"
            return HarnessOutcome("cost_cap", turns, wall, None, detail)
        end = transcript.session_end
        reason = _ENDINGS.get(str(end.get("reason"))) if end is not None else None
        if reason is None:
            tail = stderr.strip()[-1500:]
            detail = f"agent exited with status {exit_code} without ending its session"
            detail += f"; stderr tail:\n{tail}" if tail else ""
            ctx.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.agent_crash, message=detail))
            return HarnessOutcome("crash", turns, wall, exit_code, detail)
        detail = str(end.get("detail") or "") if end is not None else ""
        if reason == "error":
            message = f"agent gave up on a gateway error: {detail}"
            ctx.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.gateway_error, message=message))
        return HarnessOutcome(reason, turns, wall, exit_code, detail)


def _numbered(name: str, ctx: HarnessContext) -> str:
    """``name`` for the first session, ``stem.N.suffix`` for session N > 1."""
    if ctx.session_no == 1:
        return name
    stem, dot, suffix = name.partition(".")
    return f"{stem}.{ctx.session_no}{dot}{suffix}"


def _pump(
    proc: SandboxProcess, raw: TextIO, transcript: BuiltinTranscript, ctx: HarnessContext
) -> None:
    """Copy each stdout line to native/ (redacted) and into the ledger, as it arrives."""
    for line in proc.stdout:
        raw.write(ctx.redactor.text(line))
        raw.flush()
        try:
            transcript.feed(line)
        except Exception as exc:  # e.g. the ledger's disk is full: keep draining stdout
            transcript.problems.append(f"could not record a line: {type(exc).__name__}: {exc}")
