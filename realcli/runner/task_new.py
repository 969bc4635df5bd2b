"""``realcli tasks new`` and ``realcli tasks validate``: scaffold a bundle, and check bundles
without running anything (the static gates of ``tasks check``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from realcli.catalog import load_task
from realcli.catalog.p1_coverage import p1_atom_problems
from realcli.catalog.scaffold import scaffold_task
from realcli.judge.checkers import validate_clauses
from realcli.schema.task_spec import TaskKind
from realcli.util.errors import RealcliError, TaskError

__all__ = ["tasks_new", "tasks_validate", "validation_problems"]


def tasks_new(
    tasks_dir: Path, task_id: str, kind: str, domain: str = "DSK", app: str = "tk"
) -> int:
    """Scaffold ``tasks_dir/task_id`` and say what to fill in next."""
    root = scaffold_task(tasks_dir, task_id, kind, domain, app)
    problems = validation_problems(root)
    if problems:  # the scaffold itself must validate: a bug here, not the author's
        raise AssertionError(f"the scaffold of {task_id} does not validate: {problems}")
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    print(f"created {root} ({len(files)} files):")
    for rel in files:
        print(f"  {rel}")
    print(f"next: fill in every TODO, then `realcli tasks check {task_id} --repeat 3`")
    return 0


def validation_problems(root: Path) -> list[str]:
    """What is wrong with the bundle at ``root`` without running it: task.toml, the layout
    and the reference trajectory validate, every clause names a registered checker with
    valid args, a weave task has P1 atoms with any-side coverage. Empty: valid."""
    try:
        task = load_task(root)
        task.reference_actions()
    except RealcliError as exc:
        return [str(exc)]
    problems = validate_clauses(task.spec, str(root / "task.toml"), task.tests_dir)
    if task.spec.kind is TaskKind.weave:
        problems += p1_atom_problems(task.spec, root / "task.toml")
    return problems


def tasks_validate(tasks_dir: Path, task_ids: Sequence[str]) -> int:
    """``ok``/``FAIL`` per bundle with its problems; exit 1 when any is invalid."""
    if not tasks_dir.is_dir():
        raise TaskError(str(tasks_dir), None, "no such tasks directory", "pass --tasks-dir")
    roots = (
        [tasks_dir / t for t in task_ids]
        if task_ids
        else sorted(p.parent for p in tasks_dir.glob("*/task.toml"))
    )
    bad = 0
    for root in roots:
        if not (root / "task.toml").is_file():
            raise TaskError(str(root), None, "no task.toml: not a task", "check the task id")
        problems = validation_problems(root)
        bad += bool(problems)
        print(f"{'FAIL' if problems else 'ok  '} {root.name}")
        for problem in problems:
            print(f"     {problem}")
    print(f"{len(roots) - bad}/{len(roots)} tasks valid")
    return 1 if bad else 0
