"""Clause checkers: one module per checker kind, each registered in CHECKERS.

``test`` (an F2P selector's outcome), ``file`` (exists, parses as its format, schema, size,
keys, rows), ``value`` (a value against a hidden anchor), ``provenance`` (a genuine capture
of the run's display), ``visual`` (pixels of a genuine capture) and ``unjudged`` (no program
can decide it). :func:`resolve_clause` validates a clause's checker name and arguments
(:class:`~realcli.util.errors.TaskError` naming task.toml, the clause and the fix),
:func:`check_clause` decides it, :func:`validate_clauses` lists every problem of a task's
clauses (the ``realcli tasks check`` gate).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from realcli.judge.base import CHECKERS, Checker
from realcli.judge.checkers import file, provenance, test, unjudged, value, visual
from realcli.judge.checkers.common import BadPointer, ClauseChecker, judgement, resolve_pointer
from realcli.judge.context import BadImage, RunEvidence
from realcli.ledger.layout import TASK_COPY
from realcli.schema.judgement import ClauseJudgement
from realcli.schema.task_spec import TaskSpec
from realcli.util.errors import TaskError
from realcli.util.validation import describe_validation_error, did_you_mean

__all__ = [
    "ResolvedClause",
    "check_clause",
    "file",
    "provenance",
    "resolve_clause",
    "test",
    "unjudged",
    "validate_clauses",
    "value",
    "visual",
]


@dataclass(frozen=True)
class ResolvedClause:
    """A clause with its checker instance and validated arguments."""

    checker: Checker
    args: BaseModel


def resolve_clause(
    task: TaskSpec,
    deliverable_index: int,
    clause_index: int,
    where: str,
    tests_dir: Path | None = None,
) -> ResolvedClause:
    """The checker and validated args of ``task.deliverables[i].clauses[j]``; TaskError
    (``where``, ``deliverables[i].clauses[j].checker`` or ``.args.<key>``, problem, fix)
    when the checker is unknown or the clause does not fit it. ``tests_dir``: the bundle's
    tests/ folder, to check that the anchors and schemas the clause names exist."""
    d = task.deliverables[deliverable_index]
    clause = d.clauses[clause_index]
    at = f"deliverables[{deliverable_index}].clauses[{clause_index}]"
    name = clause.checker_name
    if name not in CHECKERS:
        known = CHECKERS.names()
        raise TaskError(
            where,
            f"{at}.checker",
            f"no clause checker {name!r} (clause {clause.id!r})",
            f"{did_you_mean(name, known)}use one of {', '.join(known)}",
        )
    cls = CHECKERS.get(name)
    try:
        args = cls.Args.model_validate(clause.args)
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, cls.Args, f"{at}.args.")
        if field.endswith(".args."):
            field = f"{at}.args"
        field, fix = field.replace("schema_", "schema"), fix.replace("schema_", "schema")
        raise TaskError(where, field, f"{problem} (checker {name!r})", fix) from None
    checker = cls()
    if isinstance(checker, ClauseChecker):
        problems = checker.clause_problems(task, d, clause, args)
        problems += _bundle_problems(task, name, args, tests_dir)
        if problems:
            sub, problem, fix = problems[0]
            raise TaskError(where, f"{at}.{sub}", f"{problem} (checker {name!r})", fix)
    return ResolvedClause(checker, args)


def _bundle_problems(
    task: TaskSpec, name: str, args: Any, tests_dir: Path | None
) -> list[tuple[str, str, str]]:
    if tests_dir is None:
        return []
    problems = []
    schema = getattr(args, "schema_", None) if name == "file" else None
    if schema is not None and not (tests_dir / schema).is_file():
        problems.append(("args.schema", f"tests/{schema} does not exist", "add the schema file"))
    if name == "value" and task.anchors is not None:
        path = tests_dir / task.anchors
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return [("args.anchor", f"tests/{task.anchors} is unreadable ({exc})", "fix it")]
        try:
            if args.anchor.startswith("/"):
                resolve_pointer(doc, args.anchor)
            elif not isinstance(doc, dict) or args.anchor not in doc:
                raise BadPointer(args.anchor)
        except BadPointer:
            problems.append(
                ("args.anchor", f"anchor {args.anchor!r} is not in tests/{task.anchors}", "add it")
            )
    return problems


def validate_clauses(task: TaskSpec, where: str, tests_dir: Path | None = None) -> list[str]:
    """Every problem of the task's clauses (unknown checker, bad args, a clause the checker
    cannot decide), one line each; [] when all are fine."""
    problems = []
    for i, d in enumerate(task.deliverables):
        for j in range(len(d.clauses)):
            try:
                resolve_clause(task, i, j, where, tests_dir)
            except TaskError as exc:
                problems.append(str(exc))
    return problems


def check_clause(run: RunEvidence, deliverable_index: int, clause_index: int) -> ClauseJudgement:
    """Decide one clause of the run's task (TaskError when the clause itself is bad; an
    image that does not decode makes the clause false, naming the file)."""
    resolved = resolve_clause(
        run.task, deliverable_index, clause_index, str(run.run_dir / TASK_COPY)
    )
    d = run.task.deliverables[deliverable_index]
    clause = d.clauses[clause_index]
    try:
        return resolved.checker.check(run, d, clause, resolved.args)
    except BadImage as exc:
        return judgement(clause, resolved.checker.name, "false", str(exc))
