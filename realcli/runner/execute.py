"""Execute one run: folder, ledger, workspace, gateway + sandbox + harness, grading, verdict.

A run folder ``runs/<experiment>/<run_key>/`` is finished exactly when ``verdict.json`` exists
and is usable (written atomically, last but for the ``run_end`` event). A finished run is
skipped (healed first when its ledger lacks ``run_end``: see ``realcli.runner.folders``); a
folder without a usable verdict is an interrupted run and is removed and redone from scratch.

While the run works, its workspace lives in a neutral temp folder (``workspace`` in the run
folder links to it: :func:`realcli.runner.workspace.stage_workspace`) on a filesystem of its
own, ``disk_mb`` in size (:mod:`realcli.sandbox.disk`); before the verdict it is a plain
folder in the run folder again.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from realcli import __version__
from realcli.catalog import TaskBundle
from realcli.gateway import ChatRequest, Gateway, Interjector, make_backend
from realcli.gateway.meter import Meter, Pricing, SweepSpend
from realcli.grading.hidden import HiddenText
from realcli.grading.score import grade_round
from realcli.grading.sets import active_sets, run_set
from realcli.grading.testrun import planted_canaries
from realcli.grading.verdict import (
    RunTimings,
    build_verdict,
    labels_from_ledger,
    outcome_from_ledger,
    screenshot_hashes,
)
from realcli.harness import (
    ExchangeFeed,
    HarnessContext,
    HarnessOutcome,
    ModelCallRelay,
    make_harness,
)
from realcli.harness.install import InstallError
from realcli.ledger import LedgerWriter, read_ledger
from realcli.ledger.layout import EXPECTED, LEDGER, SNAPSHOTS_GIT, SPEC, TASK_COPY, VERDICT
from realcli.ledger.warnings import warn_skipped
from realcli.progress import SnapshotError, Snapshotter, progress_for_run
from realcli.runner.folders import RunOutcome, finished_outcome, run_dir_for, write_json_atomic
from realcli.runner.gui_session import gui_session
from realcli.runner.inventory import expected_tests
from realcli.runner.locks import RunLocked, run_lock
from realcli.runner.protocols import (
    SimulatedUser,
    failing_tests,
    feedback_message,
    guidance_message,
    next_unmet,
    plan_text,
    recent_work,
    transcript_prompt,
    with_plan,
    with_score_output,
)
from realcli.runner.spec import run_key
from realcli.runner.workspace import (
    prepare_workspace,
    sandbox_options,
    stage_workspace,
    unstage_workspace,
)
from realcli.sandbox import (
    LAUNCH_FAILED_EXIT,
    LAUNCH_FAILED_MARK,
    SandboxError,
    SandboxOptions,
)
from realcli.sandbox.disk import CappedWorkspace, DiskCapUnavailable, unmount_stale
from realcli.sandbox.docker_image import sandbox_factory
from realcli.schema.events import (
    BudgetEvent,
    ErrorEvent,
    ErrorType,
    Event,
    FidelityEvent,
    GradingEvent,
    GradingTamperedEvent,
    HeaderEvent,
    InterventionEvent,
    ModelCallEvent,
    RoundEndEvent,
    RoundStartEvent,
    RunEndEvent,
    ScreenshotEvent,
    ToolCallEvent,
)
from realcli.schema.run_spec import RunSpec
from realcli.schema.verdict import TestResult, Verdict
from realcli.util.errors import RealcliError
from realcli.util.redact import Redactor
from realcli.util.safe_fs import special_files

if TYPE_CHECKING:
    from realcli.gui.service import GuiService

__all__ = ["RunOutcome", "execute_run"]


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


class _Preflight(Exception):
    """The task's preflight found programs missing (the run does not start)."""


def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _infra_type(exc: Exception, launching: bool) -> ErrorType:
    """The typed reason of an exception that ended a session: the agent is not installed,
    the sandbox could not start it, or another infra failure."""
    if isinstance(exc, InstallError):
        return ErrorType.agent_not_installed
    if launching and isinstance(exc, SandboxError):
        return ErrorType.agent_launch_failed
    return ErrorType.infra_error


def _not_started(outcome: HarnessOutcome, session_no: int) -> ErrorEvent:
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


def _not_applicable(outcome: HarnessOutcome | None, harness: str) -> FidelityEvent:
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


def _git_sha() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None


def execute_run(spec: RunSpec, task: TaskBundle) -> RunOutcome:
    """Run ``task`` under ``spec`` unless already finished; never raises for agent failures."""
    key = run_key(spec, task)
    run_dir = run_dir_for(spec, key)
    try:
        with run_lock(Path(spec.paths.runs_dir) / ".locks", key):
            finished = finished_outcome(run_dir, key, task.id, heal=True, say=_warn)
            if finished is not None:
                return finished
            if run_dir.is_symlink():
                run_dir.unlink()  # never follow it: a run folder is made here, not linked
            elif run_dir.exists():
                _drop_stale_workspace(run_dir / "workspace")
                shutil.rmtree(run_dir)  # interrupted earlier: redo from scratch
            verdict = _Run(spec, task, key, run_dir).execute()
            return RunOutcome(key, task.id, "finished", run_dir, verdict)
    except RunLocked:
        return RunOutcome(key, task.id, "locked", run_dir)


def _drop_stale_workspace(workspace: Path) -> None:
    """A killed run's workspace: its capped filesystem unmounted, its staged folder removed.
    The link in the run folder is realcli's own (the agent never sees the run folder)."""
    if workspace.is_symlink():
        staged = Path(os.readlink(workspace))
        if staged.name == "ws" and staged.parent.name.startswith("realcli-ws-"):
            unmount_stale(staged)
            shutil.rmtree(staged.parent, ignore_errors=True)
        return
    unmount_stale(workspace)


def _warn(line: str) -> None:
    print(f"realcli: warning: {line}", file=sys.stderr, flush=True)


WITNESS_SUFFIXES = (".png", ".jpg", ".jpeg", ".xwd", ".ppm", ".bmp", ".gif", ".webp")
"""An image file with one of these suffixes, new or changed after a CLI tool call in a run
with a display, makes the host take its own (witness) capture of the display at once."""


class _Live:
    """Watches the ledger while the agent works: a workspace snapshot after each tool call
    that changed files (``snapshot`` events), a witness capture of the display when a CLI
    call wrote an image (``screenshot`` events with source ``witness``), and the ``stall``
    guidance trigger."""

    def __init__(self, run: _Run, workspace: Path) -> None:
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
            _warn(f"witness capture after {call_id} failed: {_one_line(exc)}")

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
            self.run._intervene(
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
                options=self.run._options(self.workspace),
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


SPEND_FILE = ".spend.json"
"""Per experiment folder: what all its runs have spent (the sweep cost cap)."""


@dataclass
class _Usage:
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


class _Run:
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

    def execute(self) -> Verdict:
        self.run_dir.mkdir(parents=True)
        spec_json = self.redactor.obj(self.spec.model_dump(mode="json"))
        task_meta = {
            "id": self.task.id,
            "version": self.task.spec.version,
            "kind": self.task.spec.kind.value,
            "category": self.task.spec.category.value,
            "digest": self.task.digest,
        }
        write_json_atomic(
            self.run_dir / SPEC,
            {
                "run_key": self.key,
                "experiment": self.spec.experiment_name,
                "task": task_meta,
                "spec": spec_json,
            },
        )
        shutil.copyfile(self.task.root / "task.toml", self.run_dir / TASK_COPY)
        header = HeaderEvent(
            seq=0,
            realcli_version=__version__,
            git_sha=_git_sha(),
            run_key=self.key,
            experiment=self.spec.experiment_name,
            task_id=self.task.id,
            task_digest=self.task.digest,
            spec=spec_json,
            host={"node": platform.node(), "python": platform.python_version()},
        )
        with LedgerWriter.create(self.run_dir / LEDGER, header, self.redactor) as ledger:
            self.ledger = ledger
            return self._rounds()

    def _preflight(self, workspace: Path) -> list[tuple[ErrorType, str]]:
        """One error per program the task needs that its sandbox lacks (see preflight)."""
        from realcli.runner.preflight import find_missing

        kind = self.spec.sandbox.kind
        try:
            found = find_missing(self.task, self._options(workspace), self.make_sandbox, kind)
        except SandboxError as exc:
            return [(ErrorType.sandbox_error, _one_line(exc))]
        return [(ErrorType.missing_tool, m.message()) for m in found]

    def _options(self, workspace: Path, **extra: object) -> SandboxOptions:
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

    def _rounds(self) -> Verdict:
        workspace = self.run_dir / "workspace"
        staged = stage_workspace(workspace)  # a neutral host path while the run works on it
        expected: dict[str, list[str]] | None = None
        sb = self.spec.sandbox
        missing: list[tuple[ErrorType, str]] = []
        try:
            self._cap_workspace(staged)
            missing = self._preflight(staged)
            if missing:  # the run cannot start: no setup, no agent, no grading
                raise _Preflight
            prepare_workspace(
                self.task,
                staged,
                self.make_sandbox,
                max_processes=sb.max_processes,
                enforce_limits=sb.enforce_limits,
            )
            expected = expected_tests(self.task, self.make_sandbox, self.inventory_dir)
            (self.run_dir / "tests").mkdir()
            write_json_atomic(self.run_dir / "tests" / EXPECTED, expected)
        except _Preflight:
            for error_type, line in missing:
                self.ledger.emit(ErrorEvent(seq=0, error_type=error_type, message=line))
        except RealcliError as exc:
            self.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.task_error, message=str(exc)))
        self.expected = expected
        protocol = self.spec.protocol
        rounds: dict[int, list[TestResult]] = {}
        tampered: dict[int, list[str]] = {}
        agent_s = tests_s = 0.0
        state_dir = Path(tempfile.mkdtemp(prefix="realcli-state-"))
        self.live = _Live(self, workspace)
        self.ledger.add_listener(self.live.on_event)
        try:
            instruction = self.task.instruction
            if protocol.plan:
                plan, source = plan_text(self.task)
                instruction = with_plan(instruction, plan)
                self._intervene(1, "plan", "protocol", source, "prompt", plan)
            self.first_instruction = instruction
            message, resume = instruction, False
            passed_before = False
            for round_no in range(1, protocol.rounds + 1):
                self.live.round = round_no
                self.ledger.emit(RoundStartEvent(seq=0, round=round_no))
                if missing:  # preflight: the run never started
                    self.ledger.emit(RoundEndEvent(seq=0, round=round_no, reason="missing_tool"))
                    break
                if expected is None:
                    reason = "task_error"
                elif passed_before:
                    reason = "passed_earlier"  # nothing to correct: the workspace is re-graded
                else:
                    reason, seconds = self._sessions(workspace, message, resume, state_dir)
                    agent_s += seconds
                self.ledger.emit(RoundEndEvent(seq=0, round=round_no, reason=reason))
                if not workspace.is_dir():
                    continue
                rounds[round_no], tampered[round_no], seconds = self._grade(workspace, round_no)
                tests_s += seconds
                message, resume = self.task.instruction, False  # rounds without feedback
                graded = grade_round(
                    self.task.spec, round_no, rounds[round_no], expected, tampered[round_no]
                )
                passed_before = graded.passed
                if protocol.feedback and round_no < protocol.rounds and not graded.passed:
                    canaries = planted_canaries(self.run_dir / "tests", round_no)
                    hidden = self._hidden_text().extended(canaries)
                    text = feedback_message(round_no, graded, hidden, protocol.feedback_chars)
                    text = with_score_output(text, self.task, self.run_dir, round_no, hidden)
                    message, resume, delivery = self._continuation(text)
                    self._intervene(round_no + 1, "feedback", "round_end", "tests", delivery, text)
            if self.spec.progress.replay and self.live.snapshotter is not None:
                self._progress()
        finally:
            self.ledger.remove_listener(self.live.on_event)
            shutil.rmtree(state_dir, ignore_errors=True)
            self._release_workspace()
            unstage_workspace(workspace, staged)
        # the status comes from the ledger, exactly as `realcli regrade` reads it
        ledger = read_ledger(self.ledger.path)
        status, error, _ = outcome_from_ledger(ledger)
        wall = time.monotonic() - self.started
        verdict = build_verdict(
            task=self.task.spec,
            run_key=self.key,
            rounds=rounds,
            status=status,
            error=error,
            timings=RunTimings(wall_time_s=wall, agent_time_s=agent_s, tests_time_s=tests_s),
            expected=expected,
            workspace=workspace if workspace.is_dir() else None,
            screenshots=screenshot_hashes(ledger),
            tampered=tampered,
            labels=labels_from_ledger(ledger),
        )
        write_json_atomic(self.run_dir / VERDICT, verdict.model_dump(mode="json"))
        self.ledger.emit(RunEndEvent(seq=0, status=verdict.status.value, wall_time_s=wall))
        return verdict

    # ------------------------------------------------------------------ protocols
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
            self._intervene(
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

    def _intervene(
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

    def _progress(self) -> None:
        """Progress replay over the run's snapshots (progress.json); a failure is an error
        event, never the end of the run."""
        p = self.spec.progress
        try:
            progress_for_run(
                self.run_dir,
                self.task,
                self.make_sandbox,
                grid=p.grid,
                exhaustive=p.exhaustive,
                options_for=self._options,
                redactor=self.redactor,
            )
        except Exception as exc:
            self.ledger.emit(
                ErrorEvent(
                    seq=0,
                    error_type=ErrorType.grading_error,
                    message=f"progress replay failed: {type(exc).__name__}: {exc}",
                )
            )

    def _agent(
        self, workspace: Path, instruction: str, resume: bool, state_dir: Path
    ) -> tuple[str, float]:
        """One agent session; returns (how it ended, seconds)."""
        usage = _Usage()
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
            options = self._options(
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
                ErrorEvent(seq=0, error_type=_infra_type(exc, launching), message=_one_line(exc))
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
                self.ledger.emit(_not_started(outcome, self.session_no))
            reason = "not_started"
            self.ledger.emit(_not_applicable(outcome, self.spec.harness.kind))
        elif outcome is not None and outcome.native is not None:
            self.ledger.emit(self._fidelity(outcome, usage))
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

    def _fidelity(self, outcome: HarnessOutcome, usage: _Usage) -> FidelityEvent:
        """The gateway's view of the session against the harness's native session log."""
        native = outcome.native
        assert native is not None
        in_ledger = {
            e.call_id for e in read_ledger(self.ledger.path).events if e.kind == "tool_call"
        }
        missing = tuple(c for c in native.tool_call_ids if c not in in_ledger)
        problems = list(native.problems)
        if native.model_calls is not None and native.model_calls != usage.answered:
            problems.append(
                f"model calls: gateway answered {usage.answered}, native log has "
                f"{native.model_calls}"
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

    def _hidden_text(self) -> HiddenText:
        """The hidden tests' and the reference solution's text (built once per run)."""
        if self.hidden_text is None:
            self.hidden_text = HiddenText.from_dirs(self.task.tests_dir, self.task.solution_dir)
        return self.hidden_text

    def _grade(self, workspace: Path, round_no: int) -> tuple[list[TestResult], list[str], float]:
        """Both test sets of one round: results, why they cannot be trusted (each also a
        ``grading_tampered`` event), seconds."""
        results: list[TestResult] = []
        tampered: list[str] = []
        seconds = 0.0
        # the grading copy leaves FIFOs, sockets and devices out (realcli.util.safe_fs)
        where = f"grading round {round_no} (workspace copy)"
        warn_skipped(self.ledger.emit, special_files(workspace), where)
        for test_set, set_spec in active_sets(self.task.spec.tests):
            run = run_set(
                spec=set_spec,
                tests_dir=self.task.tests_dir,
                test_set=test_set,
                workspace=workspace,
                out_dir=self.run_dir / "tests",
                round_no=round_no,
                options=self._options(workspace),
                make_sandbox=self.make_sandbox,
                timeout_s=self.task.spec.timeouts.tests_s,
                redactor=self.redactor,
            )
            results.extend(run.results)
            seconds += run.duration_s
            passed = sum(r.outcome == "passed" for r in run.results)
            failed = sum(r.outcome == "failed" for r in run.results)
            errors = sum(r.outcome == "error" for r in run.results)
            self.ledger.emit(
                GradingEvent(
                    seq=0,
                    round=round_no,
                    test_set=test_set,
                    passed=passed,
                    failed=failed,
                    errors=errors,
                    exit_code=run.exit_code,
                    duration_s=run.duration_s,
                )
            )
            if run.tampered:
                tampered.extend(f"{test_set}: {r}" for r in run.tampered)
                self.ledger.emit(
                    GradingTamperedEvent(
                        seq=0, round=round_no, test_set=test_set, reasons=run.tampered
                    )
                )
        return results, tampered, seconds
