"""Fixtures of the fuzz corpus: one shared tasks dir, one scratch folder per case."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import TASKS
from tests.security.fuzz.corpus import Scratch

GOOD_TASK = "smoke-scratch-csvstats"
"""The small shipped bundle the bundle cases copy and break."""


@pytest.fixture(scope="session")
def fuzz_tasks_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tasks dir holding one good shipped bundle, shared by every case (never written)."""
    root = tmp_path_factory.mktemp("fuzz-tasks") / "tasks"
    root.mkdir()
    shutil.copytree(TASKS / GOOD_TASK, root / GOOD_TASK)
    return root


@pytest.fixture
def scratch(tmp_path: Path, fuzz_tasks_dir: Path) -> Scratch:
    (tmp_path / "runs").mkdir()
    return Scratch(root=tmp_path, tasks_dir=fuzz_tasks_dir, runs_dir=tmp_path / "runs")


def copy_good_task(scratch: Scratch, task_id: str = GOOD_TASK) -> Path:
    """A private copy of the good bundle at ``{tmp}/tasks/<task_id>`` (a case may break it)."""
    dest = scratch.root / "tasks" / task_id
    shutil.copytree(TASKS / GOOD_TASK, dest, symlinks=True)
    if task_id != GOOD_TASK:
        toml = dest / "task.toml"
        toml.write_text(toml.read_text().replace(f'"{GOOD_TASK}"', f'"{task_id}"', 1))
    return dest


BundleEdit = Callable[[Path], None]
