"""The agent session: one harness run behind its own gateway (model backend, meter, tool pools),
with the GUI desktop when the mode has one, and the sessions of a round.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from pathlib import Path
from typing import Literal

from realcli.gateway import Gateway, make_backend
from realcli.gateway.meter import Meter, Pricing, SweepSpend
from realcli.harness import (
    ExchangeFeed,
    HarnessContext,
    HarnessOutcome,
    ModelCallRelay,
    make_harness,
)
from realcli.harness.install import InstallError
from realcli.runner.fidelity import SessionUsage, fidelity_event, not_applicable, not_started
from realcli.runner.folders import write_json_atomic
from realcli.runner.gui_session import gui_session
from realcli.runner.protocols import guidance_message, transcript_prompt
from realcli.runner.run_state import RunState, one_line
from realcli.sandbox import SandboxError
from realcli.schema.events import BudgetEvent, ErrorEvent, ErrorType, ModelCallEvent
from realcli.schema.run_spec import RunSpec

SPEND_FILE = ".spend.json"
"""Per experiment folder: what all its runs have spent (the sweep cost cap)."""


def _meter(spec: RunSpec) -> Meter:
    p, b = spec.model.pricing, spec.budget
    sweep = None
    if b.sweep_usd is not None:
        sweep = SweepSpend(Path(spec.paths.runs_dir) / spec.experiment_name / SPEND_FILE)
    return Meter(
        Pricing(p.input_per_mtok, p.output_per_mtok, p.cached_input_per_mtok),
        run_cap_usd=b.run_usd,
        sweep_cap_usd=b.sweep_usd,
        sweep=sweep,
    )


def _write_pools(path: Path, gateway: Gateway) -> None:
    """Every tool pool with its full schemas (the ledger has names and digests)."""
    pools = [
        {
            "tools_digest": p.tools_digest,
            "system_digest": p.system_digest,
            "calls": p.calls,
            "tools": [{"name": n, "schema": s} for n, s in zip(p.tools, p.schemas, strict=True)],
        }
        for p in gateway.pools.values()
    ]
    write_json_atomic(path, pools)


def _infra_type(exc: Exception, launching: bool) -> ErrorType:
    """The typed reason of an exception that ended a session: the agent is not installed,
    the sandbox could not start it, or another infra failure."""
    if isinstance(exc, InstallError):
        return ErrorType.agent_not_installed
    if launching and isinstance(exc, SandboxError):
        return ErrorType.agent_launch_failed
    return ErrorType.infra_error


class AgentSession(RunState):
    """A round's agent sessions: gateway, sandbox and harness for each, and how a
    continuation reaches the agent."""

    def _sessions(
        self, workspace: Path, message: str, resume: bool, state_dir: Path
    ) -> tuple[str, float]:
        """One round's agent sessions: the first, then one more each time the agent stops
        with hidden tests failing and guidance is due (``agent_stopped``)."""
        guidance = self.spec.protocol.guidance
        seconds = 0.0
        for n in range(self.spec.protocol.max_sessions):
            self.session_no += 1
            reason, took = self._agent(workspace, message, resume, state_dir)
            seconds += took
            stopped_ok = reason == "done" and n + 1 < self.spec.protocol.max_sessions
            if guidance is None or "agent_stopped" not in guidance.triggers or not stopped_ok:
                return reason, seconds
            found = self.live.guidance("agent_stopped")
            if found is None:
                return reason, seconds
            text, source, substep = found
            message, resume, delivery = self._continuation(guidance_message(text))
            self.intervene(
                self.live.round,
                "guidance",
                "agent_stopped",
                source,
                delivery,
                text,
                substep=substep,
            )
        return reason, seconds

    def _continuation(self, text: str) -> tuple[str, bool, Literal["resume", "transcript"]]:
        """How ``text`` reaches the agent next: its own session resumed, or a fresh session
        that gets the run's transcript first."""
        if self.harness_resumes:
            return text, True, "resume"
        prompt, _ = transcript_prompt(self.ledger.path, self.first_instruction, text)
        return prompt, False, "transcript"

    def _agent(
        self, workspace: Path, instruction: str, resume: bool, state_dir: Path
    ) -> tuple[str, float]:
        """One agent session; returns (how it ended, seconds)."""
        usage = SessionUsage()
        relay = ModelCallRelay()  # the harness writes each call in turn order
        feed = ExchangeFeed()
        meter = _meter(self.spec)

        def on_call(event: ModelCallEvent) -> None:
            usage.add(event)
            relay(event)

        started = time.monotonic()
        reason, turns = "infra_error", 0
        self.live.start_session()
        outcome: HarnessOutcome | None = None
        gateway: Gateway | None = None
        sock_dir = Path(tempfile.mkdtemp(prefix="realcli-gw-"))
        native_dir = self.run_dir / "native"
        native_dir.mkdir(exist_ok=True)
        ctx: HarnessContext | None = None
        launching = False
        try:
            reference = self.task.replay_reference() if self.spec.model.backend == "replay" else []
            backend = make_backend(
                self.spec.model,
                reference,
                workdir=self.task.spec.workdir,
                limits_dir=Path(self.spec.paths.runs_dir) / ".locks" / "providers",
            )
            for secret in backend.secrets():  # an upstream API key: masked in every file
                self.redactor.add(secret)
            harness = make_harness(self.spec.harness)
            sb = self.spec.sandbox
            options = self.options(
                workspace, gateway_socket=sock_dir / "gateway.sock", gateway_port=sb.gateway_port
            )
            timeout = sb.agent_timeout_s or self.task.spec.timeouts.agent_s
            with contextlib.ExitStack() as stack:
                gui = None
                if "gui" in self.spec.mode.channels:
                    gui = stack.enter_context(
                        gui_session(
                            self.task, workspace, self.run_dir, self.make_sandbox, self.ledger.emit
                        )
                    )
                if gui is not None:
                    self.live.gui = gui.service
                    stack.callback(setattr, self.live, "gui", None)
                gateway = Gateway(
                    backend,
                    on_call,
                    model_id=self.spec.model.model_id,
                    meter=meter,
                    log_path=native_dir / "gateway.jsonl",
                    redactor=self.redactor,
                    on_exchange=feed,
                    gui=gui.service if gui is not None else None,
                    interjector=self.live.interjector,
                    first_call=self.live.model_calls,
                    before_call=self.live.before_call,
                    require_gui=gui is not None,
                    on_infra_error=self._gui_tools_missing,
                    max_body_bytes=sb.gateway_max_body_mb * 1024 * 1024,
                    max_concurrent=sb.gateway_max_concurrent,
                    max_inflight_bytes=sb.gateway_max_inflight_mb * 1024 * 1024,
                    queue_timeout_s=sb.gateway_queue_timeout_s,
                )
                stack.enter_context(gateway)
                gateway.start(sock_dir / "gateway.sock")
                sandbox = self.make_sandbox(options)
                if gui is not None and "cli" in self.spec.mode.channels:
                    sandbox = gui.agent_sandbox(sandbox)  # the shell may drive the display
                ctx = HarnessContext(
                    sandbox=sandbox,
                    ledger=self.ledger,
                    native_dir=native_dir,
                    instruction=instruction,
                    model_id=self.spec.model.model_id,
                    gateway_port=sb.gateway_port,
                    workdir=self.task.spec.workdir,
                    timeout_s=timeout,
                    redactor=self.redactor,
                    model_calls=relay,
                    mode=self.spec.mode.name,
                    channels=tuple(self.spec.mode.channels),
                    agents_dir=Path(self.spec.paths.agents_dir),
                    exchanges=feed,
                    stop=meter.exceeded,  # set by the gateway before it refuses a call
                    session_no=self.session_no,
                    resume=resume and self.session_no > 1,
                    state_dir=state_dir,
                )
                launching = True
                outcome = harness.run(ctx)
                self.live.end_session()  # the last calls' files, while the display is up
            reason, turns = outcome.reason, outcome.turns
        except Exception as exc:  # an infra failure: labelled, never dropped
            self.ledger.emit(
                ErrorEvent(seq=0, error_type=_infra_type(exc, launching), message=one_line(exc))
            )
        finally:
            self.live.interjector_discard()  # guidance the session ended before it was read
            for event in relay.drain():  # calls a failed harness never wrote
                self.ledger.emit(event)
            shutil.rmtree(sock_dir, ignore_errors=True)
            self.live.end_session()
        if meter.exceeded.is_set():
            reason = "cost_cap"
            self.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.cost_cap, message=meter.reason))
        if gateway is not None:
            for pool in gateway.pools.values():
                self.ledger.emit(pool.event())
            _write_pools(native_dir / "tool_pools.json", gateway)
        started_agent = usage.calls > 0 or reason == "cost_cap"
        if not started_agent:  # nothing to grade the model on: an infra error, labelled
            if outcome is not None:
                self.ledger.emit(not_started(outcome, self.session_no))
            reason = "not_started"
            self.ledger.emit(not_applicable(outcome, self.spec.harness.kind))
        elif outcome is not None and outcome.native is not None:
            self.ledger.emit(fidelity_event(outcome, usage, self.ledger.path))
        seconds = time.monotonic() - started
        self.ledger.emit(
            BudgetEvent(
                seq=0,
                turns=turns,
                wall_clock_s=seconds,
                tokens_in=usage.tokens_in,
                tokens_out=usage.tokens_out,
                cost_usd=usage.cost_usd,
            )
        )
        return reason, seconds

    def _gui_tools_missing(self, message: str) -> None:
        self.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.gui_tools_missing, message=message))
