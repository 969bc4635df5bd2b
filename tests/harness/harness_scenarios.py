"""The runs behind the harness contract: each scenario is one real run through the runner.

A scenario's RunSpec is composed from ``conf/`` with Hydra's Compose API (as ``realcli run``
composes it) and executed with ``execute_run(spec, task)``: real workspace, gateway,
bubblewrap sandbox, agent, grading and ledger. The tools each request offered come from the
ledger's ``model_call.tools_offered``, as the gateway recorded them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness_helpers import unique_sleep, write_script

from realcli.catalog import TaskBundle, load_task
from realcli.ledger import LedgerContents, read_ledger
from realcli.ledger.layout import LEDGER
from realcli.runner.execute import RunOutcome, execute_run
from realcli.schema.verdict import Verdict
from tests.conftest import compose_spec

__all__ = [
    "AGENT_TIMEOUT_S",
    "SCENARIOS",
    "SMOKE_TASK",
    "TIMEOUT_CMD",
    "ContractRun",
    "ScenarioRuns",
]

TASKS = Path(__file__).resolve().parents[2] / "tasks"
SMOKE_TASK = "smoke-bugfix-intervals"
AGENT_TIMEOUT_S = 3.0
TIMEOUT_CMD = "sleep {a} & setsid sleep {b} & sleep {c}"
"""The timeout scenario's command: three sleeps (one in its own session) outliving the clock."""
SCENARIOS = ("replay", "noop", "timeout")


@dataclass
class ContractRun:
    """One finished run: its outcome and ledger."""

    scenario: str
    task: TaskBundle
    outcome: RunOutcome
    ledger: LedgerContents

    @property
    def offered_tools(self) -> list[tuple[str, ...]]:
        """Tool names offered by each model request the gateway answered, in order."""
        return [e.tools_offered for e in self.ledger.events if e.kind == "model_call"]

    @property
    def run_dir(self) -> Path:
        return self.outcome.run_dir

    @property
    def where(self) -> str:
        """Prefix of every assertion message: which run, and where to read it."""
        return f"[{self.scenario} run of {self.task.id}: {self.run_dir}]"

    @property
    def verdict(self) -> Verdict:
        assert self.outcome.verdict is not None, f"{self.where} finished without a verdict"
        return self.outcome.verdict

    def of(self, kind: str) -> list[Any]:
        return [e for e in self.ledger.events if e.kind == kind]


class ScenarioRuns:
    """Runs each (scenario, task) once, on first use, with the adapter's config overrides.

    ``timeout``: a scripted agent whose first action starts three sleeps (one in its own
    session) that outlive ``sandbox.agent_timeout_s``; :attr:`sleep_tags` are their unique
    arguments, for a host-side process scan.
    """

    def __init__(
        self,
        harness_overrides: Sequence[str],
        base: Path,
        *,
        agent_timeout_s: float = AGENT_TIMEOUT_S,
        timeout_cmd: str = TIMEOUT_CMD,
    ) -> None:
        self.agent_timeout_s, self.timeout_cmd = agent_timeout_s, timeout_cmd
        self.harness_overrides, self.base = tuple(harness_overrides), base
        self.runs: dict[tuple[str, str], ContractRun] = {}
        self.sleep_tags = (unique_sleep(), unique_sleep(), unique_sleep())

    def get(self, scenario: str, task_id: str = SMOKE_TASK) -> ContractRun:
        if (scenario, task_id) not in self.runs:
            self.runs[scenario, task_id] = self._run(scenario, task_id)
        return self.runs[scenario, task_id]

    def _model_overrides(self, scenario: str) -> list[str]:
        if scenario in ("replay", "noop"):
            return [f"model={scenario}"]
        if scenario == "timeout":
            a, b, c = self.sleep_tags
            action = {"action": "shell", "cmd": self.timeout_cmd.format(a=a, b=b, c=c)}
            script = write_script(self.base / "timeout-agent.jsonl", [{**action, "timeout_s": 600}])
            return [
                "model=scripted",
                f"model.script={script}",
                f"sandbox.agent_timeout_s={self.agent_timeout_s}",
            ]
        raise ValueError(f"unknown contract scenario {scenario!r}; known: {SCENARIOS}")

    def _run(self, scenario: str, task_id: str) -> ContractRun:
        overrides = [
            *self.harness_overrides,
            *self._model_overrides(scenario),
            f"experiment_name=contract-{scenario}",
            f"task={task_id}",
            f"paths.tasks_dir={TASKS}",
            f"paths.runs_dir={self.base / 'runs'}",
        ]
        spec = compose_spec(self.base, overrides)
        task = load_task(TASKS / task_id)
        outcome = execute_run(spec, task)
        assert outcome.state == "finished", f"{scenario} run of {task_id}: {outcome}"
        ledger = read_ledger(outcome.run_dir / LEDGER)
        return ContractRun(scenario, task, outcome, ledger)
