"""Harness adapters: agent runtimes driven inside a sandbox, recorded in the ledger."""

from __future__ import annotations

import importlib

from realcli.harness.base import (
    Harness,
    HarnessContext,
    HarnessOutcome,
    NativeSession,
    OutcomeReason,
)
from realcli.harness.builtin import BuiltinHarness
from realcli.harness.exchanges import ExchangeFeed
from realcli.harness.relay import ModelCallRelay
from realcli.schema.run_spec import HarnessSpec

__all__ = [
    "HARNESSES",
    "BuiltinHarness",
    "ExchangeFeed",
    "Harness",
    "HarnessContext",
    "HarnessOutcome",
    "ModelCallRelay",
    "NativeSession",
    "OutcomeReason",
    "harness_class",
    "make_harness",
]

HARNESSES: dict[str, str] = {
    "builtin": "realcli.harness.builtin:BuiltinHarness",
    "codex": "realcli.harness.codex:CodexHarness",
    "claude_code": "realcli.harness.claude_code:ClaudeCodeHarness",
    "openclaw": "realcli.harness.openclaw:OpenClawHarness",
    "hermes": "realcli.harness.hermes:HermesHarness",
    "openhands": "realcli.harness.openhands:OpenHandsHarness",
    "command": "realcli.harness.command:CommandHarness",
}
"""Harness adapters by registry name (``harness.kind`` in config): ``module:Class``,
imported on first use."""


def harness_class(kind: str) -> type[Harness]:
    """The adapter class registered as ``kind``. Raises KeyError for unknown kinds."""
    try:
        target = HARNESSES[kind]
    except KeyError:
        raise KeyError(f"unknown harness kind {kind!r}; registered: {sorted(HARNESSES)}") from None
    module, _, name = target.partition(":")
    cls = getattr(importlib.import_module(module), name)
    assert isinstance(cls, type) and issubclass(cls, Harness), target
    return cls


def make_harness(spec: HarnessSpec) -> Harness:
    """The registered adapter for ``spec.kind``. Raises KeyError for unknown kinds."""
    return harness_class(spec.kind)(spec)
