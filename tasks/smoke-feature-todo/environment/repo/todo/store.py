"""A collection of tasks persisted as a JSON file."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from todo.model import Task, normalize_tags


class TaskNotFound(KeyError):
    """Raised when no task has the requested id."""


class TodoStore:
    """Tasks keyed by id. ``path=None`` gives an in-memory store (``save`` is a no-op)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._tasks: dict[int, Task] = {}
        self._next_id = 1
        if self.path is not None and self.path.exists():
            self._load(self.path)

    # -- persistence -------------------------------------------------------------------

    def _load(self, path: Path) -> None:
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data.get("tasks", []):
            task = Task.from_dict(item)
            self._tasks[task.id] = task
        self._next_id = max([int(data.get("next_id", 1)), *(t.id + 1 for t in self._tasks.values())])

    def save(self) -> None:
        """Write all tasks to ``path`` atomically."""
        if self.path is None:
            return
        data = {"next_id": self._next_id, "tasks": [t.to_dict() for t in self._ordered()]}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)

    # -- queries -----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._tasks)

    def _ordered(self) -> list[Task]:
        return [self._tasks[k] for k in sorted(self._tasks)]

    def get(self, task_id: int) -> Task:
        try:
            return self._tasks[task_id]
        except KeyError:
            raise TaskNotFound(task_id) from None

    def tasks(self, *, include_done: bool = False, tag: str | None = None) -> list[Task]:
        """Tasks ordered by id; completed ones only with ``include_done``."""
        wanted = normalize_tags([tag])[0] if tag else None
        return [
            t
            for t in self._ordered()
            if (include_done or not t.done) and (wanted is None or wanted in t.tags)
        ]

    # -- changes -----------------------------------------------------------------------

    def add(self, title: str, tags: Iterable[str] = ()) -> Task:
        title = title.strip()
        if not title:
            raise ValueError("task title must not be empty")
        task = Task(id=self._next_id, title=title, tags=normalize_tags(list(tags)))
        self._tasks[task.id] = task
        self._next_id += 1
        return task

    def complete(self, task_id: int) -> Task:
        task = self.get(task_id)
        task.done = True
        return task

    def remove(self, task_id: int) -> Task:
        task = self.get(task_id)
        del self._tasks[task_id]
        return task
