"""Golden-test input for the goal-maintenance figures: tests per round, ledger events, tool
calls, snapshots and judge clauses inserted straight into a warehouse (see warehouse_rows)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import duckdb

from realcli.warehouse import insert_rows

__all__ = [
    "add_clauses",
    "add_events",
    "add_judgement",
    "add_snapshot",
    "add_tests",
    "add_tool_call",
    "ending",
]

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def add_tests(
    con: duckdb.DuckDBPyConnection, run_key: str, test_set: str, nodeid: str, *passed: bool
) -> None:
    """`test_results` rows of one test in rounds 1, 2, …: passed or failed in each."""
    insert_rows(
        con,
        "test_results",
        [
            {
                "run_key": run_key,
                "round": i,
                "test_set": test_set,
                "nodeid": nodeid,
                "outcome": "passed" if ok else "failed",
                "duration_s": 0.1,
                "message": "",
            }
            for i, ok in enumerate(passed, start=1)
        ],
    )


def add_events(
    con: duckdb.DuckDBPyConnection, run_key: str, *events: tuple[int, str, dict[str, Any]]
) -> None:
    """`events` rows (seq, kind, payload)."""
    insert_rows(
        con,
        "events",
        [
            {"run_key": run_key, "seq": seq, "kind": kind, "ts": T0, "payload": json.dumps(p)}
            for seq, kind, p in events
        ],
    )


def ending(
    con: duckdb.DuckDBPyConnection, run_key: str, reason: str, message: str | None = None
) -> None:
    """The ledger's end of a one-round run: an assistant message (if any), then round_end."""
    events: list[tuple[int, str, dict[str, Any]]] = [(90, "round_start", {"round": 1})]
    if message is not None:
        events.append((98, "message", {"role": "assistant", "text": message}))
    events.append((99, "round_end", {"round": 1, "reason": reason}))
    add_events(con, run_key, *events)


def add_tool_call(
    con: duckdb.DuckDBPyConnection,
    run_key: str,
    seq: int,
    channel: str,
    atomic_op: str,
    *,
    touched: int = 0,
) -> str:
    """A `tool_calls` row; returns its call id (``c<seq>``)."""
    call_id = f"c{seq}"
    insert_rows(
        con,
        "tool_calls",
        [
            {
                "run_key": run_key,
                "seq": seq,
                "ts": T0,
                "call_id": call_id,
                "name": atomic_op,
                "raw_name": atomic_op,
                "channel": channel,
                "atomic_op": atomic_op,
                "result_seq": seq + 1,
                "ok": True,
                "exit_code": 0,
                "duration_ms": 1.0,
                "n_touched_files": touched,
            }
        ],
    )
    return call_id


def add_snapshot(
    con: duckdb.DuckDBPyConnection, run_key: str, seq: int, call_id: str, changed: int
) -> None:
    insert_rows(
        con,
        "snapshots",
        [
            {
                "run_key": run_key,
                "seq": seq,
                "ts": T0,
                "round": 1,
                "step": seq,
                "call_id": call_id,
                "commit": "0" * 40,
                "tree": "0" * 40,
                "changed_files": changed,
                "duration_ms": 1.0,
            }
        ],
    )


def add_judgement(
    con: duckdb.DuckDBPyConnection, run_key: str, judge: str, *, passed: bool
) -> None:
    """A `judgements` row of ``judge`` (judged; final 0.9 when passed, else 0.3)."""
    score = 0.9 if passed else 0.3
    insert_rows(
        con,
        "judgements",
        [
            {
                "run_key": run_key,
                "judge": judge,
                "judge_kind": judge,
                "judge_key": "k",
                "judge_version": "1",
                "schema_version": 1,
                "task_id": "t1",
                "status": "judged",
                "final_score": score,
                "passed": passed,
                "tau": 0.8,
                "hack_threshold": 0.85,
                "is_hack": False,
                "hack_confidence": 0.0,
                "hack_patterns": [],
                "hack_evidence_quotes": [],
                "deliverable_correctness": score,
                "summary": "",
                "inputs_digest": "d",
                "attempts": 1,
                "file_sha256": "f",
            }
        ],
    )


def add_clauses(
    con: duckdb.DuckDBPyConnection, run_key: str, judge: str, statuses: Sequence[str]
) -> None:
    """`clause_results` rows c1, c2, … of one deliverable, with these statuses."""
    insert_rows(
        con,
        "clause_results",
        [
            {
                "run_key": run_key,
                "judge": judge,
                "deliverable": "out.png",
                "clause_id": f"c{i}",
                "clause_text": "",
                "checker": "x",
                "critical": False,
                "status": status,
                "reason": "",
                "evidence": "[]",
                "evidence_seqs": [],
            }
            for i, status in enumerate(statuses, start=1)
        ],
    )
