"""Read a run folder's ``progress.json`` (a :class:`ProgressReport`) into warehouse rows.

The file is optional: the progress replay writes it only when enabled. One that cannot be used
(bad JSON, a field of the wrong type, another run's report, a newer schema) adds one problem
naming the file and the field, and the run loads without progress rows; it never stops an
ingest. Pure: file in, rows out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.schema.progress import PROGRESS_SCHEMA_VERSION, ProgressReport
from realcli.util.bounded import MIB, BadFile, read_json_file
from realcli.warehouse.problems import Problem

__all__ = ["ProgressRows", "read_progress"]

_FIX = "delete progress.json and replay the run's progress again"
MAX_PROGRESS_BYTES = 256 * MIB


@dataclass
class ProgressRows:
    """The ``progress_runs`` row and the ``progress_goals`` rows of one run."""

    run: dict[str, Any]
    goals: list[dict[str, Any]] = field(default_factory=list)


def read_progress(path: Path, run_key: str, problems: list[Problem]) -> ProgressRows | None:
    """Rows of ``path``; None when it is absent or unusable (then one problem is added to
    ``problems``: the file, the field, what is wrong and the fix)."""
    try:
        report = ProgressReport.model_validate(read_json_file(path, MAX_PROGRESS_BYTES))
    except FileNotFoundError:
        return None
    except BadFile as exc:
        return _problem(problems, path, exc.field, exc.problem)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        if first["type"] == "json_invalid":
            return _problem(problems, path, None, f"not valid JSON ({first['msg']})")
        return _problem(problems, path, where or None, str(first["msg"]))
    if report.schema_version > PROGRESS_SCHEMA_VERSION:
        return _problem(
            problems,
            path,
            "schema_version",
            f"version {report.schema_version} is newer than this realcli reads"
            f" ({PROGRESS_SCHEMA_VERSION})",
        )
    if report.run_key != run_key:
        return _problem(
            problems, path, "run_key", f"report is for {report.run_key!r}, not {run_key!r}"
        )
    seen: set[str] = set()
    for i, goal in enumerate(report.goals):
        if goal.goal in seen:
            return _problem(problems, path, f"goals.{i}.goal", f"{goal.goal!r} appears twice")
        seen.add(goal.goal)
    return ProgressRows(
        run={
            "run_key": run_key,
            "method": report.method,
            "grid": report.grid,
            "n_snapshots": report.n_snapshots,
            "last_step": report.last_step,
            "n_evaluations": len(report.evaluations),
            "seconds": report.seconds,
        },
        goals=[
            {
                "run_key": run_key,
                "goal": g.goal,
                "kind": g.kind,
                "reference_order": g.reference_order,
                "depends_on": list(g.depends_on),
                "initial": g.initial,
                "first_pass_step": g.first_pass_step,
                "broke_at": list(g.broke_at),
                "restored_at": list(g.restored_at),
                "final": g.final,
            }
            for g in report.goals
        ],
    )


def _problem(
    problems: list[Problem], path: Path, where: str | None, what: str
) -> ProgressRows | None:
    """Record the problem; the run then loads without progress (returns None)."""
    problems.append(Problem(str(path), where, what, _FIX, "run loaded without progress"))
    return None
