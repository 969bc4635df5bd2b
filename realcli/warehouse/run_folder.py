"""Read one run folder (``spec.json``, ``ledger.jsonl``, ``verdict.json``, ``progress.json``,
``judgements/*.json``, the domain of ``task.toml``) into warehouse rows (the deliverables,
screenshots and screenshot provenance through :mod:`realcli.warehouse.deliverable_rows`).

Pure: files in, rows out; nothing here touches DuckDB. A folder whose ``spec.json`` or ledger
header cannot be used raises :class:`RunFolderError` (the caller reports it and moves on); a
truncated ledger or an unusable ``verdict.json``, ``progress.json`` or judgement only adds a
:class:`Problem` and marks the run. Every file is read bounded (``realcli.util.bounded``): no
link is followed, a directory, FIFO or other special file in place of a file is a problem (a
FIFO is never opened for reading, so it cannot hang), sizes, JSON nesting and integers
(int64, what the warehouse stores) are capped.
"""

from __future__ import annotations

import tomllib
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.ledger import read_ledger
from realcli.ledger.layout import LEDGER, PROGRESS, SPEC, TASK_COPY, VERDICT
from realcli.ledger.run_records import (
    FIX_SPEC_JSON,
    MAX_SPEC_BYTES,
    RunRecordError,
    load_run_record,
)
from realcli.schema.events import RunEndEvent
from realcli.schema.run_record import RunRecord
from realcli.schema.verdict import MAX_VERDICT_BYTES, Verdict
from realcli.util.bounded import MIB, BadFile, read_bounded, read_json_file
from realcli.util.errors import LedgerError, RealcliError
from realcli.warehouse.deliverable_rows import deliverable_rows, salvage_verdict, screenshot_rows
from realcli.warehouse.event_rows import add_ledger_rows, add_verdict_rows
from realcli.warehouse.folder_digest import RUN_FILES, folder_digest
from realcli.warehouse.judgement_files import read_judgements
from realcli.warehouse.problems import Problem
from realcli.warehouse.progress_file import read_progress
from realcli.warehouse.run_row import run_row
from realcli.warehouse.run_rows import RunRows
from realcli.warehouse.tool_facts import tool_fact_rows

__all__ = [
    "MAX_SPEC_BYTES",
    "MAX_VERDICT_BYTES",
    "RUN_FILES",
    "Problem",
    "RunFolderError",
    "RunRows",
    "folder_digest",
    "read_run_folder",
]

_FIX_VERDICT = "regrade the run to rewrite verdict.json, or delete it and rerun"
MAX_TASK_BYTES = 4 * MIB


class RunFolderError(RealcliError):
    """A run folder that cannot be loaded at all."""


def read_run_folder(run_dir: Path, digest: str, ingested_at: datetime) -> RunRows:
    """All rows of the run in ``run_dir``. Raises :class:`RunFolderError` when it can't load."""
    record, spec_doc = _read_spec(run_dir / SPEC)
    run_key = record.run_key
    try:
        ledger = read_ledger(run_dir / LEDGER)
    except LedgerError as exc:
        raise RunFolderError(exc.where, exc.field, exc.problem, exc.fix) from exc
    ledger_path = str(run_dir / LEDGER)
    if ledger.header.run_key != run_key:
        raise RunFolderError(
            str(run_dir / LEDGER),
            "line 1: run_key",
            f"header says {ledger.header.run_key!r}, spec.json says {run_key!r}",
            "the ledger belongs to another run: move it back to its own folder",
        )
    rows = RunRows(
        run_key=run_key,
        run={},
        problems=[
            Problem(
                ledger_path,
                f"line {line}",
                what,
                "rerun the run",
                "loaded the lines that parse, complete=false",
            )
            for line, what in ledger.bad_lines
        ],
    )
    verdict = _read_verdict(run_dir / VERDICT, run_key, rows.problems)
    progress = read_progress(run_dir / PROGRESS, run_key, rows.problems)
    if verdict is not None and not any(isinstance(e, RunEndEvent) for e in ledger.events):
        rows.problems.append(
            Problem(
                ledger_path,
                "run_end",
                "missing although verdict.json exists (the run stopped between writing its"
                " verdict and its run_end event)",
                "`realcli run` the same configuration again: it appends the run_end from"
                " verdict.json without rerunning the agent",
                "loaded from verdict.json, complete=false",
            )
        )
    rows.run = run_row(run_dir, record, spec_doc, ledger, verdict, digest, ingested_at)
    rows.run["has_progress"] = progress is not None
    rows.run["task_domain"] = _task_domain(run_dir / TASK_COPY, rows.problems)
    add_ledger_rows(rows, ledger)
    rows.screenshots = screenshot_rows(run_key, ledger.events)
    rows.tool_facts = tool_fact_rows(
        run_key, ledger.events, run_dir / TASK_COPY, MAX_TASK_BYTES, rows.problems
    )
    if verdict is not None:
        add_verdict_rows(rows, verdict)
        rows.run_deliverables, rows.run_clauses = deliverable_rows(
            verdict, run_dir / VERDICT, rows.problems
        )
    if progress is not None:
        rows.progress_runs.append(progress.run)
        rows.progress_goals.extend(progress.goals)
    judged = read_judgements(run_dir, run_key, rows.problems)
    rows.judgements = judged.judgements
    rows.artifact_checks = judged.artifact_checks
    rows.clause_results = judged.clause_results
    rows.judge_dimensions = judged.judge_dimensions
    rows.hack_flags = judged.hack_flags
    rows.screenshot_provenance = judged.screenshot_provenance
    return rows


def _task_domain(path: Path, problems: list[Problem]) -> str | None:
    """``domain`` of the run's copy of task.toml (hybrid tasks have one); None without it."""
    try:
        doc = tomllib.loads(read_bounded(path, MAX_TASK_BYTES).decode("utf-8"))
    except FileNotFoundError:
        return None
    except (BadFile, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        what = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        problems.append(
            Problem(
                str(path),
                None,
                f"unreadable task copy ({what})",
                "restore it from the task bundle (tasks/<id>/task.toml)",
                "loaded with task_domain NULL",
            )
        )
        return None
    domain = doc.get("domain")
    return domain if isinstance(domain, str) else None


def _read_spec(path: Path) -> tuple[RunRecord, dict[str, Any]]:
    """``spec.json`` as its typed record, and as read (the ``spec_json`` column keeps it)."""
    try:
        doc = read_json_file(path, MAX_SPEC_BYTES)
    except FileNotFoundError as exc:
        raise RunFolderError(str(path), None, "missing", FIX_SPEC_JSON) from exc
    except BadFile as exc:
        raise RunFolderError(str(path), exc.field, exc.problem, FIX_SPEC_JSON) from exc
    try:
        return load_run_record(doc, path), doc
    except RunRecordError as exc:
        raise RunFolderError(exc.where, exc.field, exc.problem, exc.fix) from None


def _read_verdict(path: Path, run_key: str, problems: list[Problem]) -> Verdict | None:
    doc: Any = None
    try:
        doc = read_json_file(path, MAX_VERDICT_BYTES)
        verdict = Verdict.model_validate(doc)
    except FileNotFoundError:
        return None
    except BadFile as exc:
        problems.append(
            Problem(
                str(path),
                exc.field,
                f"unreadable verdict ({exc.problem})",
                _FIX_VERDICT,
                _INCOMPLETE,
            )
        )
        return None
    except ValidationError as exc:
        salvaged = salvage_verdict(doc, exc, path, problems)
        if salvaged is None:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or None
            problems.append(
                Problem(
                    str(path),
                    where,
                    f"unreadable verdict ({first['msg']})",
                    _FIX_VERDICT,
                    _INCOMPLETE,
                )
            )
            return None
        verdict = salvaged
    if verdict.run_key != run_key:
        problems.append(
            Problem(
                str(path),
                "run_key",
                f"verdict is for {verdict.run_key!r}, not {run_key!r}",
                _FIX_VERDICT,
                _INCOMPLETE,
            )
        )
        return None
    return verdict


_INCOMPLETE = "loaded as incomplete"
