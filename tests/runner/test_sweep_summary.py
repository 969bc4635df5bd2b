"""Golden tests of a sweep's counts, status line and summary table (no runs: results in,
lines out), including a job that failed before its runs and one that cannot be planned."""

from __future__ import annotations

import io

from rich.console import Console

from realcli.runner.sweep_plan import PlannedJob, PlannedRun, SweepPlan
from realcli.runner.sweep_progress import SweepState
from realcli.runner.sweep_status import RunResult
from realcli.runner.sweep_summary import print_summary


def _run(job: int, key: str, task: str, model: str) -> PlannedRun:
    return PlannedRun(
        job=job, run_key=key, task_id=task, run_dir=f"/runs/exp/{key}", model=model,
        harness="builtin", mode="cli_only", protocol="autonomous", seed=job + 1, judge="auto",
    )  # fmt: skip


REPLAY = (_run(0, "k1", "t-a", "replay"), _run(0, "k2", "t-b", "replay"))
NOOP = (_run(1, "k3", "t-a", "noop"), _run(1, "k4", "t-b", "noop"))
PLAN = SweepPlan(
    jobs=(
        PlannedJob(0, ("model=replay",), REPLAY),
        PlannedJob(1, ("model=noop",), NOOP),
        PlannedJob(2, ("model=scripted",), error="conf/model/scripted.yaml: model.script: missing"),
    ),
    run_stores=("/runs/exp",),
)  # fmt: skip


def _state() -> SweepState:
    state = SweepState(PLAN)
    state.results = {
        "k1": RunResult("finished", "graded", True, 1.0, 30.0, 1.0, judge="tests"),
        "k2": RunResult("skipped", "graded", False, 0.5, 20.0, 0.5, judge="tests"),
        "k3": RunResult("finished", "infra_error", False, 0.0, 5.0, error="sandbox died"),
        "k4": RunResult("error", error="not run: job #1 failed"),
    }
    state.failed_jobs = {2: "conf/model/scripted.yaml: model.script: missing"}
    return state


def test_counts_and_status_line() -> None:
    state = _state()
    assert PLAN.total == 5  # four runs and the unplannable job
    assert state.counts() == {
        "done": 5, "running": 0, "passed": 1, "failed": 1, "errors": 3, "skipped": 1,
    }  # fmt: skip
    line = state.status_line()
    assert line.startswith(
        "[5/5] done · 0 running · 1 passed · 1 failed · 3 errors · 1 skipped · "
    ), line
    assert line.endswith(" elapsed · ETA 00:00")


def test_summary_table_rows_and_totals() -> None:
    out = io.StringIO()
    print_summary(Console(file=out, width=200), _state())
    rows = [
        [c.strip() for c in line.strip("|").split("|")]
        for line in out.getvalue().splitlines()
        if line.startswith("| ") and not line.startswith("| model ")
    ]
    system = ["builtin", "cli_only", "autonomous"]
    assert rows == [
        ["replay", *system, "t-a", "1", "1", "0", "0", "0", "1.00", "1.00", "00:30"],
        ["replay", *system, "t-b", "1", "0", "1", "0", "1", "0.50", "0.50", "00:20"],
        ["noop", *system, "t-a", "1", "0", "0", "1", "0", "–", "–", "00:05"],
        ["noop", *system, "t-b", "1", "0", "0", "1", "0", "–", "–", "00:00"],
        ["job #2 failed", "?", "?", "?", "?", "1", "0", "0", "1", "0", "–", "–", "–"],
        ["total", "", "", "", "", "5", "1", "1", "3", "1", "0.75", "0.75", "00:55"],
    ]  # fmt: skip
    text = out.getvalue()
    assert (
        "failed: job #2 (model=scripted): conf/model/scripted.yaml: model.script: missing" in text
    )
    assert "judged: mean final score (tests)" in text
    assert text.rstrip().endswith("run store: /runs/exp\nnext: realcli ingest && realcli report")
    assert "\x1b" not in text  # not a terminal: no ANSI


def test_without_a_plan_the_total_is_unknown() -> None:
    state = SweepState(None)
    assert state.status_line().startswith("[0/?] done")
    assert state.eta() is None
