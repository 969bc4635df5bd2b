"""Shared pieces of the security suite: a copy of the smoke task whose hidden tests and
reference solution carry unique marker files, a byte search over a run folder, and one
shared sweep that runs into the per-run limits."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import TASKS
from tests.security.limits_helpers import LimitsSweep, run_limits_sweep

TASK = "smoke-bugfix-intervals"
MARKER_FILE = "leak_marker.txt"


@dataclass(frozen=True)
class MarkedTasks:
    """A tasks dir holding :data:`TASK` with a secret marker in its tests and its solution."""

    tasks_dir: Path
    tests_secret: bytes
    solution_secret: bytes

    @property
    def task_dir(self) -> Path:
        return self.tasks_dir / TASK

    @property
    def tests_marker(self) -> Path:
        return self.task_dir / "tests" / "f2p" / MARKER_FILE

    @property
    def solution_marker(self) -> Path:
        return self.task_dir / "solution" / MARKER_FILE


@pytest.fixture(scope="session")
def marked_tasks(tmp_path_factory: pytest.TempPathFactory) -> MarkedTasks:
    tasks = tmp_path_factory.mktemp("marked-tasks")
    shutil.copytree(TASKS / TASK, tasks / TASK, symlinks=True)
    marked = MarkedTasks(
        tasks,
        f"hidden-tests-secret-{uuid.uuid4().hex}".encode(),
        f"reference-solution-secret-{uuid.uuid4().hex}".encode(),
    )
    marked.tests_marker.write_bytes(marked.tests_secret)
    marked.solution_marker.write_bytes(marked.solution_secret)
    return marked


def run_folder_bytes(run_dir: Path, *, skip: tuple[str, ...] = ()) -> Iterator[tuple[Path, bytes]]:
    """``(path, bytes)`` of every regular file under ``run_dir`` (links are not followed),
    plus every object of its snapshot repository, decompressed."""
    for path in sorted(run_dir.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.name in skip:
            continue
        yield path, path.read_bytes()
    git_dir = run_dir / "snapshots.git"
    if git_dir.is_dir():
        objects = subprocess.run(
            ["git", "--git-dir", str(git_dir), "cat-file", "--batch-all-objects", "--batch"],
            capture_output=True,
            check=True,
        ).stdout
        yield git_dir, objects


@pytest.fixture(scope="session")
def limits_sweep(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> LimitsSweep:
    """A fork bomb, a disk filler and the reference solution, side by side in one sweep."""
    return run_limits_sweep(tmp_path_factory.mktemp("limits-sweep"), cache_dir)
