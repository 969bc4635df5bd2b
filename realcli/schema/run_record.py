"""Typed records of what the runner writes first in a run folder: ``spec.json``
(:class:`RunRecord`) and the ``spec`` of the ledger's header line (:class:`RecordedSpec`; the
header line itself is :class:`~realcli.schema.events.HeaderEvent`).

``show``, ``regrade`` and the warehouse ingest read these instead of indexing dicts by string
keys. They are *readers'* records: the fields the readers use are typed and required where a
reader needs them, every other key (the rest of the resolved, redacted :class:`RunSpec`, keys a
newer realcli adds) is kept as it is, so a folder written by another version still loads.
The readers (:mod:`realcli.ledger.run_records`) turn a validation error into one error naming
the file, the field (:func:`describe_record_error`) and the fix.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt, ValidationError

__all__ = [
    "RecordedHarness",
    "RecordedMode",
    "RecordedModel",
    "RecordedProtocol",
    "RecordedSpec",
    "RecordedTask",
    "RunRecord",
    "describe_record_error",
]


class _Record(BaseModel):
    # Other keys are kept (the full spec, newer fields); numbers in text fields read as text.
    model_config = ConfigDict(extra="allow", frozen=True, coerce_numbers_to_str=True)


class RecordedModel(_Record):
    name: str
    backend: str | None = None
    model_id: str | None = None


class RecordedHarness(_Record):
    name: str
    kind: str | None = None
    version: str | None = None


class RecordedMode(_Record):
    name: str
    channels: tuple[str, ...] | None = None


class RecordedProtocol(_Record):
    name: str
    rounds: StrictInt | None = None


class RecordedSpec(_Record):
    """The resolved, redacted :class:`~realcli.schema.run_spec.RunSpec` a run recorded."""

    model: RecordedModel
    harness: RecordedHarness
    mode: RecordedMode
    protocol: RecordedProtocol
    seed: StrictInt

    def section(self, name: str) -> dict[str, Any]:
        """Another top-level section (``sandbox``, ``paths``...) as recorded; {} without it."""
        value = (self.model_extra or {}).get(name)
        return value if isinstance(value, dict) else {}


class RecordedTask(_Record):
    id: str
    version: str | None = None
    kind: str | None = None
    category: str | None = None
    digest: str | None = None


class RunRecord(_Record):
    """``spec.json``: run key, experiment, the task's metadata and the recorded spec."""

    run_key: str
    experiment: str
    task: RecordedTask
    spec: RecordedSpec


_EXPECTED = {
    "int_type": "int",
    "string_type": "str",
    "model_type": "object",
    "dict_type": "object",
    "tuple_type": "list",
    "list_type": "list",
}


def describe_record_error(exc: ValidationError) -> tuple[str | None, str]:
    """(dotted field, problem) of the first error, as ``missing`` or ``expected int, found
    'one'``."""
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or None
    value = err.get("input")
    if err["type"] == "missing" or value is None:
        return field, "missing"
    expected = _EXPECTED.get(err["type"])
    if expected is not None:
        return field, f"expected {expected}, found {value!r:.60}"
    return field, f"{err['msg']} (found {value!r:.60})"
