"""Per-run locks, so two sweep workers (threads, processes, machines sharing the runs dir)
never execute the same run at once.

A run's lock is a :class:`~realcli.util.file_lease.FileLease` on ``<runs_dir>/.locks/<key>``:
an ``flock`` where the file system has one, plus an ``O_EXCL`` lease file with the holder's
host, pid and a heartbeat, taken over when stale (docs/cluster.md, "The shared run store").
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from realcli.util.file_lease import FileLease, LeaseHeld

__all__ = ["RunLocked", "run_lock"]


class RunLocked(Exception):
    """Another live process holds this run's lock."""


def _warn(line: str) -> None:
    print(f"realcli: warning: {line}", file=sys.stderr, flush=True)


@contextmanager
def run_lock(locks_dir: Path, key: str) -> Iterator[None]:
    """Hold an exclusive, non-blocking lock for ``key``; released on exit. A holder that died
    releases it at once on its own host, elsewhere once its heartbeat is stale."""
    lease = FileLease(locks_dir / key, on_lost=_warn)
    try:
        lease.acquire()
    except LeaseHeld as exc:
        raise RunLocked(str(exc)) from exc
    try:
        yield
    finally:
        lease.release()
