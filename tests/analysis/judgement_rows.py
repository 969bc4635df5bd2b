"""Golden-test input: `judgements` rows (one judge's verdict on one run) inserted directly."""

from __future__ import annotations

from typing import Any

import duckdb

from realcli.warehouse import insert_rows

__all__ = ["add_judgements", "judgement"]


def judgement(run_key: str, judge: str, *, passed: bool, **columns: Any) -> dict[str, Any]:
    """A `judgements` row: ``judge`` judged ``run_key`` (final score 1.0 if passed, else 0.2)."""
    row: dict[str, Any] = {
        "run_key": run_key,
        "judge": judge,
        "judge_kind": judge,
        "judge_key": f"{judge}-key",
        "judge_version": "1",
        "schema_version": 1,
        "task_id": "t1",
        "status": "judged",
        "final_score": 1.0 if passed else 0.2,
        "passed": passed,
        "tau": 0.8,
        "hack_threshold": 0.5,
        "is_hack": False,
        "hack_confidence": 0.0,
        "hack_patterns": [],
        "hack_evidence_quotes": [],
        "deliverable_correctness": 1.0 if passed else 0.2,
        "summary": "",
        "inputs_digest": "d",
        "attempts": 1,
        "file_sha256": "0" * 64,
    }
    row.update(columns)
    return row


def add_judgements(con: duckdb.DuckDBPyConnection, *rows: dict[str, Any]) -> None:
    insert_rows(con, "judgements", list(rows))
