"""Can this host enforce per-run limits? One check before a job starts any run."""

from __future__ import annotations

import tempfile
from pathlib import Path

from realcli.sandbox.cgroup import CgroupUnavailable, RunCgroup
from realcli.sandbox.disk import CappedWorkspace, DiskCapUnavailable

__all__ = ["LimitsUnavailable", "check_limits"]


class LimitsUnavailable(RuntimeError):
    """Per-run limits cannot be enforced here; ``str()`` is one line saying what is missing."""


def check_limits() -> None:
    """Make (and remove) one cgroup and one 16 MB capped workspace.

    Raises:
        LimitsUnavailable: either cannot be made here.
    """
    try:
        RunCgroup.create(max_processes=64, memory_bytes=64 * 1024 * 1024).remove()
    except CgroupUnavailable as exc:
        raise LimitsUnavailable(f"no cgroup for the process and memory limits: {exc}") from None
    with tempfile.TemporaryDirectory(prefix="realcli-limits-") as tmp:
        try:
            CappedWorkspace.mount(Path(tmp) / "workspace", 16).release()
        except DiskCapUnavailable as exc:
            raise LimitsUnavailable(f"no filesystem for the workspace disk cap: {exc}") from None
