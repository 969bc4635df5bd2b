"""Run folder factory (spec.json, ledger.jsonl via LedgerWriter, verdict.json) and raw rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb

from realcli.ledger import LedgerWriter
from realcli.schema.events import (
    FidelityEvent,
    GradingEvent,
    HeaderEvent,
    ModelCallEvent,
    RoundEndEvent,
    RoundStartEvent,
    RunEndEvent,
    SessionEvent,
    ToolCallEvent,
    ToolPoolEvent,
    ToolResultEvent,
)
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
) -> Path:
    """Write one real run folder and return it. ``verdict=False``: killed before grading."""
    f2p_step = (1.0 if passed else 0.5) if f2p_step is None else f2p_step
    spec = RunSpec(
        experiment_name=experiment,
        seed=seed,
        model=ModelSpec(name=model, backend="scripted", model_id=f"test/{model}"),
        harness=HarnessSpec(name=harness, kind="builtin", version="1"),
        mode=ModeSpec(name=mode, channels=("cli",)),
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
        "kind": "longcli",
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
    with LedgerWriter.create(run_dir / "ledger.jsonl", header, Redactor(env={})) as ledger:
        for r in range(1, rounds + 1):
            ledger.emit(RoundStartEvent(seq=0, ts=t, round=r))
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
        )
        (run_dir / "verdict.json").write_text(v.model_dump_json(indent=1))
    return run_dir


def make_verdict(
    run_key: str,
    task_id: str,
    *,
    passed: bool,
    f2p_step: float,
    p2p_pass: bool,
    status: str = "graded",
    rounds: int = 1,
) -> Verdict:
    """Two F2P tests, two P2P tests and ten sub-steps of weight 0.1 per round."""
    f2p_all = passed or f2p_step == 1.0
    p2p_ok = p2p_pass or passed
    round_verdicts = []
    for r in range(1, rounds + 1):
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
        round_verdicts.append(
            RoundVerdict(
                round=r,
                passed=passed,
                f2p=SetScore(
                    total=2, passed=2 if f2p_all else 1, all_passed=f2p_all, step_score=f2p_step
                ),
                p2p=SetScore(
                    total=2,
                    passed=2 if p2p_ok else 1,
                    all_passed=p2p_ok,
                    step_score=1.0 if p2p_ok else 0.5,
                ),
                f2p_test_share=1.0 if f2p_all else 0.5,
                substeps=substeps,
                tests=tuple(tests),
            )
        )
    return Verdict(
        run_key=run_key,
        task_id=task_id,
        status=VerdictStatus(status),
        rounds=tuple(round_verdicts),
        passed=passed,
        f2p_pass=f2p_all,
        f2p_step=f2p_step,
        p2p_pass=p2p_ok,
        p2p_step=1.0 if p2p_ok else 0.5,
        wall_time_s=12.5,
        agent_time_s=10.0,
        tests_time_s=2.5,
        graded_at=T0 + timedelta(minutes=5),
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
