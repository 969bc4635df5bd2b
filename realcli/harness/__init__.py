"""Harness adapters: agent runtimes driven inside a sandbox, recorded in the ledger."""

from __future__ import annotations

from realcli.harness.base import (
    HARNESSES,
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


def harness_class(
    kind: str, where: str = "config", field: str | None = "harness.kind"
) -> type[Harness]:
    """The adapter class registered as ``kind``. Raises ConfigError naming ``where``/``field``
    (with the registered names) for an unknown kind."""
    return HARNESSES.get(kind, where, field)


def make_harness(spec: HarnessSpec) -> Harness:
    """The registered adapter for ``spec.kind``. Raises ConfigError for an unknown kind."""
    return harness_class(spec.kind)(spec)
