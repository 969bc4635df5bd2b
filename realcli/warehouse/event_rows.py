"""Rows from the ledger's events (``events``, ``model_calls``, ``tool_calls``, ``sessions``...)
and from the verdict's rounds (``rounds``, ``test_results``, ``substep_results``)."""

from __future__ import annotations

import json
from typing import Any

from realcli.ledger import LedgerContents
from realcli.schema.events import (
    FidelityEvent,
    InterventionEvent,
    ModelCallEvent,
    SessionEvent,
    SnapshotEvent,
    ToolCallEvent,
    ToolPoolEvent,
    ToolResultEvent,
)
from realcli.schema.verdict import Verdict
from realcli.warehouse.run_rows import RunRows

__all__ = ["add_ledger_rows", "add_verdict_rows"]

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


def add_ledger_rows(rows: RunRows, ledger: LedgerContents) -> None:
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


def add_verdict_rows(rows: RunRows, verdict: Verdict) -> None:
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
