"""AgentCliHarness: the shared machinery of adapters that run a real agent CLI.

An adapter says *what* to run (its install recipe, config files in a per-run home, command
line, environment, how to parse its stdout, which session files to keep and how to read
them back); this base does the rest the same way for every agent:

- the agent's install is mounted read-only at its own host path (:mod:`.install`); a fresh
  per-run home (a host temp folder) is mounted read-write at :data:`HOME_MOUNT` and is the
  agent's ``HOME``; the task instruction is at ``/run/realcli/task/instruction.md``;
- a ``session`` event records the harness, version, mode, permission mode, command line
  (redacted) and which mode restrictions are (not) enforced;
- stdout is copied, redacted, to ``native/<kind>/stdout.jsonl`` and fed line by line to the
  adapter's :class:`~realcli.harness.transcript.Transcript` as it arrives;
- a hard wall clock (and the runner's stop signal, e.g. a cost cap) kills the whole process
  tree;
- the adapter's session files are copied, redacted, under ``native/<kind>/home/`` and read
  back into a :class:`NativeSession` for the runner's fidelity check.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import tempfile
import threading
import time
from abc import abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, TextIO

from realcli.gui import mcp_server
from realcli.harness.base import Harness, HarnessContext, HarnessOutcome, NativeSession
from realcli.harness.install import AgentInstall, agents_dir, find_install
from realcli.harness.process import DRAIN_S, HOME_MOUNT, TASK_MOUNT, wait_or_kill
from realcli.harness.transcript import Transcript
from realcli.ledger.warnings import warn_skipped
from realcli.sandbox import sandbox_python
from realcli.sandbox.base import Sandbox, SandboxProcess
from realcli.schema.events import ErrorEvent, ErrorType, MessageEvent, SessionEvent
from realcli.util.safe_fs import NotARegularFile, read_bytes_under, remove_links

__all__ = ["HOME_MOUNT", "TASK_MOUNT", "AgentCliHarness", "deep_merge", "script_of"]

GUI_MCP_SCRIPT = Path(mcp_server.__file__)
GUI_MCP_MOUNT = "/run/realcli/gui/mcp_server.py"
INSTRUCTION = f"{TASK_MOUNT}/instruction.md"
MAX_NATIVE_BYTES = 64 * 1024 * 1024


def deep_merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` merged in, nested mappings key by key (``options.config``)."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def script_of(main: Callable[[], int]) -> str:
    """A stdlib-only function as a standalone script that runs it (an adapter's tap or
    launcher, written into the task folder and run inside the sandbox)."""
    return (
        "from __future__ import annotations\n\n"
        + inspect.getsource(main)
        + f"\n\nraise SystemExit({main.__name__}())\n"
    )


class AgentCliHarness(Harness):
    """Base class of real agent CLI adapters (see the module docstring)."""

    agent: ClassVar[str]
    """Install recipe name (its :attr:`~realcli.harness.base.Harness.RECIPE`'s name)."""
    transcript_class: ClassVar[type[Transcript]]
    permission_mode: ClassVar[str] = "bypass"
    """The agent's approval setting as realcli runs it (recorded in the ``session`` event)."""

    # ----------------------------------------------------------------- adapter hooks
    def prepare_home(self, ctx: HarnessContext, home: Path, install: AgentInstall) -> None:
        """Write the agent's config files into the per-run ``home`` (host path)."""

    def environment(self, ctx: HarnessContext, install: AgentInstall) -> dict[str, str]:
        """Extra environment of the agent (the sandbox's is otherwise clean)."""
        return {}

    @abstractmethod
    def argv(self, ctx: HarnessContext, install: AgentInstall) -> list[str]:
        """The agent's command line inside the sandbox."""

    def native_files(self, home: Path) -> list[Path]:
        """The session files to keep, under the host ``home`` (default: none)."""
        return []

    def native_session(
        self, ctx: HarnessContext, kept: list[Path], transcript: Transcript
    ) -> NativeSession | None:
        """What the kept session files say (for the fidelity check); None if unreadable."""
        return None

    def modes(self, ctx: HarnessContext) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``(enforced, not_enforced)`` mode restrictions for ``ctx.mode``."""
        return (), ()

    def ending(self, transcript: Transcript, exit_code: int | None) -> tuple[str | None, str]:
        """``(reason, detail)`` of a session the agent ended itself: ``done``/``max_turns``/
        ``error``, or None for a crash. Default: exit status 0 is ``done``."""
        return ("done", "") if exit_code == 0 else (None, "")

    # ----------------------------------------------------------------- machinery
    def install(self, ctx: HarnessContext) -> AgentInstall:
        return find_install(self.agent, ctx.agents_dir or agents_dir(), self.spec.version)

    def sandbox(
        self, ctx: HarnessContext, install: AgentInstall, home: Path, task_dir: Path
    ) -> Sandbox:
        binds = [(p, str(p)) for p in install.binds()]
        if install.recipe.needs_node:
            node = find_install("node", install.root.parent)
            binds.append((node.root, str(node.root)))
        if "gui" in ctx.channels:  # the GUI MCP server, started by the agent (stdio)
            binds.append((GUI_MCP_SCRIPT, GUI_MCP_MOUNT))
        return ctx.sandbox.with_options(
            limit_address_space=False,  # V8 / Bun / Rust runtimes reserve huge address space
            ro_binds=(*ctx.sandbox.options.ro_binds, *binds, (task_dir, TASK_MOUNT)),
            rw_binds=(*ctx.sandbox.options.rw_binds, (home, HOME_MOUNT)),
        )

    def gui_mcp_server(self, ctx: HarnessContext) -> tuple[str, list[str]]:
        """``(command, args)`` of the GUI MCP server as the agent starts it in its sandbox
        (stdio; it forwards every call to the trusted GUI service at the gateway)."""
        gateway = f"http://127.0.0.1:{ctx.gateway_port}"
        return sandbox_python(), [GUI_MCP_MOUNT, "--transport", "stdio", "--gateway", gateway]

    def remember(self, state: Path, transcript: Transcript) -> None:
        """Keep what a resumed session needs (e.g. the agent's session id) under ``state``."""

    def native_folder(self, ctx: HarnessContext) -> Path:
        """``native/<kind>/`` for the run's first session, ``native/<kind>/session-N/`` for a
        later one (feedback, guidance)."""
        native = ctx.native_dir / self.spec.kind
        return native if ctx.session_no == 1 else native / f"session-{ctx.session_no}"

    def node_bin(self, install: AgentInstall) -> str:
        return str(find_install("node", install.root.parent).entry.parent)

    def run(self, ctx: HarnessContext) -> HarnessOutcome:
        options = ctx.sandbox.options
        if options.gateway_socket is None or options.gateway_port != ctx.gateway_port:
            raise ValueError("the agent's sandbox needs gateway_socket and gateway_port set")
        install = self.install(ctx)
        native = self.native_folder(ctx)
        native.mkdir(parents=True, exist_ok=True)
        transcript = self.transcript_class(ctx.ledger, ctx.redactor, ctx.workdir, ctx.model_calls)
        with tempfile.TemporaryDirectory(prefix=f"realcli-{self.spec.kind}-") as tmp:
            home, task_dir = Path(tmp) / "home", Path(tmp) / "task"
            if self.resumes and ctx.state_dir is not None:  # kept for a resumed session
                home = ctx.state_dir / self.spec.kind / "home"
            home.mkdir(parents=True, exist_ok=True)
            # a resumed home is the agent's: no link of its may redirect prepare_home's writes
            warn_skipped(ctx.ledger.emit, remove_links(home), f"{self.spec.kind} home (resume)")
            task_dir.mkdir()
            (task_dir / "instruction.md").write_text(ctx.instruction, encoding="utf-8")
            self.prepare_home(ctx, home, install)
            sandbox = self.sandbox(ctx, install, home, task_dir)
            argv = self.argv(ctx, install)
            env = {"HOME": HOME_MOUNT, **self.environment(ctx, install)}
            enforced, not_enforced = self.modes(ctx)
            ctx.ledger.emit(
                SessionEvent(
                    seq=0,
                    harness=self.spec.kind,
                    harness_version=self.spec.version,
                    mode=ctx.mode,
                    permission_mode=self.permission_mode,
                    argv=tuple(ctx.redactor.text(a)[:500] for a in argv),
                    enforced=enforced,
                    not_enforced=not_enforced,
                )
            )
            ctx.ledger.emit(MessageEvent(seq=0, role="user", text=ctx.instruction))
            started = time.monotonic()
            with (
                (native / "stdout.jsonl").open("w", encoding="utf-8") as raw,
                sandbox.spawn(argv, cwd=ctx.workdir, env=env) as proc,
            ):
                reader = threading.Thread(
                    target=_pump, args=(proc, raw, transcript, ctx), daemon=True
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
            (native / "stderr.txt").write_text(stderr, encoding="utf-8")
            kept = self._keep(ctx, home, native)
            try:
                session = self.native_session(ctx, kept, transcript)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                session = NativeSession(
                    source=str(native.relative_to(ctx.native_dir.parent)),
                    problems=(f"cannot read the native session: {exc}",),
                )
            if self.resumes and ctx.state_dir is not None:
                session = _this_session(session, ctx.state_dir / self.spec.kind, ctx.resume)
                self.remember(ctx.state_dir / self.spec.kind, transcript)
        return self._outcome(ctx, transcript, stopped, exit_code, wall, stderr, session)

    def _keep(self, ctx: HarnessContext, home: Path, native: Path) -> list[Path]:
        """Copy the session files (redacted) to ``native/<kind>/home/``; the copies.

        The agent's processes are gone, so the home is first rid of every symlink and
        special file it left (a link to a hidden test or to ``/proc/self/environ`` would
        otherwise be copied out; a FIFO would block); each file is then read fd-relative
        with ``O_NOFOLLOW`` (:mod:`realcli.util.safe_fs`), so nothing outside the home is
        ever read. What was left out is a ``warning`` event."""
        skipped = remove_links(home)
        kept: list[Path] = []
        for src in self.native_files(home):
            try:
                rel = src.relative_to(home)
                data = read_bytes_under(home, rel, max_bytes=MAX_NATIVE_BYTES)
            except NotARegularFile as exc:
                if exc.skipped.kind != "too_large":
                    skipped.append(exc.skipped)
                continue
            except (OSError, ValueError):
                continue
            dest = native / "home" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                dest.write_bytes(data)
            else:
                dest.write_text(ctx.redactor.text(text), encoding="utf-8")
            kept.append(dest)
        warn_skipped(ctx.ledger.emit, skipped, f"native_files ({self.spec.kind} home)")
        return kept

    def _outcome(
        self,
        ctx: HarnessContext,
        transcript: Transcript,
        stopped: str | None,
        exit_code: int | None,
        wall: float,
        stderr: str,
        session: NativeSession | None,
    ) -> HarnessOutcome:
        turns = transcript.turns
        if transcript.noise or transcript.problems:
            session = session or NativeSession(source=f"native/{self.spec.kind}/stdout.jsonl")
        if stopped == "limit":  # the resource_limit event is in the ledger already
            detail = "the sandbox stopped the agent at a resource limit; process tree killed"
            return HarnessOutcome("resource_limit", turns, wall, None, detail, session)
        if stopped == "timeout":
            detail = f"agent exceeded its {ctx.timeout_s:g}s wall clock; process tree killed"
            ctx.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.agent_timeout, message=detail))
            return HarnessOutcome("timeout", turns, wall, None, detail, session)
        if stopped == "stop" or ctx.stop.is_set():
            detail = "the runner stopped the agent (cost cap); process tree killed"
            return HarnessOutcome("cost_cap", turns, wall, None, detail, session)
        reason, detail = self.ending(transcript, exit_code)
        if reason is None:
            tail = stderr.strip()[-1500:]
            detail = f"{self.spec.kind} exited with status {exit_code} without finishing"
            detail += f"; stderr tail:\n{tail}" if tail else ""
            ctx.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.agent_crash, message=detail))
            return HarnessOutcome("crash", turns, wall, exit_code, detail, session)
        if reason == "error":
            ctx.ledger.emit(
                ErrorEvent(
                    seq=0,
                    error_type=ErrorType.gateway_error,
                    message=f"{self.spec.kind} gave up on a model error: {detail}",
                )
            )
        return HarnessOutcome(reason, turns, wall, exit_code, detail, session)  # type: ignore[arg-type]


def _this_session(
    session: NativeSession | None, state: Path, resumed: bool
) -> NativeSession | None:
    """A resumed agent's native log holds every session of the run: count only this one's
    calls, tokens and tool calls (the totals so far are kept in ``state``)."""
    if session is None:
        return None
    totals = state / "native_totals.json"
    before: dict[str, Any] = {}
    if resumed and totals.is_file():
        before = json.loads(totals.read_text(encoding="utf-8"))
    totals.write_text(
        json.dumps(
            {
                "model_calls": session.model_calls,
                "tokens_in": session.tokens_in,
                "tokens_out": session.tokens_out,
                "tool_call_ids": list(session.tool_call_ids),
            }
        ),
        encoding="utf-8",
    )
    if not before:
        return session

    def minus(now: int | None, key: str) -> int | None:
        earlier = before.get(key)
        return now - earlier if now is not None and isinstance(earlier, int) else now

    seen = set(before.get("tool_call_ids") or ())
    return dataclasses.replace(
        session,
        model_calls=minus(session.model_calls, "model_calls"),
        tokens_in=minus(session.tokens_in, "tokens_in"),
        tokens_out=minus(session.tokens_out, "tokens_out"),
        tool_call_ids=tuple(c for c in session.tool_call_ids if c not in seen),
    )


def _pump(proc: SandboxProcess, raw: TextIO, transcript: Transcript, ctx: HarnessContext) -> None:
    """Copy each stdout line to native/ (redacted) and into the ledger, as it arrives."""
    for line in proc.stdout:
        raw.write(ctx.redactor.text(line))
        raw.flush()
        try:
            transcript.feed(line)
        except Exception as exc:  # e.g. the ledger's disk is full: keep draining stdout
            transcript.problems.append(f"could not record a line: {type(exc).__name__}: {exc}")
