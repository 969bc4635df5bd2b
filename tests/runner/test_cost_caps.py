"""Acceptance: cost caps end a run with a typed ``cost_cap`` error event; the sweep goes on.

Prices come from ``model.pricing`` (USD per million tokens); the replay backend's token
counts are deterministic, so a price of $1000/Mtok makes every call cost a few cents.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from realcli.ledger import read_ledger
from realcli.schema.events import ErrorType
from realcli.schema.verdict import Verdict
from tests.conftest import env_for, run_lines, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

PRICE = ["model.pricing.input_per_mtok=1000", "model.pricing.output_per_mtok=4000"]


def _runs(runs: Path) -> list[tuple[Verdict, list[object]]]:
    out = []
    for verdict in sorted(runs.glob("*/*/verdict.json")):
        events = read_ledger(verdict.parent / "ledger.jsonl").events
        out.append((Verdict.model_validate_json(verdict.read_text()), events))
    return out


def _cost_cap_errors(events: list[object]) -> list[object]:
    return [e for e in events if e.kind == "error" and e.error_type == ErrorType.cost_cap]  # type: ignore[attr-defined]


def test_run_cap_ends_the_run_and_the_sweep_goes_on(tmp_path: Path, cache_dir: Path) -> None:
    env = env_for(tmp_path, cache_dir)
    args = ["run", "--multirun", "task=smoke-bugfix-intervals", "budget.run_usd=0.05,null"]
    proc = run_realcli([*args, *PRICE, "experiment_name=caps"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    runs = _runs(tmp_path / "runs")
    assert len(runs) == 2, proc.stdout
    capped = [(v, ev) for v, ev in runs if _cost_cap_errors(ev)]
    free = [(v, ev) for v, ev in runs if not _cost_cap_errors(ev)]
    assert len(capped) == 1 and len(free) == 1
    verdict, events = capped[0]
    assert verdict.status.value == "graded" and not verdict.passed  # the agent's failure
    (error,) = _cost_cap_errors(events)
    assert "budget.run_usd" in error.message  # type: ignore[attr-defined]
    calls = [e for e in events if e.kind == "model_call"]
    refused = [c for c in calls if c.finish_reason == "cost_cap"]  # type: ignore[attr-defined]
    assert refused and all(c.status == 400 for c in refused)  # type: ignore[attr-defined]
    spent = sum(c.cost_usd for c in calls)  # type: ignore[attr-defined]
    answered = [c for c in calls if c.status == 200]  # type: ignore[attr-defined]
    # the cap is checked before each call: it may be overshot by the call that crossed it
    assert spent >= 0.05 and spent - answered[-1].cost_usd < 0.05  # type: ignore[attr-defined]
    budget = next(e for e in events if e.kind == "budget")
    assert budget.cost_usd == pytest.approx(spent)  # type: ignore[attr-defined]
    assert free[0][0].passed  # the uncapped run of the same sweep finished normally


def test_sweep_cap_spans_runs_and_survives_a_resume(tmp_path: Path, cache_dir: Path) -> None:
    env = env_for(tmp_path, cache_dir)
    args = [
        "run",
        "--multirun",
        "seed=1,2,3",
        "task=smoke-bugfix-intervals",
        "budget.sweep_usd=0.1",
    ]
    proc = run_realcli([*args, *PRICE, "experiment_name=sweepcap"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    runs = _runs(tmp_path / "runs")
    assert len(runs) == 3
    capped = [v for v, ev in runs if _cost_cap_errors(ev)]
    assert capped, "the sweep cap never tripped"
    spend = json.loads((tmp_path / "runs" / "sweepcap" / ".spend.json").read_text())
    assert spend["usd"] >= 0.1
    # A resumed sweep keeps its spend: nothing is rerun, nothing more is spent.
    again = run_realcli([*args, *PRICE, "experiment_name=sweepcap"], env, tmp_path)
    assert again.returncode == 0 and run_lines(again.stdout, "skipped") == 3, again.stdout
    assert json.loads((tmp_path / "runs" / "sweepcap" / ".spend.json").read_text()) == spend
