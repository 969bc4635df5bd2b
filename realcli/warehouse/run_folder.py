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

import hashlib
import json
import os
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.ledger import LedgerContents, read_ledger
from realcli.ledger.layout import LEDGER, PROGRESS, SPEC, TASK_COPY, VERDICT
from realcli.schema.events import (
    INFRA_ERRORS,
    ErrorEvent,
    ErrorType,
    FidelityEvent,
    HeaderEvent,
    InterventionEvent,
    ModelCallEvent,
    RunEndEvent,
    SessionEvent,
    SnapshotEvent,
    ToolCallEvent,
    ToolPoolEvent,
    ToolResultEvent,
)
from realcli.schema.verdict import MAX_VERDICT_BYTES, Verdict
from realcli.util.bounded import MIB, BadFile, describe_mode, read_bounded, read_json_file
from realcli.util.errors import LedgerError, RealcliError
from realcli.warehouse.deliverable_rows import deliverable_rows, salvage_verdict, screenshot_rows
from realcli.warehouse.judgement_files import hash_judgements, read_judgements
from realcli.warehouse.problems import Problem
from realcli.warehouse.progress_file import read_progress
from realcli.warehouse.tool_facts import TOOL_FACT_TABLES, tool_fact_rows

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

RUN_FILES = (SPEC, LEDGER, VERDICT, PROGRESS)
"""The files ingest reads; their bytes (or absence) make the folder's ingest digest."""

_MODEL_CALL_FIELDS = (
    "wire_format",
    "backend",
    "model",
    "tokens_in",
    "tokens_out",
    "tokens_cached",
    "cost_usd",
    "latency_ms",
    "n_tool_calls",
    "finish_reason",
    "status",
)
_FIX_SPEC = "restore spec.json as the runner wrote it, or delete the folder and rerun"
_FIX_VERDICT = "regrade the run to rewrite verdict.json, or delete it and rerun"
MAX_SPEC_BYTES = 16 * MIB
MAX_TASK_BYTES = 4 * MIB


class RunFolderError(RealcliError):
    """A run folder that cannot be loaded at all."""


@dataclass
class RunRows:
    """Every warehouse row of one run, keyed by table name (see migrations/001_raw_tables.sql)."""

    run_key: str
    run: dict[str, Any]
    problems: list[Problem] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    test_results: list[dict[str, Any]] = field(default_factory=list)
    substep_results: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    model_calls: list[dict[str, Any]] = field(default_factory=list)
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    sessions: list[dict[str, Any]] = field(default_factory=list)
    tool_pools: list[dict[str, Any]] = field(default_factory=list)
    fidelity: list[dict[str, Any]] = field(default_factory=list)
    interventions: list[dict[str, Any]] = field(default_factory=list)
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    progress_goals: list[dict[str, Any]] = field(default_factory=list)
    progress_runs: list[dict[str, Any]] = field(default_factory=list)
    judgements: list[dict[str, Any]] = field(default_factory=list)
    artifact_checks: list[dict[str, Any]] = field(default_factory=list)
    clause_results: list[dict[str, Any]] = field(default_factory=list)
    judge_dimensions: list[dict[str, Any]] = field(default_factory=list)
    hack_flags: list[dict[str, Any]] = field(default_factory=list)
    run_deliverables: list[dict[str, Any]] = field(default_factory=list)
    run_clauses: list[dict[str, Any]] = field(default_factory=list)
    screenshots: list[dict[str, Any]] = field(default_factory=list)
    screenshot_provenance: list[dict[str, Any]] = field(default_factory=list)
    tool_facts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """tool_call_ops, run_task_atoms, run_p1_atoms, run_gui_apps (warehouse.tool_facts)"""

    def tables(self) -> dict[str, list[dict[str, Any]]]:
        return {
            "runs": [self.run],
            "rounds": self.rounds,
            "test_results": self.test_results,
            "substep_results": self.substep_results,
            "events": self.events,
            "model_calls": self.model_calls,
            "tool_calls": self.tool_calls,
            "sessions": self.sessions,
            "tool_pools": self.tool_pools,
            "fidelity": self.fidelity,
            "interventions": self.interventions,
            "snapshots": self.snapshots,
            "progress_goals": self.progress_goals,
            "progress_runs": self.progress_runs,
            "judgements": self.judgements,
            "artifact_checks": self.artifact_checks,
            "clause_results": self.clause_results,
            "judge_dimensions": self.judge_dimensions,
            "hack_flags": self.hack_flags,
            "run_deliverables": self.run_deliverables,
            "run_clauses": self.run_clauses,
            "screenshots": self.screenshots,
            "screenshot_provenance": self.screenshot_provenance,
            **{t: self.tool_facts.get(t, []) for t in TOOL_FACT_TABLES},
        }


def folder_digest(run_dir: Path) -> str:
    """sha256 over the name and bytes of each of :data:`RUN_FILES` (absent files count too),
    then of each ``judgements/*.json`` (a run without ``judgements/`` adds nothing).

    Never follows a link (a link counts as its target string) and never opens anything but a
    regular file (a directory, FIFO... counts as its type), so a damaged folder still has a
    digest and never blocks; regular files are hashed in chunks, whatever their size.
    """
    h = hashlib.sha256()
    for name in RUN_FILES:
        path = run_dir / name
        h.update(name.encode() + b"\0")
        try:
            st = path.lstat()
        except FileNotFoundError:
            h.update(b"-")
        except OSError as exc:
            h.update(b"E" + str(exc.errno).encode())
        else:
            if stat.S_ISLNK(st.st_mode):
                h.update(b"L" + os.fsencode(os.readlink(path)))
            elif stat.S_ISREG(st.st_mode):
                h.update(b"F")
                _hash_file(h, path)
            else:
                h.update(b"S" + describe_mode(st.st_mode).encode())
        h.update(b"\0")
    hash_judgements(h, run_dir)
    return h.hexdigest()


def _hash_file(h: Any, path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        h.update(b"E" + str(exc.errno).encode())
        return
    try:
        while chunk := os.read(fd, MIB):
            h.update(chunk)
    except OSError as exc:
        h.update(b"E" + str(exc.errno).encode())
    finally:
        os.close(fd)


def read_run_folder(run_dir: Path, digest: str, ingested_at: datetime) -> RunRows:
    """All rows of the run in ``run_dir``. Raises :class:`RunFolderError` when it can't load."""
    spec_doc = _read_spec(run_dir / SPEC)
    run_key = _field(spec_doc, "run_key", run_dir / SPEC, str)
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
    rows.run = _run_row(run_dir, spec_doc, ledger, verdict, digest, ingested_at)
    rows.run["has_progress"] = progress is not None
    rows.run["task_domain"] = _task_domain(run_dir / TASK_COPY, rows.problems)
    _add_ledger_rows(rows, ledger)
    rows.screenshots = screenshot_rows(run_key, ledger.events)
    rows.tool_facts = tool_fact_rows(
        run_key, ledger.events, run_dir / TASK_COPY, MAX_TASK_BYTES, rows.problems
    )
    if verdict is not None:
        _add_verdict_rows(rows, verdict)
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


def _read_spec(path: Path) -> dict[str, Any]:
    try:
        doc = read_json_file(path, MAX_SPEC_BYTES)
    except FileNotFoundError as exc:
        raise RunFolderError(str(path), None, "missing", _FIX_SPEC) from exc
    except BadFile as exc:
        raise RunFolderError(str(path), exc.field, exc.problem, _FIX_SPEC) from exc
    if not isinstance(doc, dict):
        raise RunFolderError(str(path), None, "not a JSON object", _FIX_SPEC)
    return doc


def _field(
    doc: dict[str, Any], dotted: str, path: Path, kind: type, *, required: bool = True
) -> Any:
    value: Any = doc
    for part in dotted.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if value is None:
        if required:
            raise RunFolderError(str(path), dotted, "missing", _FIX_SPEC)
        return None
    if kind is str and isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RunFolderError(
            str(path), dotted, f"expected {kind.__name__}, found {value!r:.60}", _FIX_SPEC
        )
    return value


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


def _run_row(
    run_dir: Path,
    doc: dict[str, Any],
    ledger: LedgerContents,
    verdict: Verdict | None,
    digest: str,
    ingested_at: datetime,
) -> dict[str, Any]:
    p = run_dir / SPEC
    header: HeaderEvent = ledger.header
    events = ledger.events
    run_end = next((e for e in reversed(events) if isinstance(e, RunEndEvent)), None)
    model_calls = [e for e in events if isinstance(e, ModelCallEvent)]
    tool_calls = [e for e in events if isinstance(e, ToolCallEvent)]
    session = next((e for e in events if isinstance(e, SessionEvent)), None)
    fidelity = [e for e in events if isinstance(e, FidelityEvent)]
    started_at = header.ts
    ended_at = run_end.ts if run_end else (events[-1].ts if events else None)
    if verdict is not None:
        wall_time_s: float | None = verdict.wall_time_s
    elif run_end is not None:
        wall_time_s = run_end.wall_time_s
    else:
        wall_time_s = (ended_at - started_at).total_seconds() if ended_at else None
    last = verdict.rounds[-1] if verdict and verdict.rounds else None
    channels = _field(doc, "spec.mode.channels", p, list, required=False)
    return {
        "run_key": _field(doc, "run_key", p, str),
        "experiment": _field(doc, "experiment", p, str),
        "task_id": _field(doc, "task.id", p, str),
        "task_version": _field(doc, "task.version", p, str, required=False),
        "task_category": _field(doc, "task.category", p, str, required=False),
        "task_kind": _field(doc, "task.kind", p, str, required=False),
        "task_digest": _field(doc, "task.digest", p, str, required=False),
        "model": _field(doc, "spec.model.name", p, str),
        "model_backend": _field(doc, "spec.model.backend", p, str, required=False),
        "model_id": _field(doc, "spec.model.model_id", p, str, required=False),
        "harness": _field(doc, "spec.harness.name", p, str),
        "harness_kind": _field(doc, "spec.harness.kind", p, str, required=False),
        "harness_version": _field(doc, "spec.harness.version", p, str, required=False),
        "mode": _field(doc, "spec.mode.name", p, str),
        "channels": ",".join(map(str, channels)) if channels else None,
        "protocol": _field(doc, "spec.protocol.name", p, str),
        "protocol_rounds": _field(doc, "spec.protocol.rounds", p, int, required=False),
        "seed": _field(doc, "spec.seed", p, int),
        "status": verdict.status.value if verdict else "incomplete",
        "ledger_status": run_end.status if run_end else None,
        "complete": ledger.complete,
        "ledger_problems": list(ledger.problems),
        "verdict_error": verdict.error if verdict else None,
        "n_rounds": len(verdict.rounds) if verdict else None,
        "passed": verdict.passed if verdict else None,
        "f2p_pass": verdict.f2p_pass if verdict else None,
        "f2p_step": verdict.f2p_step if verdict else None,
        "p2p_pass": verdict.p2p_pass if verdict else None,
        "p2p_step": verdict.p2p_step if verdict else None,
        "f2p_test_share": last.f2p_test_share if last else None,
        "wall_time_s": wall_time_s,
        "agent_time_s": verdict.agent_time_s if verdict else None,
        "tests_time_s": verdict.tests_time_s if verdict else None,
        "n_events": len(events) + 1,
        "n_model_calls": len(model_calls),
        "n_tool_calls": len(tool_calls),
        "n_gui_tool_calls": sum(1 for e in tool_calls if e.channel == "gui"),
        "n_errors": sum(1 for e in events if isinstance(e, ErrorEvent)),
        "tokens_in": sum(e.tokens_in for e in model_calls),
        "tokens_out": sum(e.tokens_out for e in model_calls),
        "tokens_cached": sum(e.tokens_cached for e in model_calls),
        "cost_usd": sum(e.cost_usd for e in model_calls),
        "permission_mode": session.permission_mode if session else None,
        "n_tool_pools": sum(1 for e in events if isinstance(e, ToolPoolEvent)),
        "fidelity": _fidelity(verdict, fidelity),
        "fidelity_ok": _fidelity_ok(fidelity),
        "error_type": _error_type(verdict, events),
        "tampered": verdict.tampered if verdict else None,
        "n_interventions": sum(1 for e in events if isinstance(e, InterventionEvent)),
        "n_snapshots": sum(1 for e in events if isinstance(e, SnapshotEvent)),
        "started_at": started_at,
        "ended_at": ended_at,
        "graded_at": verdict.graded_at if verdict else None,
        "realcli_version": header.realcli_version,
        "git_sha": header.git_sha,
        "run_dir": str(run_dir),
        "spec_json": json.dumps(doc, sort_keys=True),
        "ingest_digest": digest,
        "ingested_at": ingested_at,
    }


def _fidelity(verdict: Verdict | None, checks: list[FidelityEvent]) -> str | None:
    """ok | mismatch | not_applicable (a session never started); None: no native log."""
    if verdict is not None and verdict.fidelity is not None:
        return verdict.fidelity
    if any(not f.applicable for f in checks):
        return "not_applicable"
    return ("ok" if all(f.ok for f in checks) else "mismatch") if checks else None


def _fidelity_ok(checks: list[FidelityEvent]) -> bool | None:
    """Every check held; None when there is none or one does not apply (never ok)."""
    if not checks or any(not f.applicable for f in checks):
        return None
    return all(f.ok for f in checks)


def _error_type(verdict: Verdict | None, events: Sequence[Any]) -> str | None:
    """The typed reason of a non-graded verdict (from the ledger for older verdicts)."""
    if verdict is None or verdict.status == "graded":
        return None
    if verdict.error_type is not None:
        return verdict.error_type.value
    for e in events:
        if isinstance(e, ErrorEvent) and (
            e.error_type in INFRA_ERRORS or e.error_type is ErrorType.task_error
        ):
            return e.error_type.value
    return None


def _add_ledger_rows(rows: RunRows, ledger: LedgerContents) -> None:
    key = rows.run_key
    results: dict[str, ToolResultEvent] = {}
    for e in ledger.events:
        if isinstance(e, ToolResultEvent):
            results.setdefault(e.call_id, e)
    for e in [ledger.header, *ledger.events]:
        rows.events.append(
            {
                "run_key": key,
                "seq": e.seq,
                "kind": e.kind,
                "ts": e.ts,
                "payload": _payload(e),
            }
        )
        if isinstance(e, ModelCallEvent):
            rows.model_calls.append(
                {"run_key": key, "seq": e.seq, "ts": e.ts}
                | {name: getattr(e, name) for name in _MODEL_CALL_FIELDS}
                | {
                    "tools_offered": list(e.tools_offered),
                    "tools_digest": e.tools_digest or None,
                    "system_digest": e.system_digest or None,
                }
            )
        elif isinstance(e, SessionEvent | ToolPoolEvent | FidelityEvent):
            table = {"session": rows.sessions, "tool_pool": rows.tool_pools}.get(
                e.kind, rows.fidelity
            )
            row = e.model_dump(mode="json", exclude={"kind", "ts"})
            table.append({"run_key": key, **row})
        elif isinstance(e, InterventionEvent | SnapshotEvent):
            table = rows.interventions if e.kind == "intervention" else rows.snapshots
            table.append({"run_key": key, **e.model_dump(exclude={"kind"})})
        elif isinstance(e, ToolCallEvent):
            res = results.get(e.call_id)
            rows.tool_calls.append(
                {
                    "run_key": key,
                    "seq": e.seq,
                    "ts": e.ts,
                    "call_id": e.call_id,
                    "name": e.name,
                    "raw_name": e.raw_name,
                    "channel": e.channel.value,
                    "atomic_op": e.atomic_op,
                    "result_seq": res.seq if res else None,
                    "ok": res.ok if res else None,
                    "exit_code": res.exit_code if res else None,
                    "duration_ms": res.duration_ms if res else None,
                    "n_touched_files": len(res.touched_files) if res else None,
                }
            )


_PAYLOAD_EXCLUDE = frozenset({"seq", "kind", "ts"})
_TOO_DEEP = {"realcli_note": "nested too deep to store here; the ledger line has it whole"}


def _payload(e: Any) -> str:
    """The event without seq, kind and ts as JSON text. A free-form field nested deeper than
    the serializer goes (an agent's tool-call ``args`` of a few hundred levels) is replaced by
    a note instead of costing the run its folder."""
    try:
        return e.model_dump_json(exclude=_PAYLOAD_EXCLUDE)
    except (ValueError, RecursionError):
        safe: dict[str, Any] = {}
        for name in type(e).model_fields:
            if name in _PAYLOAD_EXCLUDE:
                continue
            try:
                value = e.model_dump(mode="json", include={name})[name]
                json.dumps(value)
            except (ValueError, RecursionError):
                value = _TOO_DEEP
            safe[name] = value
        return json.dumps(safe)


def _add_verdict_rows(rows: RunRows, verdict: Verdict) -> None:
    key = rows.run_key
    for r in verdict.rounds:
        rows.rounds.append(
            {
                "run_key": key,
                "round": r.round,
                "passed": r.passed,
                "f2p_total": r.f2p.total,
                "f2p_passed": r.f2p.passed,
                "f2p_pass": r.f2p.all_passed,
                "f2p_step": r.f2p.step_score,
                "p2p_total": r.p2p.total if r.p2p else None,  # None: no P2P set
                "p2p_passed": r.p2p.passed if r.p2p else None,
                "p2p_pass": r.p2p.all_passed if r.p2p else None,
                "p2p_step": r.p2p.step_score if r.p2p else None,
                "f2p_test_share": r.f2p_test_share,
                "tampered_reasons": list(r.tampered),
            }
        )
        for t in r.tests:
            rows.test_results.append(
                {
                    "run_key": key,
                    "round": r.round,
                    "test_set": t.test_set,
                    "nodeid": t.nodeid,
                    "outcome": t.outcome.value,
                    "duration_s": t.duration_s,
                    "message": t.message,
                    "tampered": t.tampered,
                }
            )
        for s in r.substeps:
            rows.substep_results.append(
                {
                    "run_key": key,
                    "round": r.round,
                    "substep_id": s.id,
                    "passed": s.passed,
                    "weight": s.weight,
                    "tests_passed": s.tests_passed,
                    "tests_total": s.tests_total,
                }
            )
