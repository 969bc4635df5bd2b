"""Waiting for an agent process: the wall clock and the runner's stop signal."""

from __future__ import annotations

import time

from realcli.harness.base import HarnessContext
from realcli.sandbox.base import SandboxProcess

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

    Returns ``(exit code, None)``, or ``(None, "timeout" | "stop")`` after a kill.
    """
    deadline = time.monotonic() + ctx.timeout_s
    while True:
        try:
            return proc.wait(timeout=min(POLL_S, max(deadline - time.monotonic(), 0.001))), None
        except TimeoutError:
            pass
        if ctx.stop.is_set():
            proc.kill_tree()
            return None, "stop"
        if time.monotonic() >= deadline:
            proc.kill_tree()
            return None, "timeout"
