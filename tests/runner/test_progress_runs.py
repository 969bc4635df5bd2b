"""Acceptance: progress over time for real runs. A replay run's snapshots, replayed by
bisection, give each sub-step's first-pass step exactly where the reference completes it (in
the reference order); a planted regression (a later step that breaks an earlier sub-step) is
found."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from realcli.catalog import load_task
from realcli.ledger import read_ledger
from realcli.schema.progress import ProgressReport
from tests.conftest import TASKS, env_for, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

TASK = "smoke-bugfix-intervals"


def _reference() -> list[dict[str, Any]]:
    root = TASKS / TASK
    lines = (root / "solution" / "trajectory.jsonl").read_text().splitlines()
    actions = [json.loads(line) for line in lines if line.strip()]
    for a in actions:
        if a.get("content_from"):
            a["content"] = (root / "solution" / a.pop("content_from")).read_text()
    return actions


def _completion_steps(actions: list[dict[str, Any]]) -> dict[str, int]:
    """Sub-step -> the tool-call number (1-based) of the last action tagged with it."""
    steps: dict[str, int] = {}
    n = 0
    for a in actions:
        if a["action"] == "message":
            continue
        n += 1
        if a.get("substep"):
            steps[a["substep"]] = n
    return steps


def _progress(tmp: Path) -> tuple[ProgressReport, Path]:
    (path,) = (tmp / "runs").glob("*/*/progress.json")
    return ProgressReport.model_validate_json(path.read_text()), path.parent


def test_replay_run_first_pass_steps_follow_the_reference(tmp_path: Path, cache_dir: Path) -> None:
    env = env_for(tmp_path, cache_dir)
    args = ["run", f"task={TASK}", "progress.replay=true", "progress.grid=2"]
    proc = run_realcli(args, env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report, run_dir = _progress(tmp_path)
    expected = _completion_steps(_reference())
    substeps = sorted(
        (g for g in report.goals if g.kind == "substep"), key=lambda g: g.reference_order or 0
    )
    assert {g.goal: g.first_pass_step for g in substeps} == expected
    firsts = [g.first_pass_step or 0 for g in substeps]
    assert firsts == sorted(firsts)  # completed in the reference order
    assert all(g.final and not g.broke_at for g in report.goals)  # nothing regressed
    assert report.method == "bisection" and len(report.evaluations) < report.n_snapshots
    # every snapshot event restores the workspace the model call saw
    snaps = [e for e in read_ledger(run_dir / "ledger.jsonl").events if e.kind == "snapshot"]
    assert snaps[0].step == 0 and len(snaps) == report.n_snapshots
    assert [s.step for s in snaps] == sorted(s.step for s in snaps)


def test_planted_regression_is_found(tmp_path: Path, cache_dir: Path) -> None:
    actions = _reference()
    fix = next(a for a in actions if a.get("substep") == "s1" and a["action"] == "edit")
    undo = {"action": "edit", "path": fix["path"], "old": fix["new"], "new": fix["old"]}
    final = actions[-1] if actions[-1]["action"] == "message" else None
    body = actions[:-1] if final else actions
    script = [*body, undo, {"action": "shell", "cmd": "true"}, *([final] if final else [])]
    path = tmp_path / "regress.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in script))
    env = env_for(tmp_path, cache_dir)
    args = ["run", f"task={TASK}", "model=scripted", f"model.script={path}"]
    proc = run_realcli([*args, "progress.replay=true"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report, _ = _progress(tmp_path)
    goals = {g.goal: g for g in report.goals}
    broken_at = sum(a["action"] != "message" for a in body) + 1  # the undo's tool call
    assert goals["s1"].first_pass_step == _completion_steps(body)["s1"]
    assert goals["s1"].broke_at == (broken_at,) and not goals["s1"].final
    for other in ("s2", "s3", "s4"):  # only the planted regression
        assert goals[other].final and not goals[other].broke_at, other
    task = load_task(TASKS / TASK)
    assert {g.goal for g in report.goals if g.kind == "substep"} == {
        s.id for s in task.spec.substeps
    }
