"""Fixtures for sandbox tests: a host-side process scan and a short gateway socket folder."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def _processes_with_arg(arg: str) -> list[int]:
    """Host pids of live (non-zombie) processes with ``arg`` as one whole argv element."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X") and arg.encode() in argv:
            found.append(int(entry.name))
    return found


@pytest.fixture
def processes_with_arg() -> Callable[[str], list[int]]:
    return _processes_with_arg


@pytest.fixture
def socket_dir() -> Iterator[Path]:
    """A short folder for a Unix socket (socket paths are limited to 107 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="rc-gw-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
