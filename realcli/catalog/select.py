"""Find task bundles under a tasks directory and pick the ones a suite names."""

from __future__ import annotations

import os
import re
from pathlib import Path

from realcli.catalog.bundle import TaskBundle, load_task
from realcli.schema.run_spec import SuiteSpec
from realcli.schema.task_spec import TASK_ID_PATTERN
from realcli.util.errors import TaskError

__all__ = ["discover_tasks", "select_tasks"]


def discover_tasks(tasks_dir: Path) -> list[TaskBundle]:
    """Every task folder (one holding task.toml) under ``tasks_dir``; the first bad one raises."""
    if not tasks_dir.is_dir():
        raise TaskError(str(tasks_dir), None, "no such tasks directory", "set paths.tasks_dir")
    return [load_task(p.parent) for p in sorted(tasks_dir.glob("*/task.toml"))]


def select_tasks(tasks_dir: Path, suite: SuiteSpec, task: str | None = None) -> list[TaskBundle]:
    """The suite's tasks (or just ``task``), in id order."""
    if task is not None:
        if not re.match(TASK_ID_PATTERN, task):
            raise TaskError(
                "command line",
                "task",
                f"{task!r} is not a task id",
                f"name a bundle of {tasks_dir} by its id (lowercase letters, digits, . _ -), "
                "never a path",
            )
        root = tasks_dir / task
        real = Path(os.path.realpath(root))
        if root.is_symlink() and real.parent != Path(os.path.realpath(tasks_dir)):
            raise TaskError(
                str(root),
                "task",
                f"is a symlink to {os.readlink(root)}, outside the tasks directory",
                f"copy the bundle into {tasks_dir} instead of linking it",
            )
        if not (root / "task.toml").exists() and not (root / "task.toml").is_symlink():
            known = ", ".join(sorted(p.parent.name for p in tasks_dir.glob("*/task.toml")))
            raise TaskError(str(root), "task", f"no task {task!r}", f"use one of: {known}")
        return [load_task(root)]
    bundles = discover_tasks(tasks_dir)
    if suite.tasks:
        by_id = {b.id: b for b in bundles}
        missing = [t for t in suite.tasks if t not in by_id]
        if missing:
            raise TaskError(
                f"suite {suite.name}",
                "tasks",
                f"unknown task ids {missing}",
                f"use ids from {tasks_dir}: {', '.join(sorted(by_id))}",
            )
        return [by_id[t] for t in suite.tasks]
    if suite.suite is not None:
        bundles = [b for b in bundles if suite.suite in b.spec.suites]
    if not bundles:
        raise TaskError(
            f"suite {suite.name}",
            "suite",
            f"selects no task under {tasks_dir}",
            "list suite names in each task.toml's `suites`, or pick another suite",
        )
    return bundles
