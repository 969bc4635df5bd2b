"""Run folder factory (spec.json, ledger.jsonl via LedgerWriter, verdict.json) and raw rows."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb

from realcli.ledger import LedgerWriter
from realcli.schema.events import (
    FidelityEvent,
    GradingEvent,
    HeaderEvent,
    InterventionEvent,
    ModelCallEvent,
    RoundEndEvent,
    RoundStartEvent,
    RunEndEvent,
    ScreenshotEvent,
    SessionEvent,
    SnapshotEvent,
    ToolCallEvent,
    ToolPoolEvent,
    ToolResultEvent,
)
from realcli.schema.progress import GoalProgress, ProgressReport, SnapshotOutcome
from realcli.schema.run_spec import (
    HarnessSpec,
    JudgeSpec,
    ModelSpec,
    ModeSpec,
    PathsSpec,
    ProtocolSpec,
    RunSpec,
    SandboxSpec,
    SuiteSpec,
)
from realcli.schema.verdict import (
    ClauseResult,
    DeliverableResult,
    RoundVerdict,
    SetScore,
    SubStepResult,
    TestOutcome,
    TestResult,
    Verdict,
    VerdictStatus,
)
from realcli.util.hashing import sha256_json
from realcli.util.redact import Redactor
from realcli.warehouse import RUN_TABLES

T0 = datetime(2026, 1, 1, tzinfo=UTC)
MakeRun = Callable[..., Path]
RoundScore = tuple[bool, float, bool]
"""One graded round of a test run folder: (passed, f2p_step, p2p_pass)."""


def write_run(
    runs_dir: Path,
    *,
    experiment: str = "exp",
    task_id: str = "task-a",
    model: str = "replay",
    harness: str = "builtin",
    mode: str = "cli_only",
    protocol: str = "autonomous",
    seed: int = 1,
    passed: bool = True,
    f2p_step: float | None = None,
    p2p_pass: bool = True,
    status: str = "graded",
    verdict: bool = True,
    rounds: int = 1,
    n_tool_calls: int = 2,
    round_scores: Sequence[RoundScore] | None = None,
    interventions: Sequence[dict[str, Any]] = (),
    snapshots: bool = False,
    kind: str = "longcli",
    deliverables: Sequence[DeliverableResult] = (),
    screenshots: Sequence[dict[str, Any]] = (),
) -> Path:
    """Write one real run folder and return it. ``verdict=False``: killed before grading.

    ``kind``: the task kind in spec.json; ``deliverables``: verdict.json's deliverables (a
    hybrid task's); ``screenshots``: ScreenshotEvent fields (without seq/ts, see :func:`shot`),
    emitted after round 1's tool calls.

    ``round_scores``: each round's (passed, f2p_step, p2p_pass), overriding ``rounds``,
    ``passed``, ``f2p_step`` and ``p2p_pass``; ``interventions``: InterventionEvent fields
    (without seq/ts), emitted at the start of their ``round``; ``snapshots``: a snapshot event
    of the initial workspace and one after every tool call.
    """
    if round_scores:
        rounds = len(round_scores)
        passed, f2p_step, p2p_pass = round_scores[-1]
    f2p_step = (1.0 if passed else 0.5) if f2p_step is None else f2p_step
    spec = RunSpec(
        experiment_name=experiment,
        seed=seed,
        model=ModelSpec(name=model, backend="scripted", model_id=f"test/{model}"),
        harness=HarnessSpec(name=harness, kind="builtin", version="1"),
        mode=ModeSpec(name=mode, channels=("cli", "gui") if mode == "hybrid" else ("cli",)),
        protocol=ProtocolSpec(name=protocol, rounds=rounds),
        suite=SuiteSpec(name="smoke"),
        sandbox=SandboxSpec(kind="local"),
        judge=JudgeSpec(name="tests", kind="tests"),
        paths=PathsSpec(
            tasks_dir="tasks",
            runs_dir=str(runs_dir),
            warehouse="w",
            report_dir="r",
            cache_dir="c",
            agents_dir="a",
        ),
    )
    task = {
        "id": task_id,
        "version": "1.0.0",
        "kind": kind,
        "category": "bugfix",
        "digest": sha256_json(task_id)[:12],
    }
    run_key = sha256_json({"spec": spec.identity(), "task": task})[:16]
    run_dir = runs_dir / experiment / run_key
    run_dir.mkdir(parents=True)
    spec_doc = {
        "run_key": run_key,
        "experiment": experiment,
        "task": task,
        "spec": spec.model_dump(mode="json"),
    }
    (run_dir / "spec.json").write_text(json.dumps(spec_doc, indent=1))

    header = HeaderEvent(
        seq=0,
        ts=T0,
        realcli_version="0.1.0",
        git_sha=None,
        run_key=run_key,
        experiment=experiment,
        task_id=task_id,
        task_digest=task["digest"],
        spec=spec.model_dump(mode="json"),
        host={"name": "test"},
    )
    t = T0
    step = 0
    with LedgerWriter.create(run_dir / "ledger.jsonl", header, Redactor(env={})) as ledger:
        for r in range(1, rounds + 1):
            ledger.emit(RoundStartEvent(seq=0, ts=t, round=r))
            if snapshots and r == 1:
                ledger.emit(_snapshot(t, r, step, None))
            for fields in interventions:
                if fields["round"] == r:
                    ledger.emit(InterventionEvent(seq=0, ts=t, **fields))
            ledger.emit(
                SessionEvent(
                    seq=0,
                    ts=t,
                    harness="builtin",
                    harness_version="1",
                    mode="cli_only",
                    permission_mode="bypass",
                    argv=("agent",),
                    not_enforced=("nothing",),
                )
            )
            for i in range(n_tool_calls):
                t += timedelta(seconds=1)
                ledger.emit(
                    ModelCallEvent(
                        seq=0,
                        ts=t,
                        wire_format="chat",
                        backend="scripted",
                        model=model,
                        tokens_in=100,
                        tokens_out=10,
                        cost_usd=0.01,
                        latency_ms=5.0,
                        n_tool_calls=1,
                        finish_reason="tool_calls",
                    )
                )
                call_id = f"c{r}-{i}"
                ledger.emit(
                    ToolCallEvent(
                        seq=0,
                        ts=t,
                        call_id=call_id,
                        name="shell",
                        raw_name="bash",
                        atomic_op="exec: shell",
                        args={"cmd": "ls"},
                    )
                )
                ledger.emit(
                    ToolResultEvent(
                        seq=0,
                        ts=t,
                        call_id=call_id,
                        ok=True,
                        exit_code=0,
                        duration_ms=3.0,
                        output_digest="0" * 64,
                    )
                )
                step += 1
                if snapshots:
                    ledger.emit(_snapshot(t, r, step, call_id))
            if r == 1:
                for fields in screenshots:
                    ledger.emit(ScreenshotEvent(seq=0, ts=t, **fields))
            ledger.emit(
                ToolPoolEvent(
                    seq=0,
                    ts=t,
                    tools_digest="a" * 64,
                    system_digest="b" * 64,
                    tools=("bash",),
                    schema_digests=("c" * 64,),
                    system_chars=10,
                    calls=n_tool_calls,
                )
            )
            ledger.emit(
                FidelityEvent(
                    seq=0,
                    ts=t,
                    source="native/builtin/stdout.jsonl",
                    ok=True,
                    gateway_calls=n_tool_calls,
                    native_calls=n_tool_calls,
                )
            )
            ledger.emit(RoundEndEvent(seq=0, ts=t, round=r, reason="done"))
            ledger.emit(
                GradingEvent(
                    seq=0,
                    ts=t,
                    round=r,
                    test_set="f2p",
                    passed=1,
                    failed=1,
                    errors=0,
                    exit_code=1,
                    duration_s=1.0,
                )
            )
        ledger.emit(
            RunEndEvent(
                seq=0,
                ts=t + timedelta(seconds=1),
                status=status,
                wall_time_s=float(rounds * n_tool_calls + 1),
            )
        )
    if verdict:
        v = make_verdict(
            run_key,
            task_id,
            passed=passed,
            f2p_step=f2p_step,
            p2p_pass=p2p_pass,
            status=status,
            rounds=rounds,
            round_scores=round_scores,
            deliverables=deliverables,
        )
        (run_dir / "verdict.json").write_text(v.model_dump_json(indent=1))
    return run_dir


def shot(
    sha256: str, *, source: str = "gui.screenshot", call_id: str | None = None, n: int = 1
) -> dict[str, Any]:
    """ScreenshotEvent fields of a 1024x768 capture (``screenshots=`` of :func:`write_run`)."""
    return {
        "sha256": sha256,
        "width": 1024,
        "height": 768,
        "bytes": 4096 * n,
        "path": f"screenshots/{n:04d}.png",
        "source": source,
        "call_id": call_id,
    }


def deliverable(
    path: str,
    *,
    evidence: str = "none",
    abstained: bool = False,
    exists: bool = True,
    clauses: Sequence[tuple[str, bool, str]] = (("c1", True, "passed"),),
) -> DeliverableResult:
    """A verdict deliverable; ``clauses``: (id, critical, outcome), each decided by an F2P test
    ``f2p/test_<id>.py::test_it`` unless its outcome is ``unjudged``. ``passed`` as the grader
    computes it."""
    results = tuple(
        ClauseResult(
            id=cid,
            critical=critical,
            test=None if outcome == "unjudged" else f"f2p/test_{cid}.py::test_it",
            outcome=outcome,  # type: ignore[arg-type]
        )
        for cid, critical, outcome in clauses
    )
    passed = (
        exists
        and not abstained
        and evidence in ("none", "genuine")
        and all(c.outcome == "passed" for c in results if c.critical)
        and not any(c.outcome == "failed" for c in results)
    )
    return DeliverableResult(
        path=path,
        exists=exists,
        abstained=abstained,
        evidence=evidence,  # type: ignore[arg-type]
        clauses=results,
        passed=passed,
    )


def _snapshot(ts: datetime, round_: int, step: int, call_id: str | None) -> SnapshotEvent:
    return SnapshotEvent(
        seq=0,
        ts=ts,
        round=round_,
        step=step,
        call_id=call_id,
        commit=f"{step:040x}",
        tree=f"{step + 1000:040x}",
        changed_files=0 if step == 0 else 1,
        duration_ms=4.0,
    )


def goal(
    goal_id: str,
    *,
    kind: str = "substep",
    order: int | None = None,
    depends_on: Sequence[str] = (),
    first: int | None = None,
    broke_at: Sequence[int] = (),
    restored_at: Sequence[int] = (),
    final: bool | None = None,
) -> GoalProgress:
    """One goal of a progress report; ``first``: first step at which it held (0: initially);
    ``final`` defaults to "held once and its last break was restored"."""
    if final is None:
        final = first is not None and len(restored_at) >= len(broke_at)
    changes = sorted([(s, False) for s in broke_at] + [(s, True) for s in restored_at])
    return GoalProgress(
        goal=goal_id,
        kind=kind,  # type: ignore[arg-type]
        reference_order=order,
        depends_on=tuple(depends_on),
        initial=first == 0,
        first_pass_step=first,
        broke_at=tuple(broke_at),
        restored_at=tuple(restored_at),
        final=final,
        transitions=(((first, True),) if first else ()) + tuple(changes),
    )


def write_progress(
    run_dir: Path, goals: Sequence[GoalProgress], *, last_step: int = 4, run_key: str = ""
) -> Path:
    """Write ``progress.json`` for the run in ``run_dir`` (a bisection over ``last_step``)."""
    steps = sorted({0, last_step, *(g.first_pass_step or 0 for g in goals)})
    report = ProgressReport(
        run_key=run_key or run_dir.name,
        method="bisection",
        grid=2,
        n_snapshots=last_step + 1,
        last_step=last_step,
        evaluations=tuple(
            SnapshotOutcome(
                step=s,
                round=1,
                commit=f"{s:040x}",
                passed=tuple(
                    g.goal
                    for g in goals
                    if g.first_pass_step is not None and g.first_pass_step <= s
                ),
                f2p_step=s / last_step,
                p2p_step=1.0,
                seconds=0.5,
            )
            for s in steps
        ),
        seconds=0.5 * len(steps),
        goals=tuple(goals),
    )
    path = run_dir / "progress.json"
    path.write_text(report.model_dump_json(indent=1))
    return path


def make_verdict(
    run_key: str,
    task_id: str,
    *,
    passed: bool,
    f2p_step: float,
    p2p_pass: bool,
    status: str = "graded",
    rounds: int = 1,
    round_scores: Sequence[RoundScore] | None = None,
    deliverables: Sequence[DeliverableResult] = (),
) -> Verdict:
    """Two F2P tests, two P2P tests and ten sub-steps of weight 0.1 per round; every round
    scores the same unless ``round_scores`` gives each round's (passed, f2p_step, p2p_pass)."""
    scores = list(round_scores or [(passed, f2p_step, p2p_pass)] * rounds)
    round_verdicts = [_round_verdict(r, *score) for r, score in enumerate(scores, start=1)]
    last = round_verdicts[-1]
    return Verdict(
        run_key=run_key,
        task_id=task_id,
        status=VerdictStatus(status),
        rounds=tuple(round_verdicts),
        deliverables=tuple(deliverables),
        passed=last.passed,
        f2p_pass=last.f2p.all_passed,
        f2p_step=last.f2p.step_score,
        p2p_pass=last.p2p.all_passed,
        p2p_step=last.p2p.step_score,
        wall_time_s=12.5,
        agent_time_s=10.0,
        tests_time_s=2.5,
        graded_at=T0 + timedelta(minutes=5),
    )


def _round_verdict(r: int, passed: bool, f2p_step: float, p2p_pass: bool) -> RoundVerdict:
    f2p_all = passed or f2p_step == 1.0
    p2p_ok = p2p_pass or passed
    tests = [
        TestResult(
            nodeid=f"f2p/test_a.py::test_{i}",
            test_set="f2p",
            outcome=TestOutcome.passed if f2p_all or i == 0 else TestOutcome.failed,
            duration_s=0.5,
        )
        for i in range(2)
    ] + [
        TestResult(
            nodeid=f"p2p/test_b.py::test_{i}",
            test_set="p2p",
            outcome=TestOutcome.passed if p2p_ok or i == 0 else TestOutcome.failed,
            duration_s=0.25,
        )
        for i in range(2)
    ]
    n_sub = round(f2p_step * 10)
    substeps = tuple(
        SubStepResult(
            id=f"s{i:02d}",
            passed=i < n_sub,
            weight=0.1,
            tests_passed=1 if i < n_sub else 0,
            tests_total=1,
        )
        for i in range(10)
    )
    return RoundVerdict(
        round=r,
        passed=passed,
        f2p=SetScore(total=2, passed=2 if f2p_all else 1, all_passed=f2p_all, step_score=f2p_step),
        p2p=SetScore(
            total=2, passed=2 if p2p_ok else 1, all_passed=p2p_ok, step_score=1.0 if p2p_ok else 0.5
        ),
        f2p_test_share=1.0 if f2p_all else 0.5,
        substeps=substeps,
        tests=tuple(tests),
    )


def truncate_ledger(run_dir: Path, *, keep_bytes_of_last: int = 20) -> None:
    """Cut the ledger as a kill would: drop run_end and leave a partial last line."""
    path = run_dir / "ledger.jsonl"
    lines = path.read_bytes().split(b"\n")[:-1]  # the file ends with a newline
    lines = lines[:-1]  # run_end gone
    path.write_bytes(b"\n".join(lines[:-1]) + b"\n" + lines[-1][:keep_bytes_of_last])


def table_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    out = {}
    for table in RUN_TABLES:
        row = con.execute(f"select count(*) from {table}").fetchone()
        out[table] = int(row[0]) if row else 0
    return out


def raw_run(run_key: str, **columns: Any) -> dict[str, Any]:
    """A `runs` row with every NOT NULL column filled; ``columns`` override (golden tests)."""
    row: dict[str, Any] = {
        "run_key": run_key,
        "experiment": "exp",
        "task_id": "task-a",
        "model": "m",
        "harness": "h",
        "mode": "cli_only",
        "protocol": "autonomous",
        "seed": 1,
        "status": "graded",
        "complete": True,
        "ledger_problems": [],
        "passed": False,
        "f2p_pass": False,
        "f2p_step": 0.0,
        "p2p_pass": True,
        "p2p_step": 1.0,
        "n_events": 1,
        "n_model_calls": 0,
        "n_tool_calls": 0,
        "n_gui_tool_calls": 0,
        "n_errors": 0,
        "tokens_in": 0,
        "tokens_out": 0,
        "tokens_cached": 0,
        "cost_usd": 0.0,
        "run_dir": f"/runs/exp/{run_key}",
        "spec_json": "{}",
        "ingest_digest": "d",
        "ingested_at": T0,
    }
    row.update(columns)
    return row
