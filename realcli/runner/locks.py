"""Per-run file locks, so two sweep workers never execute the same run at once."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["RunLocked", "run_lock"]


class RunLocked(Exception):
    """Another process holds this run's lock."""


@contextmanager
def run_lock(locks_dir: Path, key: str) -> Iterator[None]:
    """Hold an exclusive, non-blocking lock for ``key``; released on exit or process death."""
    locks_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(locks_dir / f"{key}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise RunLocked(key) from exc
        yield
    finally:
        os.close(fd)
