"""CommandHarness: any CLI agent, from a command line template in YAML (``harness.command``).

realcli knows nothing of the agent's output, so the ledger is built from what every agent
must do: talk to the model gateway. The gateway hands each answered call to the harness
(:class:`~realcli.harness.exchanges.ExchangeFeed`) before the reply leaves: the reply's tool
calls become ``tool_call`` events, and the ``tool`` messages of the next request (matched by
``tool_call_id``) become their ``tool_result`` events. A final text reply is a ``message``.
The agent speaks OpenAI Chat Completions at ``{base_url}`` (or any other wire the gateway
serves, at ``{gateway}``).

Inside the sandbox: the ``files`` of the config read-only under ``/run/realcli/files/``, the
instruction at ``/run/realcli/task/instruction.md``, a per-run ``HOME`` at
``/run/realcli/home``; stdout and stderr are kept in ``native/command/``.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from realcli.harness.base import HARNESSES, Harness, HarnessContext, HarnessOutcome
from realcli.harness.process import DRAIN_S, HOME_MOUNT, TASK_MOUNT, wait_or_kill
from realcli.harness.transcript import BUILTIN_TOOLS, Transcript
from realcli.sandbox.base import SandboxProcess
from realcli.schema.events import ErrorEvent, ErrorType, MessageEvent, SessionEvent
from realcli.util.errors import ConfigError

__all__ = ["FILES_MOUNT", "CommandHarness", "GatewayTranscript"]

FILES_MOUNT = "/run/realcli/files"


class GatewayTranscript(Transcript):
    """Ledger events from the gateway's request/reply pairs (see the module docstring)."""

    def __init__(self, *args: Any, tools: Mapping[str, tuple[str, str]], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.tools = {**BUILTIN_TOOLS, **tools}  # type: ignore[misc]
        self._lock = threading.Lock()

    def on_record(self, record: dict[str, Any]) -> None:  # stdout is not parsed
        pass

    def exchange(self, messages: Sequence[Mapping[str, Any]], reply: Mapping[str, Any]) -> None:
        with self._lock:
            for msg in messages:
                call_id = msg.get("tool_call_id")
                if msg.get("role") == "tool" and call_id in self.call_ids:
                    self.tool_result(str(call_id), _text(msg.get("content")), ok=True)
            self.turns += 1
            calls = reply.get("tool_calls") or []
            for call in calls:
                self.tool_call(str(call["id"]), str(call["name"]), call.get("arguments"))
            if not calls and isinstance(reply.get("content"), str):
                self.message(reply["content"])


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False)


@HARNESSES.register("command")
class CommandHarness(Harness):
    """Runs ``harness.command.argv`` (templated) in the sandbox; see the module docstring."""

    kind = "command"

    def files(self) -> list[tuple[Path, str]]:
        """``(host path, sandbox path)`` of every configured file. Raises ConfigError."""
        cmd = self.spec.command
        assert cmd is not None
        out = []
        for name, src in cmd.files.items():
            host = Path(src).expanduser()
            host = host if host.is_absolute() else Path.cwd() / host
            if not host.exists() or "/" in name or name in ("", ".", ".."):
                raise ConfigError(
                    f"conf/harness/{self.spec.name}.yaml",
                    f"harness.command.files.{name}",
                    f"{host} does not exist" if not host.exists() else "bad file name",
                    "give a plain file name and an existing path (relative: to the directory "
                    "realcli runs in)",
                )
            out.append((host, f"{FILES_MOUNT}/{name}"))
        return out

    def template(self, ctx: HarnessContext) -> dict[str, str]:
        gateway = f"http://127.0.0.1:{ctx.gateway_port}"
        return {
            "instruction": ctx.instruction,
            "instruction_file": f"{TASK_MOUNT}/instruction.md",
            "base_url": f"{gateway}/v1",
            "gateway": gateway,
            "model": ctx.model_id,
            "workdir": ctx.workdir,
            "max_turns": str(self.spec.max_turns),
            "home": HOME_MOUNT,
            "files": FILES_MOUNT,
        }

    def _fill(self, text: str, values: Mapping[str, str], field: str) -> str:
        try:
            return text.format_map(values)
        except (KeyError, ValueError, IndexError) as exc:
            raise ConfigError(
                f"conf/harness/{self.spec.name}.yaml",
                field,
                f"bad template {text!r}: {exc}",
                f"use only {{{'}, {'.join(sorted(values))}}} (double braces for a literal brace)",
            ) from None

    def run(self, ctx: HarnessContext) -> HarnessOutcome:
        cmd = self.spec.command
        assert cmd is not None
        if ctx.exchanges is None:
            raise ValueError("the command harness needs the gateway's exchange feed")
        values = self.template(ctx)
        argv = [self._fill(a, values, f"harness.command.argv[{i}]") for i, a in enumerate(cmd.argv)]
        env = {k: self._fill(v, values, f"harness.command.env.{k}") for k, v in cmd.env.items()}
        files = self.files()
        native = ctx.native_dir / "command"
        if ctx.session_no > 1:  # a later session of the run (feedback, guidance)
            native = native / f"session-{ctx.session_no}"
        native.mkdir(parents=True, exist_ok=True)
        transcript = GatewayTranscript(
            ctx.ledger, ctx.redactor, ctx.workdir, ctx.model_calls, tools=cmd.tools
        )
        ctx.exchanges.subscribe(transcript.exchange)
        ctx.ledger.emit(
            SessionEvent(
                seq=0,
                harness="command",
                harness_version=self.spec.version,
                mode=ctx.mode,
                permission_mode="unknown",
                argv=tuple(ctx.redactor.text(a)[:500] for a in argv),
                not_enforced=("tool pool: set by the agent, not by realcli",),
            )
        )
        ctx.ledger.emit(MessageEvent(seq=0, role="user", text=ctx.instruction))
        with tempfile.TemporaryDirectory(prefix="realcli-command-") as tmp:
            home, task_dir = Path(tmp) / "home", Path(tmp) / "task"
            home.mkdir()
            task_dir.mkdir()
            (task_dir / "instruction.md").write_text(ctx.instruction, encoding="utf-8")
            sandbox = ctx.sandbox.with_options(
                ro_binds=(*ctx.sandbox.options.ro_binds, *files, (task_dir, TASK_MOUNT)),
                rw_binds=(*ctx.sandbox.options.rw_binds, (home, HOME_MOUNT)),
            )
            started = time.monotonic()
            with (
                (native / "stdout.txt").open("w", encoding="utf-8") as raw,
                sandbox.spawn(argv, cwd=ctx.workdir, env={"HOME": HOME_MOUNT, **env}) as proc,
            ):
                reader = threading.Thread(target=_copy, args=(proc, raw, ctx), daemon=True)
                reader.start()
                exit_code, stopped = wait_or_kill(proc, ctx)
                reader.join(timeout=DRAIN_S)
                if reader.is_alive():
                    proc.kill_tree()
                    reader.join(timeout=DRAIN_S)
                wall = time.monotonic() - started
                stderr = ctx.redactor.text(proc.stderr_text())
        (native / "stderr.txt").write_text(stderr, encoding="utf-8")
        with transcript._lock:
            transcript.flush_model_calls()
        turns = transcript.turns
        if stopped == "limit":  # the resource_limit event is in the ledger already
            detail = "the sandbox stopped the agent at a resource limit; process tree killed"
            return HarnessOutcome("resource_limit", turns, wall, None, detail)
        if stopped == "timeout":
            detail = f"agent exceeded its {ctx.timeout_s:g}s wall clock; process tree killed"
            ctx.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.agent_timeout, message=detail))
            return HarnessOutcome("timeout", turns, wall, None, detail)
        if stopped == "stop" or ctx.stop.is_set():
            return HarnessOutcome("cost_cap", turns, wall, None, "stopped by the runner")
        if exit_code in cmd.success_exit_codes:
            return HarnessOutcome("done", turns, wall, exit_code)
        tail = stderr.strip()[-1500:]
        detail = f"agent exited with status {exit_code}" + (
            f"; stderr tail:\n{tail}" if tail else ""
        )
        ctx.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.agent_crash, message=detail))
        return HarnessOutcome("crash", turns, wall, exit_code, detail)


def _copy(proc: SandboxProcess, raw: TextIO, ctx: HarnessContext) -> None:
    for line in proc.stdout:
        raw.write(ctx.redactor.text(line))
        raw.flush()
