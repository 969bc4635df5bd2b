"""Live monitoring while the agent works: workspace snapshots after each tool call, witness
captures of the display, the ``stall`` guidance trigger and its interjections.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from realcli.gateway import ChatRequest, Interjector
from realcli.grading.score import grade_round
from realcli.grading.sets import active_sets, run_set
from realcli.ledger.layout import SNAPSHOTS_GIT
from realcli.progress import SnapshotError, Snapshotter
from realcli.runner.protocols import (
    SimulatedUser,
    failing_tests,
    guidance_message,
    next_unmet,
    recent_work,
)
from realcli.runner.run_state import RunState, one_line, warn
from realcli.schema.events import ErrorEvent, ErrorType, Event, ScreenshotEvent, ToolCallEvent
from realcli.schema.verdict import TestResult

if TYPE_CHECKING:
    from realcli.gui.service import GuiService

WITNESS_SUFFIXES = (".png", ".jpg", ".jpeg", ".xwd", ".ppm", ".bmp", ".gif", ".webp")
"""An image file with one of these suffixes, new or changed after a CLI tool call in a run
with a display, makes the host take its own (witness) capture of the display at once."""


class LiveMonitor:
    """Watches the ledger while the agent works: a workspace snapshot after each tool call
    that changed files (``snapshot`` events), a witness capture of the display when a CLI
    call wrote an image (``screenshot`` events with source ``witness``), and the ``stall``
    guidance trigger."""

    def __init__(self, run: RunState, workspace: Path) -> None:
        self.run = run
        self.workspace = workspace
        self.round = 1
        self.steps = 0
        self.idle = 0
        self.probes = 0
        self.given = 0
        self.model_calls = 0
        self.session_base = 0
        self.session_first: int | None = None
        self.lock = threading.Lock()
        self.interjector = Interjector()
        guidance = run.spec.protocol.guidance
        self.guidance_left = guidance.budget if guidance is not None else 0
        self.stall = guidance is not None and "stall" in guidance.triggers
        self.user: SimulatedUser | None = None
        if guidance is not None and guidance.source == "model" and guidance.user_model:
            self.user = SimulatedUser(guidance.user_model, run.task)
            for secret in self.user.secrets():
                run.redactor.add(secret)
        self.gui: GuiService | None = None  # set while a session has a display
        self.gui_calls: set[str] = set()  # calls the GUI service answered with a screenshot
        self.last_call: str | None = None  # the session's last tool call
        self.witness_for: str | None = None  # a CLI call that wrote an image: capture now
        self.snapshotter: Snapshotter | None = None
        if (run.spec.progress.snapshots or self.stall) and workspace.is_dir():
            self.snapshotter = Snapshotter(workspace, run.run_dir / SNAPSHOTS_GIT)
            self._snapshot(0, None, force=True)

    def _snapshot(self, step: int, call_id: str | None, *, force: bool = False) -> bool:
        """Take a snapshot if the workspace changed; True when it did. A failing snapshot
        (git) stops snapshots for the run, recorded as an error event; the run goes on."""
        if self.snapshotter is None:
            return False
        try:
            event = self.snapshotter.snapshot(
                round=self.round, step=step, call_id=call_id, force=force
            )
        except SnapshotError as exc:
            self.snapshotter = None
            self.run.ledger.emit(
                ErrorEvent(
                    seq=0,
                    error_type=ErrorType.grading_error,
                    message=f"workspace snapshots stopped at step {step}: {exc}",
                )
            )
            return False
        if event is None:
            return False
        self.run.ledger.emit(event)
        if (
            self.gui is not None
            and call_id is not None
            and call_id not in self.gui_calls
            and any(p.lower().endswith(WITNESS_SUFFIXES) for p in self.snapshotter.last_paths)
        ):
            self.witness_for = call_id
        return True

    def _witness(self) -> None:
        """The display, captured by the host right after a CLI call wrote an image (so a
        genuine ``scrot``/``import``/``xwd`` capture made through the shell has a trusted
        twin the judge's provenance check can match). Called without the lock held: the
        capture's event comes back through ``on_event``."""
        with self.lock:
            call_id, self.witness_for = self.witness_for, None
            gui = self.gui
        if call_id is None or gui is None:
            return
        try:
            gui.capture(source="witness", call_id=call_id)
        except Exception as exc:  # no witness: provenance then cannot vouch for the image
            warn(f"witness capture after {call_id} failed: {one_line(exc)}")

    def on_event(self, event: Event) -> None:
        """Counts the run's model calls and tool calls as the ledger gets them."""
        if event.kind == "model_call":
            with self.lock:
                self.model_calls += 1
        elif isinstance(event, ToolCallEvent):
            with self.lock:
                self.steps += 1
                self.last_call = event.call_id
        elif isinstance(event, ScreenshotEvent) and event.call_id is not None:
            with self.lock:
                self.gui_calls.add(event.call_id)

    def start_session(self) -> None:
        with self.lock:
            self.session_base = self.steps  # the previous session's events are all in
            self.session_first = None
            self.last_call = None

    def before_call(self, request: ChatRequest) -> None:
        """The gateway got a model call: the agent's earlier tool calls are done and it waits,
        so the workspace is exactly their result. Snapshot it (step = tool calls of the run so
        far) and count turns without a change for the ``stall`` trigger."""
        if self.snapshotter is None:
            return
        made = request.assistant_tool_calls()
        with self.lock:
            if self.session_first is None:  # a resumed conversation holds earlier calls
                self.session_first = made
            step = self.session_base + made - self.session_first
            changed = made > 0 and self._snapshot(step, request.last_tool_result_id())
            self.idle = 0 if changed else self.idle + 1
            guidance = self.run.spec.protocol.guidance
            due = (
                self.stall
                and guidance is not None
                and self.idle >= guidance.stall_turns
                and self.guidance_left > 0
                and self.interjector.pending == 0
            )
            if due:
                self.idle = 0
                self.guidance_left -= 1  # reserved; given back if never delivered
        self._witness()
        if due:
            threading.Thread(target=self._stall, name="realcli-stall", daemon=True).start()

    def end_session(self) -> None:
        """After a session (its events are all in): what its last tool calls left, credited
        to the last of them (witnessed while the display is still up, when it has one)."""
        if self.snapshotter is not None:
            with self.lock:
                self._snapshot(self.steps, self.last_call)
            self._witness()

    def _stall(self) -> None:
        found = self.guidance("stall", reserved=True)
        if found is None:
            with self.lock:
                self.guidance_left += 1
            return
        text, source, substep = found
        round_no = self.round

        def delivered(_: object) -> None:
            self.run.intervene(
                round_no, "guidance", "stall", source, "inject", text, substep=substep
            )

        self.interjector.queue(guidance_message(text), delivered)

    def interjector_discard(self) -> None:
        given_back = self.interjector.discard_pending()
        with self.lock:
            self.guidance_left += given_back

    def guidance(
        self, trigger: str, *, reserved: bool = False
    ) -> tuple[str, str, str | None] | None:
        """(text, source, sub-step) for the next unmet sub-step, from a probe of the hidden
        tests on a copy of the workspace; None when every sub-step passes or the budget is
        spent."""
        with self.lock:
            if not reserved:
                if self.guidance_left <= 0:
                    return None
                self.guidance_left -= 1
            self.probes += 1
            probe = self.probes
        results: list[TestResult] = []
        for test_set, set_spec in active_sets(self.run.task.spec.tests):
            run = run_set(
                spec=set_spec,
                tests_dir=self.run.task.tests_dir,
                test_set=test_set,
                workspace=self.workspace,
                out_dir=self.run.run_dir / "probes",
                round_no=probe,
                options=self.run.options(self.workspace),
                make_sandbox=self.run.make_sandbox,
                timeout_s=self.run.task.spec.timeouts.tests_s,
                redactor=self.run.redactor,
            )
            results.extend(run.results)
        # a probe, not a graded round: it only chooses what the guidance is about
        verdict = grade_round(self.run.task.spec, 1, results, self.run.expected)
        unmet = next_unmet(self.run.task, verdict)
        if unmet is None:
            if not reserved:
                with self.lock:
                    self.guidance_left += 1
            return None
        text = unmet.guidance or f"Next, work on this part of the task: {unmet.title}."
        source = "task_guidance" if unmet.guidance else "substep_title"
        if self.user is not None:
            try:
                recent = recent_work(self.run.ledger.path)
                text = self.user.guidance(unmet, failing_tests(verdict.tests), recent)
                source = f"model:{self.user.model.name}"
            except Exception as exc:  # the simulated user failed: the task's hint, labelled
                source += f" (simulated user failed: {type(exc).__name__}: {exc})"[:300]
        return text, source, unmet.id
