"""Rows of migration 009: a hybrid run's deliverables and clauses (``verdict.json``), its
screenshot captures (the ledger's ``screenshot`` events) and each judge's screenshot provenance
(``Judgement.screenshots``).

A damaged part never costs the rest: a verdict whose only invalid fields are under
``deliverables`` loads without its deliverables, and a judgement whose only invalid fields are
under ``screenshots`` loads without its provenance, each with one problem naming the file, the
field and the fix. A deliverable path (or a clause id within a deliverable, or a provenance
deliverable within a judgement) that occurs twice keeps its first entry and adds a problem.
Pure: parsed records in, rows out.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.schema.events import ScreenshotEvent
from realcli.schema.judgement import Judgement
from realcli.schema.verdict import Verdict
from realcli.warehouse.problems import Problem

__all__ = [
    "deliverable_rows",
    "salvage_judgement",
    "salvage_verdict",
    "screenshot_provenance_rows",
    "screenshot_rows",
]

_FIX_VERDICT = "regrade the run to rewrite verdict.json, or delete it and rerun"


def _judge_fix(judge: str) -> str:
    return f"rejudge the run (`realcli judge RUN_KEY judge={judge} --force`)"


def _where(exc: ValidationError) -> tuple[str, str]:
    first = exc.errors()[0]
    return ".".join(str(part) for part in first["loc"]), str(first["msg"])


def _only_under(exc: ValidationError, name: str) -> bool:
    errors = exc.errors()
    return bool(errors) and all(e["loc"] and e["loc"][0] == name for e in errors)


def salvage_verdict(
    doc: Any, exc: ValidationError, path: Path, problems: list[Problem]
) -> Verdict | None:
    """The verdict without its ``deliverables`` when they are all that is invalid (one problem
    added), else None (the caller reports the verdict as unreadable)."""
    if not isinstance(doc, dict) or not _only_under(exc, "deliverables"):
        return None
    try:
        verdict = Verdict.model_validate({k: v for k, v in doc.items() if k != "deliverables"})
    except ValidationError:
        return None
    where, msg = _where(exc)
    problems.append(
        Problem(
            str(path),
            where,
            f"unreadable deliverable ({msg})",
            _FIX_VERDICT,
            "run loaded without its deliverables",
        )
    )
    return verdict


def salvage_judgement(
    doc: Any, exc: ValidationError, path: Path, judge: str, problems: list[Problem]
) -> Judgement | None:
    """The judgement without its ``screenshots`` when they are all that is invalid (one
    problem added), else None."""
    if not isinstance(doc, dict) or not _only_under(exc, "screenshots"):
        return None
    try:
        judgement = Judgement.model_validate({k: v for k, v in doc.items() if k != "screenshots"})
    except ValidationError:
        return None
    where, msg = _where(exc)
    problems.append(
        Problem(
            str(path),
            where,
            f"unreadable screenshot provenance ({msg})",
            _judge_fix(judge),
            "judgement loaded without its screenshot provenance",
        )
    )
    return judgement


def deliverable_rows(
    verdict: Verdict, path: Path, problems: list[Problem]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``run_deliverables`` and ``run_clauses`` rows of a verdict."""
    key = verdict.run_key
    deliverables: list[dict[str, Any]] = []
    clauses: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, d in enumerate(verdict.deliverables):
        if d.path in seen:
            problems.append(
                Problem(
                    str(path),
                    f"deliverables.{i}.path",
                    f"deliverable {d.path!r} occurs twice",
                    _FIX_VERDICT,
                    "loaded its first entry",
                )
            )
            continue
        seen.add(d.path)
        ids: set[str] = set()
        kept = []
        for j, c in enumerate(d.clauses):
            if c.id in ids:
                problems.append(
                    Problem(
                        str(path),
                        f"deliverables.{i}.clauses.{j}.id",
                        f"clause {c.id!r} of {d.path!r} occurs twice",
                        _FIX_VERDICT,
                        "loaded its first entry",
                    )
                )
                continue
            ids.add(c.id)
            kept.append(c)
            clauses.append(
                {
                    "run_key": key,
                    "deliverable": d.path,
                    "clause_id": c.id,
                    "position": j,
                    "critical": c.critical,
                    "test": c.test,
                    "outcome": c.outcome,
                }
            )
        deliverables.append(
            {
                "run_key": key,
                "deliverable": d.path,
                "position": i,
                "exists": d.exists,
                "abstained": d.abstained,
                "evidence": d.evidence,
                "passed": d.passed,
                "n_clauses": len(kept),
                "n_critical": sum(c.critical for c in kept),
                "n_clauses_passed": sum(c.outcome == "passed" for c in kept),
                "n_clauses_failed": sum(c.outcome == "failed" for c in kept),
                "n_clauses_unjudged": sum(c.outcome == "unjudged" for c in kept),
                "n_critical_failed": sum(c.critical and c.outcome == "failed" for c in kept),
            }
        )
    return deliverables, clauses


def screenshot_rows(run_key: str, events: Iterable[object]) -> list[dict[str, Any]]:
    """``screenshots`` rows: every screenshot event of the ledger, in seq order."""
    return [
        {"run_key": run_key, **e.model_dump(exclude={"kind"})}
        for e in events
        if isinstance(e, ScreenshotEvent)
    ]


def screenshot_provenance_rows(
    j: Judgement, path: Path, problems: list[Problem]
) -> list[dict[str, Any]]:
    """``screenshot_provenance`` rows of one judgement."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, s in enumerate(j.screenshots):
        if s.deliverable in seen:
            problems.append(
                Problem(
                    str(path),
                    f"screenshots.{i}.deliverable",
                    f"deliverable {s.deliverable!r} occurs twice",
                    _judge_fix(j.judge),
                    "loaded its first entry",
                )
            )
            continue
        seen.add(s.deliverable)
        row = s.model_dump(mode="json")
        row["box"] = list(s.box) if s.box is not None else None
        rows.append({"run_key": j.run_key, "judge": j.judge, **row})
    return rows
