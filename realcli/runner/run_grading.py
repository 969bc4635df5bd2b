"""Grading one round: both test sets run on a copy of the workspace, their results and any
sign the grading was tampered with, each a ledger event.
"""

from __future__ import annotations

from pathlib import Path

from realcli.grading.hidden import HiddenText
from realcli.grading.sets import active_sets, run_set
from realcli.ledger.warnings import warn_skipped
from realcli.runner.run_state import RunState
from realcli.schema.events import GradingEvent, GradingTamperedEvent
from realcli.schema.verdict import TestResult
from realcli.util.safe_fs import special_files


class RunGrading(RunState):
    """The graded test sets of each round."""

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
                options=self.options(workspace),
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
