"""Ledger features the trajectory judge's dimensions and the failure taxonomy read: tool calls
per channel, failed and repeated failing calls, limit errors, the channels offered, the
runner's final capture."""

from __future__ import annotations

import json
from dataclasses import dataclass

from realcli.judge.context import RunEvidence, ToolStep
from realcli.schema.events import ErrorEvent, ErrorType, ScreenshotEvent, ToolPoolEvent

__all__ = ["BUDGET_ERRORS", "LedgerFeatures", "ledger_features", "step_failed"]

BUDGET_ERRORS = frozenset(
    {
        ErrorType.agent_timeout,
        ErrorType.budget_exceeded,
        ErrorType.cost_cap,
        ErrorType.resource_limit,
    }
)
"""Ledger error types meaning the run was cut off by a limit, not stopped by the agent."""


@dataclass(frozen=True)
class LedgerFeatures:
    """Counts over the ledger the dimensions and the taxonomy read."""

    calls: int
    cli_calls: int
    gui_calls: int
    failed: tuple[ToolStep, ...]
    repeated_failing: tuple[ToolStep, ...]
    limit_errors: tuple[ErrorEvent, ...]
    channels_offered: tuple[str, ...]
    final_screenshot: ScreenshotEvent | None

    @property
    def failed_share(self) -> float:
        return len(self.failed) / self.calls if self.calls else 0.0


def step_failed(step: ToolStep) -> bool:
    r = step.result
    return r is None or not r.ok or r.exit_code not in (None, 0)


def ledger_features(run: RunEvidence) -> LedgerFeatures:
    failed = [s for s in run.steps if step_failed(s)]
    seen: set[tuple[str, str]] = set()
    repeated = []
    for s in failed:
        key = (s.call.name, json.dumps(s.call.args, sort_keys=True, default=str))
        if key in seen:
            repeated.append(s)
        seen.add(key)
    mode = run.spec.get("mode")
    offered = mode.get("channels") if isinstance(mode, dict) else None
    channels: set[str] = {str(c) for c in offered} if isinstance(offered, list) else set()
    for e in run.events:
        if isinstance(e, ToolPoolEvent):
            channels.add("cli")
            if any(t.startswith("gui_") for t in e.tools):
                channels.add("gui")
    final = [s for s in run.screenshots if s.source == "runner.final"]
    return LedgerFeatures(
        calls=len(run.steps),
        cli_calls=sum(s.call.channel.value == "cli" for s in run.steps),
        gui_calls=sum(s.call.channel.value == "gui" for s in run.steps),
        failed=tuple(failed),
        repeated_failing=tuple(repeated),
        limit_errors=tuple(e for e in run.errors if e.error_type in BUDGET_ERRORS),
        channels_offered=tuple(sorted(channels)),
        final_screenshot=final[-1] if final else None,
    )
