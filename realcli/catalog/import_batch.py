"""``realcli tasks import FORMAT PATH...``: the importers by format (a table other formats
join), the task folders a path holds (one task, or a whole release / dataset folder), and an
import of many tasks where one bad task never stops the others."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from realcli.util.errors import RealcliError, TaskError

if TYPE_CHECKING:
    from realcli.catalog.import_common import ImportResult

__all__ = ["IMPORTERS", "Importer", "TaskOutcome", "find_images_dir", "find_tasks", "import_many"]

ImportFunction = Callable[..., "ImportResult"]


@dataclass(frozen=True)
class Importer:
    marker: str
    """The file a task folder of this format holds (``task.yaml``, ``task.toml``)."""
    load: Callable[[], ImportFunction]
    """The import function (imported only when used)."""
    help: str


def _longcli() -> ImportFunction:
    from realcli.catalog.importer import import_longcli_task

    return import_longcli_task


def _harbor() -> ImportFunction:
    from realcli.catalog.import_harbor import import_harbor_task

    return import_harbor_task


IMPORTERS: dict[str, Importer] = {
    "longcli": Importer("task.yaml", _longcli, "LongCLI-Bench / Terminal-Bench 1 task folders"),
    "harbor": Importer("task.toml", _harbor, "Harbor / Terminal-Bench 2 task folders"),
}
"""Format name -> importer. Each takes ``(source, tasks_dir, *, task_id, category,
images_dir, force)`` and returns an :class:`ImportResult` or raises :class:`TaskError`."""
_RELEASE_SUBDIRS = ("tasks_long_cli", "tasks")


def find_tasks(path: Path, marker: str) -> list[Path]:
    """The task folders ``path`` names: itself when it holds ``marker``, else the folders
    below it that do (two levels; a release's ``tasks_long_cli/``), without LongCLI-Bench's
    ``<task>_finished`` reference copies."""
    if (path / marker).is_file():
        return [path]
    if not path.is_dir():
        raise TaskError(str(path), None, "no such folder", f"give a task folder (with {marker})")
    found: list[Path] = []
    roots = [path / d for d in _RELEASE_SUBDIRS if (path / d).is_dir()] or [path]
    for root in roots:
        for child in sorted(p for p in root.iterdir() if p.is_dir()):
            if child.name.endswith("_finished") or child.name.startswith("."):
                continue
            if (child / marker).is_file():
                found.append(child)
    if not found:
        raise TaskError(
            str(path), None, f"holds no task folder (none has {marker})", "give a task folder"
        )
    return found


def find_images_dir(source: Path) -> Path | None:
    """A LongCLI-Bench release's base Dockerfiles (``longcli_dockerImage/``) above ``source``."""
    for parent in [source, *source.resolve().parents][:4]:
        candidate = parent / "longcli_dockerImage"
        if candidate.is_dir():
            return candidate
    return None


@dataclass(frozen=True)
class TaskOutcome:
    source: Path
    result: ImportResult | None
    error: RealcliError | None

    @property
    def line(self) -> str:
        """The summary line of this task."""
        if self.result is None:
            return f"failed   {self.source}: {self.error}"
        report = self.result.report_markdown
        unmapped = next(
            (ln.split(" item(s)")[0].lstrip("- ") for ln in report.splitlines() if "item(s)" in ln),
            "?",
        )
        no_reference = "; no reference" if self.result.bundle.no_reference else ""
        return (
            f"imported {self.result.bundle.id} ({unmapped} not mapped{no_reference}):"
            f" {self.result.check_command}"
        )


def import_many(
    fmt: str,
    paths: Iterable[Path],
    tasks_dir: Path,
    *,
    task_id: str | None = None,
    category: str | None = None,
    images_dir: Path | None = None,
    force: bool = False,
) -> Iterator[TaskOutcome]:
    """Import every task the ``paths`` name, one after another; a task that fails is
    reported (its outcome carries the error) and the others go on."""
    importer = IMPORTERS[fmt]
    sources = [task for path in paths for task in find_tasks(path, importer.marker)]
    if task_id is not None and len(sources) > 1:
        raise TaskError(
            "command line", "--id", f"given for {len(sources)} tasks", "import one task with --id"
        )
    run = importer.load()
    for source in sources:
        images = images_dir or (find_images_dir(source) if fmt == "longcli" else None)
        try:
            result = run(
                source,
                tasks_dir,
                task_id=task_id,
                category=category,
                images_dir=images,
                force=force,
            )
        except RealcliError as exc:
            yield TaskOutcome(source, None, exc)
            continue
        yield TaskOutcome(source, result, None)
