"""What every ``realcli tasks import`` shares: the options, the task id, and the staging that
makes an import all-or-nothing (the bundle is written to a temporary folder beside its
destination, validated with :func:`load_task`, and only then renamed into place)."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from realcli.catalog.bundle import TaskBundle, load_task
from realcli.catalog.import_report import ImportReport
from realcli.util.errors import TaskError

__all__ = [
    "ImportOptions",
    "ImportResult",
    "derive_task_id",
    "positive_seconds",
    "stage_bundle",
]

_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{1,63}$")


@dataclass(frozen=True)
class ImportResult:
    bundle: TaskBundle
    report_markdown: str
    check_command: str


@dataclass(frozen=True)
class ImportOptions:
    tasks_dir: Path
    category: str | None = None
    """The realcli category for a source category the importer does not know."""
    images_dir: Path | None = None
    """Base Dockerfiles that ``FROM`` names resolve to (a release's ``longcli_dockerImage/``)."""
    force: bool = False

    def check_command(self, task_id: str) -> str:
        return f"realcli tasks check {task_id} --tasks-dir {self.tasks_dir}"


def derive_task_id(given: str | None, source: Path, name: str | None = None) -> str:
    """``--id``, or one derived from ``name`` (default: the folder's name)."""
    if given is not None:
        if not _ID.match(given):
            raise TaskError(
                "command line",
                "--id",
                f"{given!r} is not a task id",
                "use 2-64 lower-case letters, digits, '.', '_' or '-', starting with a letter"
                " or digit",
            )
        return given
    base = name if name is not None else source.resolve().name
    derived = re.sub(r"[^a-z0-9._-]+", "-", base.lower()).lstrip("._-")[:64]
    if not _ID.match(derived):
        raise TaskError(
            str(source), None, f"the folder name gives no task id ({derived!r})", "pass --id ID"
        )
    return derived


def positive_seconds(
    data: dict[str, object], key: str, where: str, report: ImportReport
) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seconds = 0.0
    if seconds <= 0:
        report.cannot(
            f"{where}: {key}", repr(value), "not a positive number", "set timeouts in task.toml"
        )
        return None
    return seconds


Builder = Callable[[Path, Path, Path, ImportOptions], str]
"""(source, staged bundle, destination, options) -> the report's markdown."""


def stage_bundle(
    source: Path, task_id: str | None, options: ImportOptions, build: Builder
) -> ImportResult:
    """Build the bundle for ``source`` in a staging folder, validate it, move it into
    ``options.tasks_dir/<id>``. Nothing is left behind when ``build`` or validation fails."""
    source = source.resolve()
    if not source.is_dir():
        raise TaskError(str(source), None, "no such folder", "give the task's folder")
    task_id = derive_task_id(task_id, source)
    tasks_dir = options.tasks_dir
    dest = tasks_dir / task_id
    if tasks_dir.resolve().is_relative_to(source):
        raise TaskError(
            "command line",
            "--out",
            f"{tasks_dir} is inside the source task folder",
            "write elsewhere",
        )
    if dest.exists() and not options.force:
        raise TaskError(
            str(dest), None, "already exists", "pass --force to replace it, or --id for another id"
        )
    made_tasks_dir = not tasks_dir.exists()
    tasks_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".import-{task_id}-", dir=tasks_dir))
    try:
        staged = staging / task_id
        markdown = build(source, staged, dest, options)
        load_task(staged).reference_actions()  # the bundle validates before it is put in place
        if dest.exists():
            dest.rename(staging / "replaced")
        staged.rename(dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if made_tasks_dir:
            shutil.rmtree(tasks_dir, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return ImportResult(load_task(dest), markdown, options.check_command(task_id))
