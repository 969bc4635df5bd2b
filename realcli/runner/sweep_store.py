"""What a sweep's parent reads from the shared run store when its jobs' status files do not
tell it everything: a run another sweep held the lock of (``locked``), waited for until that
sweep finished it; a run whose job ran where its status file never reached the parent."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from realcli.runner.folders import finished_outcome
from realcli.runner.locks import RunLocked, run_lock
from realcli.runner.sweep_plan import PlannedRun
from realcli.runner.sweep_status import RunResult

__all__ = ["from_store", "wait_for_locked"]

POLL_S = 1.0


def from_store(run: PlannedRun, state: str) -> RunResult | None:
    """The run's result read from its folder in the run store (with ``state``), None when it
    is not finished there."""
    outcome = finished_outcome(Path(run.run_dir), run.run_key, run.task_id)
    if outcome is None:
        return None
    return replace(RunResult.of(outcome, None), state=state)


def _still_locked(run: PlannedRun) -> bool:
    locks = Path(run.run_dir).parents[1] / ".locks"
    try:
        with run_lock(locks, run.run_key):
            return False
    except RunLocked:
        return True


def wait_for_locked(
    runs: Iterable[PlannedRun], say: Callable[[str], None], poll_s: float = POLL_S
) -> dict[str, RunResult]:
    """Wait until each of ``runs`` (locked by another process when this sweep's job reached
    it) is finished in the store or its lock is free; their results (``locked`` with the
    verdict), those not finished left out. Ctrl-C stops waiting."""
    waiting = {r.run_key: r for r in runs}
    out: dict[str, RunResult] = {}
    if waiting:
        say(
            f"waiting for {len(waiting)} run(s) that another sweep is running (their locks are"
            " held); Ctrl-C stops waiting, they go on there"
        )
    try:
        while waiting:
            for key, run in list(waiting.items()):
                result = from_store(run, "locked")
                if result is None and _still_locked(run):
                    continue
                if result is None:  # free now: finished just before, or its holder ended
                    result = from_store(run, "locked")
                if result is not None:
                    out[key] = result
                del waiting[key]
            if waiting:
                time.sleep(poll_s)
    except KeyboardInterrupt:
        say(f"stopped waiting; {len(waiting)} run(s) still locked by another sweep")
    return out
