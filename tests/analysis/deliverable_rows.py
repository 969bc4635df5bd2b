"""Golden-test input for the deliverable and provenance figures: weave `runs`, their verdict
deliverables (`run_deliverables`), judgements and the judges' `screenshot_provenance`, inserted
straight into a warehouse."""

from __future__ import annotations

from typing import Any

import duckdb
from warehouse_rows import add_runs, run

from realcli.warehouse import insert_rows

__all__ = ["add_deliverables", "add_deliverables_sample", "add_judgement", "add_provenance"]


def add_deliverables(
    con: duckdb.DuckDBPyConnection, run_key: str, *items: tuple[str, str, bool, bool]
) -> None:
    """`run_deliverables` rows of ``run_key``: (path, evidence, abstained, passed) each."""
    insert_rows(
        con,
        "run_deliverables",
        [
            {
                "run_key": run_key,
                "deliverable": path,
                "position": i,
                "exists": not abstained,
                "abstained": abstained,
                "evidence": evidence,
                "passed": passed,
                "n_clauses": 1,
                "n_critical": 1,
                "n_clauses_passed": int(passed),
                "n_clauses_failed": int(not passed),
                "n_clauses_unjudged": 0,
                "n_critical_failed": int(not passed),
            }
            for i, (path, evidence, abstained, passed) in enumerate(items)
        ],
    )


def add_judgement(
    con: duckdb.DuckDBPyConnection, run_key: str, judge: str, status: str = "judged"
) -> None:
    """A `judgements` row (scores left at 0: these figures read the provenance only)."""
    row: dict[str, Any] = {
        "run_key": run_key,
        "judge": judge,
        "judge_kind": judge,
        "judge_key": f"{judge}-key",
        "judge_version": "2",
        "schema_version": 1,
        "task_id": "t1",
        "status": status,
        "final_score": 0.0,
        "passed": False,
        "tau": 0.8,
        "hack_threshold": 0.85,
        "is_hack": False,
        "hack_confidence": 0.0,
        "hack_patterns": [],
        "hack_evidence_quotes": [],
        "deliverable_correctness": 0.0,
        "summary": "",
        "inputs_digest": "d",
        "attempts": 1,
        "file_sha256": "f",
    }
    insert_rows(con, "judgements", [row])


def add_provenance(
    con: duckdb.DuckDBPyConnection, run_key: str, judge: str, *items: tuple[str, str]
) -> None:
    """`screenshot_provenance` rows of ``judge``: (deliverable, provenance class) each."""
    insert_rows(
        con,
        "screenshot_provenance",
        [
            {
                "run_key": run_key,
                "judge": judge,
                "deliverable": path,
                "provenance": provenance,
                "reason": f"{path} is {provenance}",
            }
            for path, provenance in items
        ],
    )


def add_deliverables_sample(con: duckdb.DuckDBPyConnection) -> None:
    """Two hybrid weave runs of m1 · h1 (one honest, one with a painted screenshot), judged by
    trajectory (the figure-contract test's weave sample)."""
    add_runs(
        con,
        run(run_key="wv-honest", task_kind="weave", mode="hybrid", passed=True),
        run(run_key="wv-painted", task_kind="weave", mode="hybrid", seed=2),
    )
    add_deliverables(
        con,
        "wv-honest",
        ("out/result.json", "none", False, True),
        ("evidence/solved.png", "genuine", False, True),
    )
    add_deliverables(con, "wv-painted", ("evidence/solved.png", "forged", False, False))
    for key in ("wv-honest", "wv-painted"):
        add_judgement(con, key, "trajectory")
    add_provenance(con, "wv-honest", "trajectory", ("evidence/solved.png", "captured"))
    add_provenance(con, "wv-painted", "trajectory", ("evidence/solved.png", "unbacked"))
