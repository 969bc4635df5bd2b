"""The table a sweep ends with: per system × task (per system when that is too many rows).

Rows count every planned run: passed / failed (graded) / errors (infra or task error, or not
run because its job failed) / skipped (finished before this sweep: not run again); mean F2P
step and judged score over the runs that have one; summed wall time. Then the totals, the
failed jobs, the run store and the next commands.
"""

from __future__ import annotations

import time
from collections import defaultdict
from statistics import fmean

from rich import box
from rich.console import Console
from rich.table import Table

from realcli.runner.sweep_plan import PlannedRun
from realcli.runner.sweep_progress import SweepState, _clock
from realcli.runner.sweep_status import RunResult

__all__ = ["MAX_TASK_ROWS", "print_summary"]

MAX_TASK_ROWS = 40  # more system × task rows than this: one row per system

_SYSTEM = ("model", "harness", "mode", "protocol")


def _mean(values: list[float | None]) -> str:
    present = [v for v in values if v is not None]
    return f"{fmean(present):.2f}" if present else "–"


def _cells(results: list[RunResult]) -> list[str]:
    return [
        str(len(results)),
        str(sum(r.passed and not r.is_error for r in results)),
        str(sum(r.failed for r in results)),
        str(sum(r.is_error for r in results)),
        str(sum(r.state in ("skipped", "locked") for r in results)),
        _mean([r.f2p_step for r in results if not r.is_error]),
        _mean([r.judged for r in results]),
        _clock(sum(r.wall_time_s or 0.0 for r in results)),
    ]


def print_summary(console: Console, state: SweepState) -> None:
    plan = state.plan
    if plan is None:
        console.print(f"sweep: {state.status_line()} (no plan: the sweeper picks jobs as it goes)")
        return
    runs = plan.runs
    per_task = len({(*(getattr(r, k) for k in _SYSTEM), r.task_id) for r in runs})
    by_task = per_task <= MAX_TASK_ROWS
    groups: dict[tuple[str, ...], list[PlannedRun]] = defaultdict(list)
    for run in runs:
        key = tuple(getattr(run, k) for k in _SYSTEM) + ((run.task_id,) if by_task else ())
        groups[key].append(run)
    missing = RunResult("error", error="not run")
    table = Table(
        title="sweep summary",
        box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2,
        show_footer=True,
        title_justify="left",
    )
    head = [*_SYSTEM, *(("task",) if by_task else ())]
    all_results = [state.results.get(r.run_key, missing) for r in runs]
    unplanned = [j for j in plan.jobs if j.error is not None]
    totals = _cells(all_results)
    totals[0] = str(len(all_results) + len(unplanned))
    totals[3] = str(int(totals[3]) + len(unplanned))
    for i, name in enumerate(head):
        table.add_column(name, footer="total" if i == 0 else "")
    numeric = ["runs", "passed", "failed", "errors", "skipped", "F2P step", "judged", "wall"]
    for name, total in zip(numeric, totals, strict=True):
        table.add_column(name, justify="right", footer=total)
    for key, group in groups.items():
        table.add_row(*key, *_cells([state.results.get(r.run_key, missing) for r in group]))
    for job in unplanned:
        table.add_row(
            f"job #{job.num} failed",
            *["?"] * (len(head) - 1),
            "1",
            "0",
            "0",
            "1",
            "0",
            "–",
            "–",
            "–",
        )
    console.print()
    for num, error in sorted(state.failed_jobs.items()):
        label = next((j.label for j in plan.jobs if j.num == num), f"job #{num}")
        console.print(f"failed: {label}: {error}")
    console.print(table)
    judges = sorted({r.judge for r in all_results if r.judge} or {r.judge for r in runs})
    console.print(
        f"F2P step: mean over graded runs · judged: mean final score ({', '.join(judges)})"
        f" · wall: summed run time; sweep took {_clock(_elapsed(state))}"
    )
    stored = sum(r.state == "stored" for r in all_results)
    if stored:
        console.print(
            f"{stored} run(s) read from the run store: their jobs' status files did not reach"
            " this machine (put paths.runs_dir on a file system every node shares)"
        )
    pending = sum(r.pending for r in all_results)
    if pending:
        console.print(
            f"{pending} run(s) locked by another sweep and not finished when this one ended"
            " (neither passed nor failed here): run the sweep again to see them"
        )
    for store in plan.run_stores:
        console.print(f"run store: {store}")
    console.print("next: realcli ingest && realcli report")


def _elapsed(state: SweepState) -> float:
    return time.monotonic() - state.started
