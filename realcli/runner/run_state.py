"""The state one run carries: its spec, task, ledger, redactor and sandbox factory, the
workspace's disk cap and sandbox options, the preflight, and the record of each intervention.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from realcli.catalog import TaskBundle
from realcli.grading.hidden import HiddenText
from realcli.harness import make_harness
from realcli.ledger import LedgerWriter
from realcli.runner.workspace import sandbox_options
from realcli.sandbox import SandboxError, SandboxOptions
from realcli.sandbox.disk import CappedWorkspace, DiskCapUnavailable
from realcli.sandbox.docker_image import sandbox_factory
from realcli.schema.events import ErrorEvent, ErrorType, InterventionEvent
from realcli.schema.run_spec import RunSpec
from realcli.util.redact import Redactor

if TYPE_CHECKING:
    from realcli.runner.live import LiveMonitor


def one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def warn(line: str) -> None:
    print(f"realcli: warning: {line}", file=sys.stderr, flush=True)


class RunState:
    """What one run carries through its rounds; the room below the run's other parts."""

    live: LiveMonitor

    def __init__(self, spec: RunSpec, task: TaskBundle, key: str, run_dir: Path) -> None:
        self.spec, self.task, self.key, self.run_dir = spec, task, key, run_dir
        self.redactor = Redactor()
        self.make_sandbox = sandbox_factory(spec.sandbox, task)
        self.started = time.monotonic()
        self.inventory_dir = Path(spec.paths.cache_dir) / "inventory"
        self.ledger: LedgerWriter
        self.session_no = 0
        self.expected: dict[str, list[str]] | None = None
        self.first_instruction = task.instruction
        self.hidden_text: HiddenText | None = None
        self.disk: CappedWorkspace | None = None
        self.disk_mb: int | None = None

    @property
    def harness_resumes(self) -> bool:
        """The harness continues its own session (else: a fresh one gets the transcript)."""
        try:
            return make_harness(self.spec.harness).resumes
        except Exception:  # a broken harness config: the session itself reports it
            return False

    def _preflight(self, workspace: Path) -> list[tuple[ErrorType, str]]:
        """One error per program the task needs that its sandbox lacks (see preflight)."""
        from realcli.runner.preflight import find_missing

        kind = self.spec.sandbox.kind
        try:
            found = find_missing(self.task, self.options(workspace), self.make_sandbox, kind)
        except SandboxError as exc:
            return [(ErrorType.sandbox_error, one_line(exc))]
        return [(ErrorType.missing_tool, m.message()) for m in found]

    def options(self, workspace: Path, **extra: object) -> SandboxOptions:
        """Sandbox options for this run: the task's limits, with the sandbox group's overrides."""
        sb = self.spec.sandbox
        limits = {"max_processes": sb.max_processes, "enforce_limits": sb.enforce_limits}
        return sandbox_options(
            self.task,
            workspace,
            memory_mb=sb.memory_mb,
            cpu_seconds=sb.cpu_seconds,
            disk_mb=self.disk_mb,
            **limits,
            **extra,
        )

    def _cap_workspace(self, workspace: Path) -> None:
        """Give the workspace its own ``disk_mb`` filesystem (else, with
        ``sandbox.enforce_limits=false``, the sandbox's polling watcher is the cap)."""
        sb = self.spec.sandbox
        self.disk_mb = sb.disk_mb or self.task.spec.resources.disk_mb
        try:
            self.disk = CappedWorkspace.mount(workspace, self.disk_mb)
        except DiskCapUnavailable as exc:
            message = f"the workspace disk cap is a polling watcher only: {exc}"
            if sb.enforce_limits:  # run_job's check passed, so this host just failed now
                error = ErrorEvent(seq=0, error_type=ErrorType.sandbox_error, message=message)
                self.ledger.emit(error)
            else:
                print(f"realcli: warning: {message}", file=sys.stderr)

    def _release_workspace(self) -> None:
        """The capped workspace becomes a plain folder (graders, regrade, ingest)."""
        if self.disk is not None:
            self.disk.release()
            self.disk = None

    def intervene(
        self,
        round_no: int,
        kind: Literal["plan", "feedback", "guidance"],
        trigger: str,
        source: str,
        delivery: Literal["prompt", "resume", "transcript", "inject"],
        text: str,
        *,
        substep: str | None = None,
    ) -> None:
        """One plan, feedback or guidance message, recorded as an ``intervention`` event
        (guidance with what is left of its budget)."""
        guidance = self.spec.protocol.guidance
        left = None
        if kind == "guidance" and guidance is not None:
            with self.live.lock:
                self.live.given += 1
                left = guidance.budget - self.live.given
        self.ledger.emit(
            InterventionEvent(
                seq=0,
                round=round_no,
                type=kind,
                trigger=trigger,
                source=source,
                substep=substep,
                delivery=delivery,
                text=text,
                budget_left=left,
            )
        )
