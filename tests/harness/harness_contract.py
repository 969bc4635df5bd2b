"""The contract every harness adapter satisfies, checked through the real runner path.

Subclass :class:`HarnessContract` once per adapter (the way Hydra's launcher plugins subclass
``LauncherTestSuite``) and fill in what only the adapter knows::

    class TestCodexHarness(HarnessContract):
        harness_overrides = ("harness=codex",)
        tool_pool = frozenset({"exec_command", "apply_patch"})

        @classmethod
        def skip_reason(cls) -> str | None:
            return None if shutil.which("codex") else "codex CLI not installed (npm i -g ...)"

        @classmethod
        def native_tool_events(cls, native_dir: Path) -> list[NativeToolEvent]:
            ...  # parse the CLI's own session log under native_dir

Every scenario is one real run through the runner (see :mod:`harness_scenarios`), made once
per subclass and shared by the tests that look at it; run folders stay under pytest's
basetemp, and every failure names the run folder to read.
"""

from __future__ import annotations

import json
import posixpath
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

import pytest
from harness_scenarios import (
    AGENT_TIMEOUT_S,
    SCENARIOS,
    SMOKE_TASK,
    TIMEOUT_CMD,
    ContractRun,
    ScenarioRuns,
)

from realcli.gateway.toolmap import shell_equivalent
from realcli.ledger.layout import VERDICT
from realcli.schema.actions import Action, MessageAction, ShellAction
from realcli.schema.events import ErrorType, ModelCallEvent, ToolCallEvent
from realcli.schema.verdict import TestOutcome, VerdictStatus
from tests.conftest import processes_with_arg

__all__ = ["HarnessContract", "NativeKind", "NativeToolEvent"]

KILL_GRACE_S = 15.0  # a timed-out agent's session must end within this after its wall clock
LEFTOVER_WAIT_S = 5.0  # how long processes of a killed run may take to disappear
STEP_KIND = {"shell": "shell", "read_file": "read", "write_file": "write", "edit_file": "edit"}
"""Normalised ledger tool name -> the generic action it performs."""
NativeKind = Literal["call", "result"]
Step = tuple[str, str]
"""(action kind, key argument): the command for ``shell``, the absolute path otherwise."""


@dataclass(frozen=True)
class NativeToolEvent:
    """One tool call or tool result as the harness's own session log has it."""

    kind: NativeKind
    call_id: str


def _step_of_action(action: Action, workdir: str) -> list[Step]:
    """The ledger steps that faithfully perform ``action``: the native form, and for file
    actions also the exact shell fallback the gateway uses when no file tool is offered."""
    if isinstance(action, ShellAction):
        return [("shell", action.cmd)]
    assert not isinstance(action, MessageAction)
    native = (action.action, posixpath.normpath(posixpath.join(workdir, action.path)))
    return [native, ("shell", shell_equivalent(action)[0])]


def _first_difference(
    expected: Sequence[object], actual: Sequence[object], names: tuple[str, str]
) -> str:
    width = max(map(len, names))
    for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
        if e != a:
            return (
                f"first difference at #{i}:\n  {names[0]:{width}} {e!r}\n  {names[1]:{width}} {a!r}"
            )
    return f"{names[0]} has {len(expected)} entries, {names[1]} has {len(actual)}"


class HarnessContract:
    """Base test class of harness adapters: subclass it, set the class attributes, implement
    :meth:`native_tool_events`, mark the module ``pytest.mark.sandbox``."""

    harness_overrides: ClassVar[tuple[str, ...]] = ()
    """Config overrides that select the adapter, e.g. ``("harness=codex",)``."""
    tool_pool: ClassVar[frozenset[str]] = frozenset()
    """Tool names the adapter offers the model (the first request's ``tools``)."""
    replay_tasks: ClassVar[tuple[str, ...]] = (SMOKE_TASK, "smoke-feature-todo")
    """Tasks whose replayed reference must pass (the other scenarios use the smoke task)."""
    agent_timeout_s: ClassVar[float] = AGENT_TIMEOUT_S
    """The timeout scenario's wall clock: long enough for the agent to reach its first tool
    call (slow-starting agents set more)."""
    timeout_cmd: ClassVar[str] = TIMEOUT_CMD
    """The timeout scenario's command (``{a}``, ``{b}``, ``{c}``: the sleeps' unique tags);
    agents that refuse backgrounding in a foreground command wrap it, e.g. in ``bash -c``."""
    records_tool_pool: ClassVar[bool] = True
    """False while the adapter's native log does not list the tools it offers."""
    agents_fixture: ClassVar[str | None] = None
    """A (session) fixture giving the agents folder to run from (``paths.agents_dir``), e.g.
    one the test session installs the agent into from empty; None: the machine's own."""

    # ----------------------------------------------------------------- adapter hooks
    @classmethod
    def skip_reason(cls) -> str | None:
        """Why this adapter cannot run here (its CLI is not installed), or None."""
        return None

    @classmethod
    def native_tool_events(cls, native_dir: Path) -> list[NativeToolEvent]:
        """Every tool call and tool result in the adapter's native session log, in order."""
        raise NotImplementedError("subclasses parse their native session log")

    @classmethod
    def native_tool_pool(cls, native_dir: Path) -> set[str] | None:
        """The tool names the native log says were offered (None: not recorded there)."""
        return None

    @classmethod
    def ledger_step(cls, call: ToolCallEvent) -> Step:
        """The generic step a ledger ``tool_call`` performs: (kind, command or path)."""
        kind = STEP_KIND.get(call.name, call.name)
        keys = ("cmd", "command") if kind == "shell" else ("path", "file_path")
        value = next((call.args[k] for k in keys if isinstance(call.args.get(k), str)), "")
        return kind, value

    @classmethod
    def extra_overrides(cls, base: Path) -> tuple[str, ...]:
        """More overrides, made in the class's temp folder ``base`` (e.g. a config dir of
        the adapter's own: ``hydra.searchpath=[file://...]``)."""
        return ()

    # ----------------------------------------------------------------- runs
    @pytest.fixture(scope="class")
    @classmethod
    def contract_runs(
        cls, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
    ) -> ScenarioRuns:
        reason = cls.skip_reason()
        if reason:
            pytest.skip(reason)
        base = tmp_path_factory.mktemp(f"contract-{cls.__name__}")
        agents: tuple[str, ...] = ()
        if cls.agents_fixture is not None:
            agents = (f"paths.agents_dir={request.getfixturevalue(cls.agents_fixture)}",)
        return ScenarioRuns(
            (*cls.harness_overrides, *agents, *cls.extra_overrides(base)),
            base,
            agent_timeout_s=cls.agent_timeout_s,
            timeout_cmd=cls.timeout_cmd,
        )

    @pytest.fixture
    def run_of(self, contract_runs: ScenarioRuns) -> Callable[..., ContractRun]:
        return contract_runs.get

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "replay_task" in metafunc.fixturenames:
            metafunc.parametrize("replay_task", type(self).replay_tasks)
        if "scenario" in metafunc.fixturenames:
            metafunc.parametrize("scenario", SCENARIOS)

    # ----------------------------------------------------------------- 1. replay solves
    def test_replay_passes_the_task(
        self, run_of: Callable[..., ContractRun], replay_task: str
    ) -> None:
        run = run_of("replay", replay_task)
        v = run.verdict
        assert v.status is VerdictStatus.graded, f"{run.where} {v.status}: {v.error}"
        not_passed = [
            f"{t.nodeid}: {t.outcome.value}"
            for t in v.rounds[-1].tests
            if t.outcome is not TestOutcome.passed
        ]
        assert not not_passed, f"{run.where} tests not passed: {not_passed}"
        assert v.passed and v.f2p_pass and v.p2p_pass, f"{run.where} verdict {v}"
        assert v.rounds[-1].f2p.total > 0 and v.rounds[-1].p2p.total > 0, run.where
        assert [e.reason for e in run.of("round_end")] == ["done"], run.where
        assert run.of("error") == [], f"{run.where} errors: {run.of('error')}"

    def test_replay_tool_calls_follow_the_reference(
        self, run_of: Callable[..., ContractRun], replay_task: str
    ) -> None:
        run = run_of("replay", replay_task)
        workdir = run.task.spec.workdir
        actions = run.task.reference_actions()
        expected = [_step_of_action(a, workdir) for a in actions if a.action != "message"]
        actual = [self.ledger_step(c) for c in run.of("tool_call")]
        actual = [
            (k, posixpath.normpath(posixpath.join(workdir, v)) if k != "shell" else v)
            for k, v in actual
        ]
        shown = [forms[0] for forms in expected]
        matches = len(expected) == len(actual) and all(
            a in forms for forms, a in zip(expected, actual, strict=True)
        )
        diff = _first_difference(shown, actual, ("reference", "ledger"))
        assert matches, (
            f"{run.where} ledger tool calls differ from the reference trajectory "
            f"(message actions make no tool call); {diff}"
        )
        final: list[str] = []  # message actions after the last tool action: the final answer
        for action in reversed(actions):
            if not isinstance(action, MessageAction):
                break
            final.insert(0, action.text)
        said = [m.text for m in run.of("message") if m.role == "assistant"]
        missing = [t for t in final if not any(t in s for s in said)]
        assert not missing, f"{run.where} final answer not an assistant message: {missing}"

    # ----------------------------------------------------------------- 2. noop stops
    def test_noop_fails_f2p_keeps_p2p_and_stops(self, run_of: Callable[..., ContractRun]) -> None:
        run = run_of("noop")
        v = run.verdict
        assert v.status is VerdictStatus.graded, f"{run.where} {v.status}: {v.error}"
        assert (v.f2p_step, v.f2p_pass) == (0.0, False), f"{run.where} f2p_step={v.f2p_step}"
        assert (v.p2p_pass, v.p2p_step) == (True, 1.0), f"{run.where} p2p_step={v.p2p_step}"
        assert [e.reason for e in run.of("round_end")] == ["done"], run.where
        (budget,) = run.of("budget")
        assert 1 <= budget.turns <= 2, f"{run.where} noop took {budget.turns} turns"
        assert run.of("tool_call") == [] and run.of("error") == [], run.where

    # ----------------------------------------------------------------- 3. timeout kills
    def test_timeout_is_recorded_graded_and_leaves_no_process(
        self, contract_runs: ScenarioRuns
    ) -> None:
        run = contract_runs.get("timeout")
        v = run.verdict
        assert v.status is VerdictStatus.graded, f"{run.where} {v.status}: {v.error}"
        assert (run.run_dir / VERDICT).is_file(), run.where
        errors = [(e.error_type, e.message) for e in run.of("error")]
        assert [t for t, _ in errors] == [ErrorType.agent_timeout], f"{run.where} {errors}"
        assert [e.reason for e in run.of("round_end")] == ["timeout"], run.where
        (budget,) = run.of("budget")
        limit = self.agent_timeout_s + KILL_GRACE_S
        assert budget.wall_clock_s < limit, f"{run.where} agent ran {budget.wall_clock_s:.1f}s"
        shells = [c for c in run.of("tool_call") if self.ledger_step(c)[0] == "shell"]
        assert shells, f"{run.where} the sleeping shell call never reached the ledger"
        deadline = time.monotonic() + LEFTOVER_WAIT_S
        left = {t: processes_with_arg(t) for t in contract_runs.sleep_tags}
        while any(left.values()) and time.monotonic() < deadline:
            time.sleep(0.1)
            left = {t: processes_with_arg(t) for t in contract_runs.sleep_tags}
        assert not any(left.values()), f"{run.where} processes left on the host: {left}"

    # ----------------------------------------------------------------- 4. ledger ⇔ native
    def test_ledger_is_complete_and_in_agent_order(
        self, run_of: Callable[..., ContractRun], scenario: str
    ) -> None:
        run = run_of(scenario)
        assert run.ledger.complete, f"{run.where} ledger incomplete: {run.ledger.problems}"
        seqs = [e.seq for e in run.ledger.events]
        assert seqs == list(range(1, len(seqs) + 1)), f"{run.where} seq gaps: {seqs}"
        answered = [m for m in run.of("model_call") if m.status == 200]
        [budget] = run.of("budget")
        assert len(answered) == budget.turns, (
            f"{run.where} the harness reported {budget.turns} turns, "
            f"the ledger has {len(answered)} answered model calls"
        )
        # Each tool_call follows (by seq) the answered model_call that produced it, and an
        # answered model_call is followed by exactly its n_tool_calls before the next one.
        groups: list[tuple[ModelCallEvent | None, list[int]]] = [(None, [])]
        for event in run.ledger.events:
            if isinstance(event, ModelCallEvent):
                groups.append((event, []))
            elif event.kind == "tool_call":
                groups[-1][1].append(event.seq)
        for call, tool_seqs in groups:
            if call is None or call.status != 200:
                where = "before any model_call" if call is None else f"after failed {call.seq}"
                assert not tool_seqs, f"{run.where} tool_call seqs {tool_seqs} come {where}"
            else:
                assert len(tool_seqs) == call.n_tool_calls, (
                    f"{run.where} model_call seq {call.seq} answered {call.n_tool_calls} tool "
                    f"calls; tool_call seqs {tool_seqs} follow it before the next model_call"
                )

    def test_native_tool_calls_appear_in_the_ledger(
        self, run_of: Callable[..., ContractRun], scenario: str
    ) -> None:
        run = run_of(scenario)
        native = [(e.kind, e.call_id) for e in self.native_tool_events(run.run_dir / "native")]
        kinds = {"tool_call": "call", "tool_result": "result"}
        ledger = [(kinds[e.kind], e.call_id) for e in run.ledger.events if e.kind in kinds]
        assert ledger == native, (
            f"{run.where} ledger tool_call/tool_result events differ from the native log; "
            f"{_first_difference(native, ledger, ('native log', 'ledger'))}"
        )
        open_calls: list[str] = []  # called, no result yet
        for kind, call_id in native:
            if kind == "call":
                assert call_id not in open_calls, f"{run.where} call id {call_id} repeats"
                open_calls.append(call_id)
            else:
                assert call_id in open_calls, f"{run.where} result {call_id} has no open call"
                open_calls.remove(call_id)
        killed = 1 if scenario == "timeout" else 0  # the sleeping shell never returns
        assert len(open_calls) == killed, f"{run.where} calls without a result: {open_calls}"

    # ----------------------------------------------------------------- 5. tool pool
    def test_first_request_offers_the_declared_tool_pool(
        self, run_of: Callable[..., ContractRun]
    ) -> None:
        run = run_of("replay")
        assert run.offered_tools, f"{run.where} the ledger has no model_call"
        first = set(run.offered_tools[0])
        assert self.tool_pool, f"{type(self).__name__} must declare its tool_pool"
        assert first == self.tool_pool, (
            f"{run.where} first request offered {sorted(first)}, the adapter declares "
            f"{sorted(self.tool_pool)}"
        )
        used = {c.raw_name for c in run.of("tool_call")}
        assert used <= first, f"{run.where} tools called but never offered: {used - first}"

    def test_tool_pool_is_recorded(self, run_of: Callable[..., ContractRun]) -> None:
        """Every distinct pool is a ``tool_pool`` event (names, schema digests, system
        prompt digest) and, with full schemas, in ``native/tool_pools.json``; the agent's own
        log, where it lists its tools, agrees with what the gateway saw."""
        run = run_of("replay")
        pools = run.of("tool_pool")
        assert pools, f"{run.where} no tool_pool event"
        offered = set(run.offered_tools[0]) if run.offered_tools else set()
        assert offered in [set(p.tools) for p in pools], f"{run.where} first pool not recorded"
        calls = [e for e in run.of("model_call") if e.tools_digest]
        assert sum(p.calls for p in pools) == len(calls), f"{run.where} pool call counts"
        assert {e.tools_digest for e in calls} == {p.tools_digest for p in pools}
        saved = json.loads((run.run_dir / "native" / "tool_pools.json").read_text())
        assert {p["tools_digest"] for p in saved} == {p.tools_digest for p in pools}
        assert all("schema" in t for p in saved for t in p["tools"]), f"{run.where} schemas"
        if self.records_tool_pool:
            recorded = self.native_tool_pool(run.run_dir / "native")
            assert recorded is not None, f"{run.where} the native log records no tool pool"
            assert recorded == offered, (
                f"{run.where} native log lists {sorted(recorded)}, the first request offered "
                f"{sorted(offered)}"
            )
