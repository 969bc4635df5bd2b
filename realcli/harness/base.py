"""Harness extension point: an agent runtime driven inside a sandbox, recorded in the ledger.

A harness adapter starts its agent in the sandbox it is given (adding its own read-only
binds with :meth:`Sandbox.with_ro_binds`), points it at the model gateway, turns the agent's
native output into ledger events as it arrives, keeps the native session files under
``native_dir``, and enforces the wall clock on the whole process tree.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import ValidationError

from realcli.harness.exchanges import ExchangeFeed
from realcli.harness.options import HarnessOptions, NoOptions
from realcli.harness.relay import ModelCallRelay
from realcli.ledger.writer import LedgerWriter
from realcli.registry import Registry
from realcli.sandbox.base import Sandbox
from realcli.schema.run_spec import HarnessSpec
from realcli.util.redact import Redactor

if TYPE_CHECKING:
    from realcli.harness.install import Recipe

__all__ = [
    "HARNESSES",
    "Harness",
    "HarnessContext",
    "HarnessOutcome",
    "NativeSession",
    "OutcomeReason",
]

OutcomeReason = Literal[
    "done", "max_turns", "timeout", "crash", "error", "cost_cap", "resource_limit"
]


@dataclass
class HarnessContext:
    """Everything one agent session needs. The sandbox must have the gateway socket set."""

    sandbox: Sandbox
    """The agent's sandbox; the harness derives one with its own extra read-only binds."""
    ledger: LedgerWriter
    native_dir: Path
    """Host folder for the harness's native session files (created if missing)."""
    instruction: str
    model_id: str
    gateway_port: int
    workdir: str
    timeout_s: float
    """Hard wall clock for the whole agent (every process it starts)."""
    redactor: Redactor
    model_calls: ModelCallRelay | None = None
    """The gateway's ``on_call`` relay, when the runner wants model calls in agent order
    (see :mod:`realcli.harness.relay`); None when the gateway writes to the ledger itself."""
    mode: str = "cli_only"
    """The interface mode (``mode.name``); the harness restricts the agent's tools to it."""
    channels: tuple[str, ...] = ("cli",)
    """The mode's channels (``mode.channels``): ``cli`` tools, ``gui`` tools, or both."""
    stop: threading.Event = field(default_factory=threading.Event)
    """Set by the runner to end the session now (a cost cap was reached)."""
    agents_dir: Path | None = None
    """Where agent CLIs are installed (:mod:`realcli.harness.install`)."""
    exchanges: ExchangeFeed | None = None
    """The gateway's request/reply pairs, live (the ``command`` harness's only source)."""
    session_no: int = 1
    """1 for the run's first agent session; later sessions (feedback, guidance) count up."""
    resume: bool = False
    """Continue the run's previous session with ``instruction`` as the next user message
    (only asked of harnesses whose :attr:`Harness.resumes` is true)."""
    state_dir: Path | None = None
    """A host folder that lives as long as the run: what a harness keeps between sessions."""


@dataclass(frozen=True)
class NativeSession:
    """What the harness's own session log says happened (for the fidelity check)."""

    source: str
    """The native file(s) read, relative to the run folder."""
    model_calls: int | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    tool_call_ids: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


@dataclass
class HarnessOutcome:
    reason: OutcomeReason
    """``done``: the agent finished; ``max_turns``: it ran out of turns; ``timeout``: killed
    at the wall clock; ``crash``: it died without finishing its session; ``error``: it gave
    up on an unrecoverable (gateway) error; ``resource_limit``: its sandbox reached a process,
    memory or workspace-disk limit and was killed."""
    turns: int
    wall_time_s: float
    exit_code: int | None
    detail: str = ""
    native: NativeSession | None = None


class Harness(ABC):
    """Base class of harness adapters, registered by name in :data:`HARNESSES`.

    Its capabilities are declared on the class: :attr:`MODES`, :attr:`Options` (the typed
    ``harness.options``), :attr:`RECIPE` (its install) and its tool tables (the
    ``realcli.toolsets`` registry entry of the same name); ``realcli run`` checks every job of a
    sweep against them before the first run starts."""

    kind: ClassVar[str] = "abstract"
    MODES: ClassVar[frozenset[str]] = frozenset({"cli_only", "gui_only", "hybrid"})
    """Names of the modes (``conf/mode``) this adapter can run; a job asking for another mode
    is refused before a sweep starts. Adapters that cannot run every mode narrow it."""
    Options: ClassVar[type[HarnessOptions]] = NoOptions
    """The model ``harness.options`` must validate against (:mod:`realcli.harness.options`)."""
    RECIPE: ClassVar[Recipe | None] = None
    """The pinned install of the agent CLI it drives (``realcli agents install``); None: it
    needs none."""
    resumes: ClassVar[bool] = False
    """The adapter can continue its own earlier session (``ctx.resume``); otherwise the
    runner starts a fresh session whose instruction carries the earlier transcript."""

    def __init__(self, spec: HarnessSpec) -> None:
        self.spec = spec

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> HarnessOptions:
        """``options`` as :attr:`Options`. Raises ValidationError (unknown key, wrong type)."""
        return cls.Options.model_validate(options)

    def _options(self) -> dict[str, Any]:
        """``harness.options`` checked against :attr:`Options`: the keys the config sets,
        with validated values (an adapter's own default applies to the others).

        Raises:
            ValueError: an unknown key or a wrong type (the config check refuses it first).
        """
        try:
            return self.check_options(dict(self.spec.options)).model_dump(exclude_unset=True)
        except ValidationError as exc:
            errors = exc.errors()
            unknown = sorted(str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden")
            if unknown:
                known = sorted(self.Options.model_fields)
                problem = f"unknown key(s) {unknown} for {self.spec.kind}; known: {known}"
            else:
                where = ".".join(str(p) for p in errors[0]["loc"])
                problem = f"{where}: {errors[0]['msg']}"
            raise ValueError(f"harness.options: {problem}") from None

    @abstractmethod
    def run(self, ctx: HarnessContext) -> HarnessOutcome:
        """Run one agent session to its end and return how it ended.

        Agent failures (timeout, crash, gateway errors) are outcomes, recorded as ledger
        ``error`` events; they are never raised.

        Raises:
            ValueError: the context is inconsistent (e.g. the sandbox has no gateway socket).
            SandboxError: the sandbox could not be started (an infra error).
            OSError: ``native_dir`` cannot be written.
        """


HARNESSES: Registry[type[Harness]] = Registry(
    "harness",
    "realcli.harnesses",
    (
        "realcli.harness.builtin",
        "realcli.harness.codex",
        "realcli.harness.claude_code",
        "realcli.harness.openclaw",
        "realcli.harness.hermes",
        "realcli.harness.openhands",
        "realcli.harness.command",
    ),
    ordered=True,
)
"""Harness adapters by name (``harness.kind``): built-ins register with
``@HARNESSES.register(name)`` where they are defined; plugins through the ``realcli.harnesses``
entry-point group."""
