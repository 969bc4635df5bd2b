"""Acceptance: the LongCLI protocols as experiment conditions (self-correction, plan,
interactive guidance, a simulated user), run for real through the builtin harness.

The agent is a scripted backend built from a task's reference trajectory: it completes the
first half of the sub-steps and ends its turn (``end_turn``); it goes on with the rest only
when realcli talks back (test feedback, guidance), exactly like an agent that stops early.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from realcli.catalog import load_task
from realcli.ledger import read_ledger
from realcli.schema.verdict import Verdict
from tests.conftest import TASKS, env_for, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

TASK = "smoke-bugfix-intervals"


def _inline(action: dict[str, Any], root: Path) -> dict[str, Any]:
    if action.get("content_from"):
        action = dict(action)
        action["content"] = (root / "solution" / action.pop("content_from")).read_text()
    return action


def half_script(
    path: Path, *, stop_after: str | None, before: tuple[dict[str, Any], ...] = ()
) -> Path:
    """``before``, then the task's reference with an ``end_turn`` after the last action of
    ``stop_after`` (None: right after ``before``)."""
    root = TASKS / TASK
    actions = [
        _inline(json.loads(line), root)
        for line in (root / "solution" / "trajectory.jsonl").read_text().splitlines()
        if line.strip()
    ]
    last = (
        max(i for i, a in enumerate(actions) if a.get("substep") == stop_after)
        if stop_after
        else -1
    )
    stop = {"action": "message", "text": "I fixed the first reported bugs.", "end_turn": True}
    script = [*before, *actions[: last + 1], stop, *actions[last + 1 :]]
    path.write_text("".join(json.dumps(a) + "\n" for a in script))
    return path


def _runs(runs: Path) -> dict[str, tuple[Verdict, Path]]:
    out = {}
    for verdict in sorted(runs.glob("*/*/verdict.json")):
        spec = json.loads((verdict.parent / "spec.json").read_text())["spec"]
        out[spec["protocol"]["name"]] = (
            Verdict.model_validate_json(verdict.read_text()),
            verdict.parent,
        )
    return out


def _events(run_dir: Path, kind: str) -> list[Any]:
    return [e for e in read_ledger(run_dir / "ledger.jsonl").events if e.kind == kind]


def test_half_done_agent_scores_half_and_self_correction_finishes_it(
    tmp_path: Path, cache_dir: Path
) -> None:
    script = half_script(tmp_path / "half.jsonl", stop_after="s2")
    env = env_for(tmp_path, cache_dir)
    args = [
        "run",
        "--multirun",
        f"task={TASK}",
        "model=scripted",
        f"model.script={script}",
        "protocol=autonomous,self_correct",
        "experiment_name=protocols",
    ]
    proc = run_realcli(args, env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    runs = _runs(tmp_path / "runs")
    auto, _auto_dir = runs["autonomous"]
    assert auto.f2p_step == pytest.approx(0.5) and not auto.passed  # half the sub-steps
    assert [r.round for r in auto.rounds] == [1]

    fixed, run_dir = runs["self_correct"]
    steps = [r.f2p.step_score for r in fixed.rounds]
    assert steps == [pytest.approx(0.5), 1.0, 1.0]
    assert [r.passed for r in fixed.rounds] == [False, True, True] and fixed.passed
    (feedback,) = _events(run_dir, "intervention")
    assert feedback.type == "feedback" and feedback.trigger == "round_end"
    assert feedback.round == 2 and feedback.source == "tests" and feedback.delivery == "resume"
    assert "feedback after round 1" in feedback.text and "s3" in feedback.text
    # the builtin agent resumed its own conversation: one session per agent round
    ends = {e.round: e.reason for e in _events(run_dir, "round_end")}
    assert ends == {1: "done", 2: "done", 3: "passed_earlier"}
    assert (run_dir / "native" / "builtin_agent.2.jsonl").is_file()
    starts = [
        json.loads(line)
        for name in ("builtin_agent.jsonl", "builtin_agent.2.jsonl")
        for line in (run_dir / "native" / name).read_text().splitlines()
        if '"session_start"' in line
    ]
    assert [s["resumed"] for s in starts] == [False, True]
    # hidden tests never stay in the workspace between rounds
    assert not list((run_dir / "workspace").rglob(".realcli_tests"))

    # the warehouse: protocol is a column, per-round deltas are there
    assert run_realcli(["ingest"], env, tmp_path).returncode == 0
    import duckdb

    con = duckdb.connect(str(tmp_path / "warehouse.duckdb"), read_only=True)
    protocols = dict(con.sql("select protocol, f2p_step from runs").fetchall())
    assert protocols == {"autonomous": pytest.approx(0.5), "self_correct": 1.0}
    deltas = con.sql(
        "select from_round, to_round, f2p_step_delta, passed_delta from fct_round_deltas "
        "where protocol = 'self_correct' order by 1, 2"
    ).fetchall()
    assert [(a, b) for a, b, *_ in deltas] == [(1, 2), (1, 3), (2, 3)]
    assert deltas[0][2] == pytest.approx(0.5) and deltas[2][2] == pytest.approx(0.0)
    report = run_realcli(["report"], env, tmp_path)
    assert report.returncode == 0, report.stderr[-2000:]
    assert (tmp_path / "report" / "self_correction.png").is_file()
    rows = {
        r["row"]: r for r in csv.DictReader((tmp_path / "report" / "self_correction.csv").open())
    }
    assert float(rows["T1"]["f2p_step_pct"]) == pytest.approx(50.0)
    assert float(rows["Δ T1→T2"]["pass_pct"]) == pytest.approx(100.0)
    assert float(rows["Δ T1→T2"]["f2p_step_pct"]) == pytest.approx(50.0)
    assert float(rows["Δ T2→T3"]["pass_pct"]) == pytest.approx(0.0)


def test_plan_protocol_puts_the_reference_plan_in_the_prompt(
    tmp_path: Path, cache_dir: Path
) -> None:
    env = env_for(tmp_path, cache_dir)
    proc = run_realcli(["run", f"task={TASK}", "protocol=plan"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (verdict, run_dir) = _runs(tmp_path / "runs")["plan"]
    assert verdict.passed
    (plan,) = _events(run_dir, "intervention")
    assert plan.type == "plan" and plan.delivery == "prompt" and plan.round == 1
    first = _events(run_dir, "message")[0]
    assert first.role == "user" and "## Plan" in first.text and plan.text in first.text
    task = load_task(TASKS / TASK)
    for sub in task.spec.substeps:  # built from the sub-steps (this task has no plan.md)
        assert sub.title in plan.text


def test_interactive_guidance_when_the_agent_stops_with_failing_tests(
    tmp_path: Path, cache_dir: Path
) -> None:
    script = half_script(tmp_path / "half.jsonl", stop_after="s2")
    env = env_for(tmp_path, cache_dir)
    args = ["run", f"task={TASK}", "model=scripted", f"model.script={script}"]
    proc = run_realcli([*args, "protocol=interactive"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    verdict, run_dir = _runs(tmp_path / "runs")["interactive"]
    assert verdict.passed and [r.round for r in verdict.rounds] == [1]  # within one round
    (guidance,) = _events(run_dir, "intervention")
    assert guidance.type == "guidance" and guidance.trigger == "agent_stopped"
    assert guidance.substep == "s3" and guidance.delivery == "resume"
    assert guidance.budget_left == 2 and guidance.source == "substep_title"
    task = load_task(TASKS / TASK)
    assert next(s.title for s in task.spec.substeps if s.id == "s3") in guidance.text
    assert (run_dir / "probes" / "round-1.f2p.log").is_file()  # the probe that chose it


def test_stall_guidance_is_injected_mid_session_and_budgeted(
    tmp_path: Path, cache_dir: Path
) -> None:
    """Eight tool calls without a file change: the gateway adds guidance to the agent's
    conversation mid-session; the scripted agent then moves on to its next turn's actions."""
    idle = ({"action": "read", "path": "intervals/core.py"},) * 8
    idle += ({"action": "shell", "cmd": "sleep 0.5"},) * 40  # time for the probe to finish
    script = half_script(tmp_path / "stall.jsonl", stop_after=None, before=idle)
    env = env_for(tmp_path, cache_dir)
    args = ["run", f"task={TASK}", "model=scripted", f"model.script={script}"]
    proc = run_realcli(
        [*args, "protocol=interactive", "protocol.guidance.triggers=[stall]"], env, tmp_path
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    verdict, run_dir = _runs(tmp_path / "runs")["interactive"]
    given = _events(run_dir, "intervention")
    assert 1 <= len(given) <= 3  # the budget
    assert all(g.trigger == "stall" and g.delivery == "inject" for g in given)
    assert [g.budget_left for g in given] == list(range(2, 2 - len(given), -1))
    guidance = given[0]
    assert guidance.substep == "s1"
    calls = _events(run_dir, "tool_call")
    assert 1 <= len([c for c in calls if c.args.get("cmd") == "sleep 0.5"]) < 40
    assert len(_events(run_dir, "session")) == 1  # the same session went on
    # after the guidance the agent did its second turn (the whole fix) and passed
    assert verdict.passed
    edits = [c for c in calls if c.name == "edit_file"]
    assert edits and guidance.seq < edits[0].seq  # the fix came after the guidance


def test_simulated_user_writes_the_guidance(tmp_path: Path, cache_dir: Path) -> None:
    script = half_script(tmp_path / "half.jsonl", stop_after="s2")
    user = tmp_path / "user.jsonl"
    said = "Thanks! Next please make total_length and gaps give correct results."
    user.write_text(json.dumps({"action": "message", "text": said}) + "\n")
    env = env_for(tmp_path, cache_dir)
    args = [
        "run",
        f"task={TASK}",
        "model=scripted",
        f"model.script={script}",
        "protocol=simulated_user",
        "protocol.guidance.user_model.backend=scripted",
        f"protocol.guidance.user_model.script={user}",
    ]
    proc = run_realcli(args, env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    verdict, run_dir = _runs(tmp_path / "runs")["simulated_user"]
    (guidance,) = _events(run_dir, "intervention")
    assert guidance.source == "model:simulated_user" and guidance.text == said
    assert verdict.passed


def test_claude_code_resumes_its_own_session_with_the_feedback(
    tmp_path: Path, cache_dir: Path
) -> None:
    """The real Claude Code CLI (``--resume``): round 2 continues round 1's conversation."""
    from realcli.harness.install import InstallError, agents_dir, find_install

    try:
        find_install("claude_code", agents_dir())
    except InstallError:
        pytest.skip("Claude Code is not installed: realcli agents install claude_code")
    script = half_script(tmp_path / "half.jsonl", stop_after="s2")
    env = env_for(tmp_path, cache_dir)
    args = ["run", f"task={TASK}", "model=scripted", f"model.script={script}"]
    proc = run_realcli([*args, "harness=claude_code", "protocol=self_correct"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    verdict, run_dir = _runs(tmp_path / "runs")["self_correct"]
    assert [r.passed for r in verdict.rounds] == [False, True, True]
    (feedback,) = _events(run_dir, "intervention")
    assert feedback.delivery == "resume"
    sessions = _events(run_dir, "session")
    assert len(sessions) == 2 and "--resume" in sessions[1].argv
    assert "--resume" not in sessions[0].argv
    fidelity = _events(run_dir, "fidelity")
    assert len(fidelity) == 2 and all(f.ok for f in fidelity), [f.problems for f in fidelity]
    assert (run_dir / "native" / "claude_code" / "session-2" / "stdout.jsonl").is_file()
