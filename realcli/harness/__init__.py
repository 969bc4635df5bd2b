"""Harness adapters: agent runtimes driven inside a sandbox, recorded in the ledger."""

from realcli.harness.base import Harness, HarnessContext, HarnessOutcome, OutcomeReason
from realcli.harness.builtin import BuiltinHarness
from realcli.harness.relay import ModelCallRelay
from realcli.schema.run_spec import HarnessSpec

__all__ = [
    "HARNESSES",
    "BuiltinHarness",
    "Harness",
    "HarnessContext",
    "HarnessOutcome",
    "ModelCallRelay",
    "OutcomeReason",
    "make_harness",
]

HARNESSES: dict[str, type[Harness]] = {"builtin": BuiltinHarness}
"""Harness adapters by registry name (``harness.kind`` in config)."""


def make_harness(spec: HarnessSpec) -> Harness:
    """The registered adapter for ``spec.kind``. Raises KeyError for unknown kinds."""
    try:
        cls = HARNESSES[spec.kind]
    except KeyError:
        raise KeyError(
            f"unknown harness kind {spec.kind!r}; registered: {sorted(HARNESSES)}"
        ) from None
    return cls(spec)
