"""Execute one run: folder, ledger, workspace, gateway + sandbox + harness, grading, verdict.

A run folder ``runs/<experiment>/<run_key>/`` is finished exactly when ``verdict.json`` exists
(written atomically, last but for the ``run_end`` event). A finished run is skipped; a folder
without a verdict is an interrupted run and is removed and redone from scratch.
"""

from __future__ import annotations

import contextlib
import platform
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from realcli import __version__
from realcli.catalog import TaskBundle
from realcli.gateway import Gateway, make_backend
from realcli.gateway.meter import Meter, Pricing, SweepSpend
from realcli.grading.testrun import TEST_SETS, run_test_set
from realcli.grading.verdict import (
    RunTimings,
    build_verdict,
    outcome_from_ledger,
    screenshot_hashes,
)
from realcli.harness import (
    ExchangeFeed,
    HarnessContext,
    HarnessOutcome,
    ModelCallRelay,
    make_harness,
)
from realcli.ledger import LedgerWriter, read_ledger
from realcli.ledger.layout import EXPECTED, LEDGER, SPEC, TASK_COPY, VERDICT
from realcli.runner.folders import RunOutcome, finished_outcome, run_dir_for, write_json_atomic
from realcli.runner.gui_session import gui_session
from realcli.runner.inventory import expected_tests
from realcli.runner.locks import RunLocked, run_lock
from realcli.runner.spec import run_key
from realcli.runner.workspace import prepare_workspace, sandbox_options
from realcli.sandbox import SandboxOptions, make_sandbox
from realcli.schema.events import (
    BudgetEvent,
    ErrorEvent,
    ErrorType,
    FidelityEvent,
    GradingEvent,
    HeaderEvent,
    ModelCallEvent,
    RoundEndEvent,
    RoundStartEvent,
    RunEndEvent,
)
from realcli.schema.run_spec import RunSpec
from realcli.schema.verdict import TestResult, Verdict
from realcli.util.errors import RealcliError
from realcli.util.redact import Redactor

__all__ = ["RunOutcome", "execute_run"]


def _write_pools(path: Path, gateway: Gateway) -> None:
    """Every tool pool with its full schemas (the ledger has names and digests)."""
    pools = [
        {
            "tools_digest": p.tools_digest,
            "system_digest": p.system_digest,
            "calls": p.calls,
            "tools": [{"name": n, "schema": s} for n, s in zip(p.tools, p.schemas, strict=True)],
        }
        for p in gateway.pools.values()
    ]
    write_json_atomic(path, pools)


def _git_sha() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None


def execute_run(spec: RunSpec, task: TaskBundle) -> RunOutcome:
    """Run ``task`` under ``spec`` unless already finished; never raises for agent failures."""
    key = run_key(spec, task)
    run_dir = run_dir_for(spec, key)
    try:
        with run_lock(Path(spec.paths.runs_dir) / ".locks", key):
            finished = finished_outcome(run_dir, key, task.id)
            if finished is not None:
                return finished
            if run_dir.exists():
                shutil.rmtree(run_dir)  # interrupted earlier: redo from scratch
            verdict = _Run(spec, task, key, run_dir).execute()
            return RunOutcome(key, task.id, "finished", run_dir, verdict)
    except RunLocked:
        return RunOutcome(key, task.id, "locked", run_dir)


SPEND_FILE = ".spend.json"
"""Per experiment folder: what all its runs have spent (the sweep cost cap)."""


@dataclass
class _Usage:
    calls: int = 0
    answered: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    answered_in: int = 0
    answered_out: int = 0
    cost_usd: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, event: ModelCallEvent) -> None:
        with self.lock:
            self.calls += 1
            self.tokens_in += event.tokens_in
            self.tokens_out += event.tokens_out
            self.cost_usd += event.cost_usd
            if event.status == 200:
                self.answered += 1
                self.answered_in += event.tokens_in
                self.answered_out += event.tokens_out


def _meter(spec: RunSpec) -> Meter:
    p, b = spec.model.pricing, spec.budget
    sweep = None
    if b.sweep_usd is not None:
        sweep = SweepSpend(Path(spec.paths.runs_dir) / spec.experiment_name / SPEND_FILE)
    return Meter(
        Pricing(p.input_per_mtok, p.output_per_mtok, p.cached_input_per_mtok),
        run_cap_usd=b.run_usd,
        sweep_cap_usd=b.sweep_usd,
        sweep=sweep,
    )


class _Run:
    def __init__(self, spec: RunSpec, task: TaskBundle, key: str, run_dir: Path) -> None:
        self.spec, self.task, self.key, self.run_dir = spec, task, key, run_dir
        self.redactor = Redactor()
        self.make_sandbox = partial(make_sandbox, spec.sandbox.kind)
        self.started = time.monotonic()
        self.inventory_dir = Path(spec.paths.cache_dir) / "inventory"
        self.ledger: LedgerWriter

    def execute(self) -> Verdict:
        self.run_dir.mkdir(parents=True)
        spec_json = self.redactor.obj(self.spec.model_dump(mode="json"))
        task_meta = {
            "id": self.task.id,
            "version": self.task.spec.version,
            "kind": self.task.spec.kind.value,
            "category": self.task.spec.category.value,
            "digest": self.task.digest,
        }
        write_json_atomic(
            self.run_dir / SPEC,
            {
                "run_key": self.key,
                "experiment": self.spec.experiment_name,
                "task": task_meta,
                "spec": spec_json,
            },
        )
        shutil.copyfile(self.task.root / "task.toml", self.run_dir / TASK_COPY)
        header = HeaderEvent(
            seq=0,
            realcli_version=__version__,
            git_sha=_git_sha(),
            run_key=self.key,
            experiment=self.spec.experiment_name,
            task_id=self.task.id,
            task_digest=self.task.digest,
            spec=spec_json,
            host={"node": platform.node(), "python": platform.python_version()},
        )
        with LedgerWriter.create(self.run_dir / LEDGER, header, self.redactor) as ledger:
            self.ledger = ledger
            return self._rounds()

    def _options(self, workspace: Path, **extra: object) -> SandboxOptions:
        """Sandbox options for this run: the task's limits, with the sandbox group's overrides."""
        sb = self.spec.sandbox
        return sandbox_options(
            self.task, workspace, memory_mb=sb.memory_mb, cpu_seconds=sb.cpu_seconds, **extra
        )

    def _rounds(self) -> Verdict:
        workspace = self.run_dir / "workspace"
        expected: dict[str, list[str]] | None = None
        try:
            prepare_workspace(self.task, workspace, self.make_sandbox)
            expected = expected_tests(self.task, self.make_sandbox, self.inventory_dir)
            (self.run_dir / "tests").mkdir()
            write_json_atomic(self.run_dir / "tests" / EXPECTED, expected)
        except RealcliError as exc:
            self.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.task_error, message=str(exc)))
        rounds: dict[int, list[TestResult]] = {}
        agent_s = tests_s = 0.0
        for round_no in range(1, self.spec.protocol.rounds + 1):
            self.ledger.emit(RoundStartEvent(seq=0, round=round_no))
            if expected is not None:
                reason, seconds = self._agent(workspace)
                agent_s += seconds
            else:
                reason = "task_error"
            self.ledger.emit(RoundEndEvent(seq=0, round=round_no, reason=reason))
            if workspace.is_dir():
                rounds[round_no], seconds = self._grade(workspace, round_no)
                tests_s += seconds
        # the status comes from the ledger, exactly as `realcli regrade` reads it
        status, error, _ = outcome_from_ledger(read_ledger(self.ledger.path))
        wall = time.monotonic() - self.started
        verdict = build_verdict(
            task=self.task.spec,
            run_key=self.key,
            rounds=rounds,
            status=status,
            error=error,
            timings=RunTimings(wall_time_s=wall, agent_time_s=agent_s, tests_time_s=tests_s),
            expected=expected,
            workspace=workspace if workspace.is_dir() else None,
            screenshots=screenshot_hashes(read_ledger(self.ledger.path)),
        )
        write_json_atomic(self.run_dir / VERDICT, verdict.model_dump(mode="json"))
        self.ledger.emit(RunEndEvent(seq=0, status=verdict.status.value, wall_time_s=wall))
        return verdict

    def _agent(self, workspace: Path) -> tuple[str, float]:
        """One agent session; returns (how it ended, seconds)."""
        usage = _Usage()
        relay = ModelCallRelay()  # the harness writes each call in turn order
        feed = ExchangeFeed()
        meter = _meter(self.spec)

        def on_call(event: ModelCallEvent) -> None:
            usage.add(event)
            relay(event)

        started = time.monotonic()
        reason, turns = "infra_error", 0
        outcome: HarnessOutcome | None = None
        gateway: Gateway | None = None
        sock_dir = Path(tempfile.mkdtemp(prefix="realcli-gw-"))
        native_dir = self.run_dir / "native"
        native_dir.mkdir(exist_ok=True)
        ctx: HarnessContext | None = None
        try:
            reference = self.task.reference_actions() if self.spec.model.backend == "replay" else []
            backend = make_backend(self.spec.model, reference, workdir=self.task.spec.workdir)
            for secret in backend.secrets():  # an upstream API key: masked in every file
                self.redactor.add(secret)
            harness = make_harness(self.spec.harness)
            sb = self.spec.sandbox
            options = self._options(
                workspace, gateway_socket=sock_dir / "gateway.sock", gateway_port=sb.gateway_port
            )
            timeout = sb.agent_timeout_s or self.task.spec.timeouts.agent_s
            with contextlib.ExitStack() as stack:
                gui = None
                if "gui" in self.spec.mode.channels:
                    gui = stack.enter_context(
                        gui_session(
                            self.task, workspace, self.run_dir, self.make_sandbox, self.ledger.emit
                        )
                    )
                gateway = Gateway(
                    backend,
                    on_call,
                    model_id=self.spec.model.model_id,
                    meter=meter,
                    log_path=native_dir / "gateway.jsonl",
                    redactor=self.redactor,
                    on_exchange=feed,
                    gui=gui.service if gui is not None else None,
                )
                stack.enter_context(gateway)
                gateway.start(sock_dir / "gateway.sock")
                sandbox = self.make_sandbox(options)
                if gui is not None and "cli" in self.spec.mode.channels:
                    sandbox = gui.agent_sandbox(sandbox)  # the shell may drive the display
                ctx = HarnessContext(
                    sandbox=sandbox,
                    ledger=self.ledger,
                    native_dir=native_dir,
                    instruction=self.task.instruction,
                    model_id=self.spec.model.model_id,
                    gateway_port=sb.gateway_port,
                    workdir=self.task.spec.workdir,
                    timeout_s=timeout,
                    redactor=self.redactor,
                    model_calls=relay,
                    mode=self.spec.mode.name,
                    channels=tuple(self.spec.mode.channels),
                    agents_dir=Path(self.spec.paths.agents_dir),
                    exchanges=feed,
                    stop=meter.exceeded,  # set by the gateway before it refuses a call
                )
                outcome = harness.run(ctx)
            reason, turns = outcome.reason, outcome.turns
        except Exception as exc:  # an infra failure: labelled, never dropped
            self.ledger.emit(
                ErrorEvent(
                    seq=0, error_type=ErrorType.infra_error, message=f"{type(exc).__name__}: {exc}"
                )
            )
        finally:
            for event in relay.drain():  # calls a failed harness never wrote
                self.ledger.emit(event)
            shutil.rmtree(sock_dir, ignore_errors=True)
        if meter.exceeded.is_set():
            reason = "cost_cap"
            self.ledger.emit(ErrorEvent(seq=0, error_type=ErrorType.cost_cap, message=meter.reason))
        if gateway is not None:
            for pool in gateway.pools.values():
                self.ledger.emit(pool.event())
            _write_pools(native_dir / "tool_pools.json", gateway)
        if outcome is not None and outcome.native is not None:
            self.ledger.emit(self._fidelity(outcome, usage))
        seconds = time.monotonic() - started
        self.ledger.emit(
            BudgetEvent(
                seq=0,
                turns=turns,
                wall_clock_s=seconds,
                tokens_in=usage.tokens_in,
                tokens_out=usage.tokens_out,
                cost_usd=usage.cost_usd,
            )
        )
        return reason, seconds

    def _fidelity(self, outcome: HarnessOutcome, usage: _Usage) -> FidelityEvent:
        """The gateway's view of the session against the harness's native session log."""
        native = outcome.native
        assert native is not None
        in_ledger = {
            e.call_id for e in read_ledger(self.ledger.path).events if e.kind == "tool_call"
        }
        missing = tuple(c for c in native.tool_call_ids if c not in in_ledger)
        problems = list(native.problems)
        if native.model_calls is not None and native.model_calls != usage.answered:
            problems.append(
                f"model calls: gateway answered {usage.answered}, native log has "
                f"{native.model_calls}"
            )
        for what, ours, theirs in (
            ("tokens in", usage.answered_in, native.tokens_in),
            ("tokens out", usage.answered_out, native.tokens_out),
        ):
            if theirs is not None and theirs != ours:
                problems.append(f"{what}: gateway {ours}, native log {theirs}")
        if missing:
            problems.append(f"{len(missing)} native tool call(s) missing from the ledger")
        return FidelityEvent(
            seq=0,
            source=native.source,
            ok=not problems,
            gateway_calls=usage.answered,
            native_calls=native.model_calls,
            gateway_tokens_in=usage.answered_in,
            gateway_tokens_out=usage.answered_out,
            native_tokens_in=native.tokens_in,
            native_tokens_out=native.tokens_out,
            native_tool_calls=len(native.tool_call_ids),
            missing_tool_calls=missing,
            problems=tuple(problems),
        )

    def _grade(self, workspace: Path, round_no: int) -> tuple[list[TestResult], float]:
        results: list[TestResult] = []
        seconds = 0.0
        for test_set in TEST_SETS:
            run = run_test_set(
                tests_dir=self.task.tests_dir,
                test_set=test_set,
                workspace=workspace,
                out_dir=self.run_dir / "tests",
                round_no=round_no,
                options=self._options(workspace),
                make_sandbox=self.make_sandbox,
                timeout_s=self.task.spec.timeouts.tests_s,
                redactor=self.redactor,
            )
            results.extend(run.results)
            seconds += run.duration_s
            passed = sum(r.outcome == "passed" for r in run.results)
            failed = sum(r.outcome == "failed" for r in run.results)
            errors = sum(r.outcome == "error" for r in run.results)
            self.ledger.emit(
                GradingEvent(
                    seq=0,
                    round=round_no,
                    test_set=test_set,
                    passed=passed,
                    failed=failed,
                    errors=errors,
                    exit_code=run.exit_code,
                    duration_s=run.duration_s,
                )
            )
        return results, seconds
