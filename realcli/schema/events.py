"""Ledger events: one typed, versioned record per line of ``ledger.jsonl`` (UTC timestamps).

Line 1 is always a :class:`HeaderEvent`; every later line is one of the events of
:data:`Event`, discriminated on ``kind``. Sequence numbers are monotonic per ledger.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from realcli.schema.base import Frozen

__all__ = [
    "INFRA_ERRORS",
    "LEDGER_SCHEMA_VERSION",
    "BudgetEvent",
    "Channel",
    "ErrorEvent",
    "ErrorType",
    "Event",
    "EventAdapter",
    "FidelityEvent",
    "GradingEvent",
    "GradingTamperedEvent",
    "HeaderEvent",
    "InterventionEvent",
    "MessageEvent",
    "ModelCallEvent",
    "RoundEndEvent",
    "RoundStartEvent",
    "RunEndEvent",
    "ScreenshotEvent",
    "SessionEvent",
    "SnapshotEvent",
    "ToolCallEvent",
    "ToolPoolEvent",
    "ToolResultEvent",
    "WarningEvent",
    "WarningType",
    "utc_now",
]

LEDGER_SCHEMA_VERSION = 1


def utc_now() -> datetime:
    return datetime.now(UTC)


class Channel(StrEnum):
    cli = "cli"
    gui = "gui"


class ErrorType(StrEnum):
    agent_timeout = "agent_timeout"
    agent_crash = "agent_crash"
    resource_limit = "resource_limit"
    sandbox_error = "sandbox_error"
    gateway_error = "gateway_error"
    budget_exceeded = "budget_exceeded"
    cost_cap = "cost_cap"
    task_error = "task_error"
    grading_error = "grading_error"
    infra_error = "infra_error"
    # the run never started: infra errors with a typed reason (labelled, still in denominators)
    agent_not_installed = "agent_not_installed"
    """The agent CLI's install is missing or incomplete (``realcli agents install``)."""
    agent_launch_failed = "agent_launch_failed"
    """The sandbox could not start the agent's program (missing binary, bad bind)."""
    agent_not_started = "agent_not_started"
    """The agent's session ended before its first model call (crashed at start-up, exited,
    or hung until its wall clock)."""
    gui_tools_missing = "gui_tools_missing"
    """A request in a mode with the GUI channel offered tools but none of the GUI tools
    (e.g. the agent started before its GUI MCP server was up)."""
    missing_tool = "missing_tool"
    """Preflight: a program the task needs (``requires``, its Dockerfile) is not on PATH in
    its sandbox; the run never started (``realcli.runner.preflight``)."""


INFRA_ERRORS: frozenset[ErrorType] = frozenset(
    {
        ErrorType.sandbox_error,
        ErrorType.gateway_error,
        ErrorType.infra_error,
        ErrorType.agent_not_installed,
        ErrorType.agent_launch_failed,
        ErrorType.agent_not_started,
        ErrorType.gui_tools_missing,
        ErrorType.missing_tool,
    }
)
"""Error types that make a run ``infra_error``: the harness, sandbox or gateway failed, not
the agent at the task."""


class WarningType(StrEnum):
    skipped_link = "skipped_link"
    """a symlink realcli did not follow (native files, the agent's home, a workspace copy)"""
    skipped_special_file = "skipped_special_file"
    """a FIFO, socket or device left out of a copy or read (grading, native files)"""


class _Event(Frozen):
    seq: int = Field(ge=0)
    ts: datetime = Field(default_factory=utc_now)


class HeaderEvent(_Event):
    kind: Literal["header"] = "header"
    schema_version: int = LEDGER_SCHEMA_VERSION
    realcli_version: str
    git_sha: str | None
    run_key: str
    experiment: str
    task_id: str
    task_digest: str
    spec: dict[str, Any]
    host: dict[str, str]


class ModelCallEvent(_Event):
    kind: Literal["model_call"] = "model_call"
    wire_format: str
    backend: str
    model: str
    tokens_in: int = Field(ge=0)
    tokens_out: int = Field(ge=0)
    tokens_cached: int = Field(0, ge=0)
    cost_usd: float = Field(0.0, ge=0)
    latency_ms: float = Field(ge=0)
    n_tool_calls: int = Field(0, ge=0)
    finish_reason: str
    status: int = 200
    tools_offered: tuple[str, ...] = Field(
        (), description="names of the tools the harness offered in this request, in order"
    )
    tools_digest: str = Field("", description="sha256 of the offered tools' JSON schemas")
    system_digest: str = Field("", description="sha256 of the system prompt's text")
    tool_call_ids: tuple[str, ...] = Field(
        (), description="ids of the tool calls in the reply (they order the ledger)"
    )


class SessionEvent(_Event):
    """How the harness ran the agent: written once per agent session, before its calls."""

    kind: Literal["session"] = "session"
    harness: str
    harness_version: str
    mode: str
    permission_mode: str = Field(description="the agent's approval/permission setting")
    argv: tuple[str, ...] = Field((), description="the agent's command line (redacted)")
    enforced: tuple[str, ...] = Field((), description="mode restrictions the harness applied")
    not_enforced: tuple[str, ...] = Field(
        (), description="mode restrictions this harness cannot apply (documented per harness)"
    )


class ToolPoolEvent(_Event):
    """One distinct tool pool (tools + system prompt) the agent offered the model."""

    kind: Literal["tool_pool"] = "tool_pool"
    tools_digest: str
    system_digest: str
    tools: tuple[str, ...]
    schema_digests: tuple[str, ...] = Field(description="sha256 of each tool's schema, in order")
    system_chars: int = Field(ge=0)
    calls: int = Field(ge=0, description="model calls that offered this pool")


class FidelityEvent(_Event):
    """The gateway's view of a session reconciled with the harness's native session log."""

    kind: Literal["fidelity"] = "fidelity"
    source: str = Field(description="the native file(s) read, relative to the run folder")
    ok: bool = Field(description="the check applied and held (false when not applicable)")
    applicable: bool = Field(
        True,
        description="false when the session never started (no model call): nothing to "
        "reconcile, so neither ok nor a mismatch",
    )
    gateway_calls: int = Field(ge=0)
    native_calls: int | None = Field(None, ge=0)
    gateway_tokens_in: int = Field(0, ge=0)
    gateway_tokens_out: int = Field(0, ge=0)
    native_tokens_in: int | None = Field(None, ge=0)
    native_tokens_out: int | None = Field(None, ge=0)
    native_tool_calls: int = Field(0, ge=0)
    missing_tool_calls: tuple[str, ...] = Field(
        (), description="call ids in the native log that are not in the ledger"
    )
    problems: tuple[str, ...] = ()


class ScreenshotEvent(_Event):
    """A screenshot the trusted GUI service took of the run's display (provenance: a
    deliverable screenshot must match one of these hashes)."""

    kind: Literal["screenshot"] = "screenshot"
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    width: int = Field(ge=1)
    height: int = Field(ge=1)
    bytes: int = Field(ge=1, description="PNG size")
    path: str = Field(description="the PNG, relative to the run folder (screenshots/...)")
    source: str = Field(description="what took it, e.g. 'gui.screenshot' (the agent's tool)")
    call_id: str | None = Field(None, description="the tool call that asked for it, if known")


class ToolCallEvent(_Event):
    kind: Literal["tool_call"] = "tool_call"
    call_id: str
    name: str = Field(description="normalised tool name (shell, read_file, write_file, edit_file)")
    raw_name: str = Field(description="the name the harness used")
    channel: Channel = Channel.cli
    atomic_op: str = Field(description="e.g. 'exec: shell', 'fs: write'")
    args: dict[str, Any]


class ToolResultEvent(_Event):
    kind: Literal["tool_result"] = "tool_result"
    call_id: str
    ok: bool
    exit_code: int | None = None
    duration_ms: float = Field(0.0, ge=0)
    output_digest: str = Field(description="sha256 of the full output")
    output_excerpt: str = Field("", description="first characters of the output, redacted")
    touched_files: tuple[str, ...] = ()


class MessageEvent(_Event):
    kind: Literal["message"] = "message"
    role: Literal["system", "user", "assistant"]
    text: str


class RoundStartEvent(_Event):
    kind: Literal["round_start"] = "round_start"
    round: int = Field(ge=1)


class RoundEndEvent(_Event):
    kind: Literal["round_end"] = "round_end"
    round: int = Field(ge=1)
    reason: str


class ErrorEvent(_Event):
    kind: Literal["error"] = "error"
    error_type: ErrorType
    message: str


class WarningEvent(_Event):
    """Something realcli left out on purpose while the run went on: a FIFO in the workspace
    not copied for grading, a symlink in the agent's home not followed, ..."""

    kind: Literal["warning"] = "warning"
    warning_type: WarningType
    where: str = Field(description="what realcli was doing: 'grading', 'native_files', ...")
    message: str
    paths: tuple[str, ...] = Field(
        (), description="the entries left out, relative to their tree, each with its kind"
    )


class BudgetEvent(_Event):
    kind: Literal["budget"] = "budget"
    turns: int = Field(ge=0)
    wall_clock_s: float = Field(ge=0)
    tokens_in: int = Field(0, ge=0)
    tokens_out: int = Field(0, ge=0)
    cost_usd: float = Field(0.0, ge=0)


class GradingEvent(_Event):
    kind: Literal["grading"] = "grading"
    round: int = Field(ge=1)
    test_set: Literal["f2p", "p2p"]
    passed: int = Field(ge=0)
    failed: int = Field(ge=0)
    errors: int = Field(ge=0)
    exit_code: int
    duration_s: float = Field(ge=0)


class GradingTamperedEvent(_Event):
    """A test set whose grading the code under test interfered with (see
    :mod:`realcli.grading.guard`): its results count as errors and the run cannot pass."""

    kind: Literal["grading_tampered"] = "grading_tampered"
    round: int = Field(ge=1)
    test_set: Literal["f2p", "p2p"]
    reasons: tuple[str, ...] = Field(min_length=1, description="each signal that disagreed")


class InterventionEvent(_Event):
    """Something a (simulated) human or the protocol told the agent: the reference plan in the
    prompt, test feedback after a round, or guidance for a sub-step, with what triggered it."""

    kind: Literal["intervention"] = "intervention"
    round: int = Field(ge=1)
    type: Literal["plan", "feedback", "guidance"]
    trigger: str = Field(
        description="why now: 'protocol' (plan), 'round_end' (feedback), 'stall' (N tool "
        "calls without a file change), 'agent_stopped' (the agent ended its turn with failing "
        "tests)"
    )
    source: str = Field(
        description="where the text came from: 'reference_plan', 'tests', 'task_guidance' "
        "(the sub-step's guidance field), 'model:<name>' (a simulated user)"
    )
    substep: str | None = Field(None, description="the sub-step the guidance is about")
    delivery: Literal["prompt", "resume", "transcript", "inject"] = Field(
        description="prompt: part of the first user message; resume: a new user message in "
        "the harness's own resumed session; transcript: a fresh session given the earlier "
        "transcript; inject: the gateway adds it to the conversation mid-session"
    )
    text: str
    budget_left: int | None = Field(None, description="interventions still allowed after it")


class SnapshotEvent(_Event):
    """The workspace after a file-changing tool call, kept in the run's shadow git repository
    (``snapshots.git``): ``commit`` restores it for progress replay."""

    kind: Literal["snapshot"] = "snapshot"
    round: int = Field(ge=1)
    step: int = Field(ge=0, description="tool calls of the run so far (0: the initial workspace)")
    call_id: str | None = Field(None, description="the tool call after which it was taken")
    commit: str = Field(pattern=r"^[0-9a-f]{40}$")
    tree: str = Field(pattern=r"^[0-9a-f]{40}$", description="git tree hash of the workspace")
    changed_files: int = Field(ge=0, description="paths that differ from the previous snapshot")
    duration_ms: float = Field(ge=0, description="time the snapshot took")


class RunEndEvent(_Event):
    kind: Literal["run_end"] = "run_end"
    status: Literal["graded", "infra_error", "task_error"]
    wall_time_s: float = Field(ge=0)
    healed: bool = Field(
        False,
        description="appended by a later `realcli run` from verdict.json: the run had stopped "
        "between writing its verdict and this event (the agent was not run again)",
    )


Event = Annotated[
    HeaderEvent
    | ModelCallEvent
    | SessionEvent
    | ToolPoolEvent
    | FidelityEvent
    | ScreenshotEvent
    | InterventionEvent
    | SnapshotEvent
    | ToolCallEvent
    | ToolResultEvent
    | MessageEvent
    | RoundStartEvent
    | RoundEndEvent
    | ErrorEvent
    | WarningEvent
    | BudgetEvent
    | GradingEvent
    | GradingTamperedEvent
    | RunEndEvent,
    Field(discriminator="kind"),
]
EventAdapter: TypeAdapter[Event] = TypeAdapter(Event)
