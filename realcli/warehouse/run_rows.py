"""The rows of one run, keyed by warehouse table (filled by :mod:`realcli.warehouse.run_folder`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from realcli.warehouse.problems import Problem
from realcli.warehouse.tool_facts import TOOL_FACT_TABLES

__all__ = ["RunRows"]


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
