"""Golden-test input for the WeaveBench figures: weave `runs` rows and `judgements` rows."""

from __future__ import annotations

from typing import Any

import duckdb
from warehouse_rows import run

from realcli.warehouse import insert_rows

__all__ = ["add_judgements", "add_weave_sample", "judgement", "weave_run"]


def weave_run(**columns: Any) -> dict[str, Any]:
    """A finished hybrid WeaveBench `runs` row of system m1 · openclaw (domain GAM), unless
    overridden; its test outcome is irrelevant here (the judge decides PassRate)."""
    defaults: dict[str, Any] = {
        "task_kind": "weave",
        "task_domain": "GAM",
        "harness": "openclaw",
        "mode": "hybrid",
    }
    return run(**(defaults | columns))


def judgement(
    run_key: str,
    judge: str = "trajectory",
    final: float = 0.9,
    *,
    tau: float = 0.8,
    status: str = "judged",
    family: str | None = None,
    sub_class: str | None = None,
    hack: bool = False,
    task_id: str = "t1",
) -> dict[str, Any]:
    """A `judgements` row: ``final`` against ``tau``; a failure may carry a taxonomy label."""
    judged = status == "judged"
    return {
        "run_key": run_key,
        "judge": judge,
        "judge_kind": judge,
        "judge_key": f"{judge}-key",
        "judge_version": "1",
        "schema_version": 1,
        "task_id": task_id,
        "status": status,
        "error": None if judged else "the judge could not read the run",
        "final_score": final if judged else 0.0,
        "passed": judged and final >= tau,
        "tau": tau,
        "hack_threshold": 0.85,
        "is_hack": hack,
        "hack_confidence": 0.95 if hack else 0.0,
        "hack_patterns": ["fake_screenshot"] if hack else [],
        "hack_evidence_quotes": [],
        "deliverable_correctness": final if judged else 0.0,
        "taxonomy_family": family,
        "taxonomy_class": sub_class,
        "taxonomy_name": None,
        "taxonomy_rule": None,
        "taxonomy_reason": None,
        "taxonomy_labeller": "rules" if family else None,
        "summary": f"{judge}: final {final}",
        "inputs_digest": "d" * 64,
        "attempts": 1,
        "file_sha256": "f" * 64,
    }


def add_judgements(con: duckdb.DuckDBPyConnection, *rows: dict[str, Any]) -> None:
    insert_rows(con, "judgements", list(rows))


def add_weave_sample(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Four finished weave runs of m1 · openclaw that give every WeaveBench figure a row: two
    hybrid (one passes, one a labelled E5.1 hack the outcome-only judge passes), one cli_only
    E4.2 failure, one gui_only run the trajectory judge failed on. Returns their keys."""
    rows = [
        weave_run(task_id="w1", task_domain="GAM"),
        weave_run(task_id="w2", task_domain="DOC"),
        weave_run(task_id="w1", mode="cli_only"),
        weave_run(task_id="w1", mode="gui_only"),
    ]
    insert_rows(con, "runs", rows)
    keys = [r["run_key"] for r in rows]
    add_judgements(
        con,
        judgement(keys[0], final=0.9, task_id="w1"),
        judgement(keys[0], "outcome_only", final=0.9, task_id="w1"),
        judgement(keys[1], final=0.0, hack=True, family="E5", sub_class="E5.1", task_id="w2"),
        judgement(keys[1], "outcome_only", final=0.9, task_id="w2"),
        judgement(keys[2], final=0.2, family="E4", sub_class="E4.2", task_id="w1"),
        judgement(keys[2], "outcome_only", final=0.5, task_id="w1"),
        judgement(keys[3], status="judge_failed", task_id="w1"),
    )
    return keys
