"""The ``runs`` row of one run: the recorded spec (``spec.json``), the ledger's counts and
times, and the verdict's scores."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from realcli.ledger import LedgerContents
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
)
from realcli.schema.run_record import RunRecord
from realcli.schema.verdict import Verdict

__all__ = ["run_row"]


def run_row(
    run_dir: Path,
    record: RunRecord,
    doc: dict[str, Any],
    ledger: LedgerContents,
    verdict: Verdict | None,
    digest: str,
    ingested_at: datetime,
) -> dict[str, Any]:
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
    task, spec = record.task, record.spec
    channels = spec.mode.channels
    return {
        "run_key": record.run_key,
        "experiment": record.experiment,
        "task_id": task.id,
        "task_version": task.version,
        "task_category": task.category,
        "task_kind": task.kind,
        "task_digest": task.digest,
        "model": spec.model.name,
        "model_backend": spec.model.backend,
        "model_id": spec.model.model_id,
        "harness": spec.harness.name,
        "harness_kind": spec.harness.kind,
        "harness_version": spec.harness.version,
        "mode": spec.mode.name,
        "channels": ",".join(channels) if channels else None,
        "protocol": spec.protocol.name,
        "protocol_rounds": spec.protocol.rounds,
        "seed": spec.seed,
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
