"""Waiting for an agent process: the wall clock, the runner's stop signal and the sandbox's
whole-tree limits."""

from __future__ import annotations

import time

from realcli.harness.base import HarnessContext
from realcli.sandbox.base import SandboxProcess
from realcli.schema.events import ErrorEvent, ErrorType

__all__ = ["DRAIN_S", "HOME_MOUNT", "TASK_MOUNT", "wait_or_kill"]

POLL_S = 0.1
DRAIN_S = 10.0
"""After the agent exits, how long to wait for the rest of its stdout."""
HOME_MOUNT = "/run/realcli/home"
"""Where an agent's per-run home is mounted (read-write) in its sandbox."""
TASK_MOUNT = "/run/realcli/task"
"""Where the task's instruction is mounted (read-only) in the agent's sandbox."""


def wait_or_kill(proc: SandboxProcess, ctx: HarnessContext) -> tuple[int | None, str | None]:
    """Wait for the agent; kill its whole tree at the wall clock or on ``ctx.stop``.

    Returns ``(exit code, None)``, or ``(None, "timeout" | "stop" | "limit")`` after a kill.
    ``"limit"``: the sandbox stopped the tree at a process, memory or disk limit; the
    ``resource_limit`` error event (the agent's failure, not infra) is already in the ledger.
    """
    deadline = time.monotonic() + ctx.timeout_s
    while True:
        try:
            code = proc.wait(timeout=min(POLL_S, max(deadline - time.monotonic(), 0.001)))
        except TimeoutError:
            pass
        else:
            limit = proc.limit_hit
            if limit is None:
                return code, None
            detail = f"the agent's sandbox stopped at a limit: {limit}"
            ctx.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.resource_limit, message=detail))
            return None, "limit"
        if ctx.stop.is_set():
            proc.kill_tree()
            return None, "stop"
        if time.monotonic() >= deadline:
            proc.kill_tree()
            return None, "timeout"
