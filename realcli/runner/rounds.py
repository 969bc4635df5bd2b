"""The rounds of a run and its protocols: setup and preflight, the plan, the sessions of each
round, grading, feedback between rounds, progress replay, and the verdict.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from realcli.grading.score import grade_round
from realcli.grading.testrun import planted_canaries
from realcli.grading.verdict import (
    RunTimings,
    build_verdict,
    labels_from_ledger,
    outcome_from_ledger,
    screenshot_hashes,
)
from realcli.ledger import read_ledger
from realcli.ledger.layout import EXPECTED, VERDICT
from realcli.progress import progress_for_run
from realcli.runner.folders import write_json_atomic
from realcli.runner.inventory import expected_tests
from realcli.runner.live import LiveMonitor
from realcli.runner.protocols import feedback_message, plan_text, with_plan, with_score_output
from realcli.runner.run_grading import RunGrading
from realcli.runner.session import AgentSession
from realcli.runner.workspace import prepare_workspace, stage_workspace, unstage_workspace
from realcli.schema.events import ErrorEvent, ErrorType, RoundEndEvent, RoundStartEvent, RunEndEvent
from realcli.schema.verdict import TestResult, Verdict
from realcli.util.errors import RealcliError


class _Preflight(Exception):
    """The task's preflight found programs missing (the run does not start)."""


class RunRounds(AgentSession, RunGrading):
    """The run's rounds, from the staged workspace to the verdict."""

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
        self.live = LiveMonitor(self, workspace)
        self.ledger.add_listener(self.live.on_event)
        try:
            instruction = self.task.instruction
            if protocol.plan:
                plan, source = plan_text(self.task)
                instruction = with_plan(instruction, plan)
                self.intervene(1, "plan", "protocol", source, "prompt", plan)
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
                    self.intervene(round_no + 1, "feedback", "round_end", "tests", delivery, text)
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
                options_for=self.options,
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
