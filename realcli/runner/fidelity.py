"""A session's fidelity: the gateway's count of model calls and tokens against the harness's
native session log, and the typed errors of a session that never reached the model.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from realcli.harness import HarnessOutcome
from realcli.ledger import read_ledger
from realcli.sandbox import LAUNCH_FAILED_EXIT, LAUNCH_FAILED_MARK
from realcli.schema.events import ErrorEvent, ErrorType, FidelityEvent, ModelCallEvent


@dataclass
class SessionUsage:
    calls: int = 0
    answered: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    answered_in: int = 0
    answered_out: int = 0
    cost_usd: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, event: ModelCallEvent) -> None:
        with self.lock:
            self.calls += 1
            self.tokens_in += event.tokens_in
            self.tokens_out += event.tokens_out
            self.cost_usd += event.cost_usd
            if event.status == 200:
                self.answered += 1
                self.answered_in += event.tokens_in
                self.answered_out += event.tokens_out


def not_started(outcome: HarnessOutcome, session_no: int) -> ErrorEvent:
    """The session ended before its first model call: the agent never worked on the task
    (crashed at start-up, exited, hung until its wall clock), or could not be launched at
    all (the sandbox launcher's exit status and stderr line)."""
    launch = outcome.exit_code == LAUNCH_FAILED_EXIT and LAUNCH_FAILED_MARK in outcome.detail
    how = f"{outcome.reason}, exit status {outcome.exit_code}"
    detail = f": {outcome.detail[-1500:]}" if outcome.detail else ""
    if launch:
        message = f"the sandbox could not launch the agent ({how}){detail}"
        return ErrorEvent(seq=0, error_type=ErrorType.agent_launch_failed, message=message)
    message = f"agent session {session_no} ended ({how}) before its first model call{detail}"
    return ErrorEvent(seq=0, error_type=ErrorType.agent_not_started, message=message)


def not_applicable(outcome: HarnessOutcome | None, harness: str) -> FidelityEvent:
    """The fidelity check of a session that never reached the model: not applicable."""
    native = outcome.native if outcome is not None else None
    source = native.source if native is not None else f"native/{harness}"
    return FidelityEvent(
        seq=0,
        source=source,
        ok=False,
        applicable=False,
        gateway_calls=0,
        problems=("not applicable: the session made no model call",),
    )


def fidelity_event(
    outcome: HarnessOutcome, usage: SessionUsage, ledger_path: Path
) -> FidelityEvent:
    """The gateway's view of the session against the harness's native session log."""
    native = outcome.native
    assert native is not None
    in_ledger = {e.call_id for e in read_ledger(ledger_path).events if e.kind == "tool_call"}
    missing = tuple(c for c in native.tool_call_ids if c not in in_ledger)
    problems = list(native.problems)
    if native.model_calls is not None and native.model_calls != usage.answered:
        problems.append(
            f"model calls: gateway answered {usage.answered}, native log has {native.model_calls}"
        )
    for what, ours, theirs in (
        ("tokens in", usage.answered_in, native.tokens_in),
        ("tokens out", usage.answered_out, native.tokens_out),
    ):
        if theirs is not None and theirs != ours:
            problems.append(f"{what}: gateway {ours}, native log {theirs}")
    if missing:
        problems.append(f"{len(missing)} native tool call(s) missing from the ledger")
    return FidelityEvent(
        seq=0,
        source=native.source,
        ok=not problems,
        gateway_calls=usage.answered,
        native_calls=native.model_calls,
        gateway_tokens_in=usage.answered_in,
        gateway_tokens_out=usage.answered_out,
        native_tokens_in=native.tokens_in,
        native_tokens_out=native.tokens_out,
        native_tool_calls=len(native.tool_call_ids),
        missing_tool_calls=missing,
        problems=tuple(problems),
    )
