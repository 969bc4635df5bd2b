"""Read the typed records of a run folder (:mod:`realcli.schema.run_record`): ``spec.json`` and
the ledger header's ``spec``. A file that does not fit raises :class:`RunRecordError` naming the
file, the field and the fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.ledger.layout import SPEC
from realcli.schema.run_record import RecordedSpec, RunRecord, describe_record_error
from realcli.util.bounded import MIB, BadFile, read_json_file
from realcli.util.errors import RealcliError

__all__ = [
    "FIX_SPEC_JSON",
    "MAX_SPEC_BYTES",
    "RunRecordError",
    "load_run_record",
    "read_run_record",
    "recorded_spec",
]

FIX_SPEC_JSON = "restore spec.json as the runner wrote it, or delete the folder and rerun"
_FIX_HEADER = "restore the ledger as the runner wrote it, or delete the folder and rerun"
MAX_SPEC_BYTES = 16 * MIB


class RunRecordError(RealcliError):
    """A ``spec.json`` or ledger header a reader cannot use."""


def read_run_record(run_dir: Path) -> RunRecord:
    """``run_dir/spec.json`` (read bounded: no link followed, sizes and nesting capped)."""
    path = run_dir / SPEC
    try:
        doc = read_json_file(path, MAX_SPEC_BYTES)
    except FileNotFoundError:
        raise RunRecordError(str(path), None, "missing", FIX_SPEC_JSON) from None
    except BadFile as exc:
        raise RunRecordError(str(path), exc.field, exc.problem, FIX_SPEC_JSON) from None
    return load_run_record(doc, path)


def load_run_record(doc: Any, path: Path) -> RunRecord:
    """``doc`` (the parsed ``spec.json`` at ``path``) as a :class:`RunRecord`."""
    if not isinstance(doc, dict):
        raise RunRecordError(str(path), None, "not a JSON object", FIX_SPEC_JSON)
    try:
        return RunRecord.model_validate(doc)
    except ValidationError as exc:
        field, problem = describe_record_error(exc)
        raise RunRecordError(str(path), field, problem, FIX_SPEC_JSON) from None


def recorded_spec(spec: dict[str, Any], ledger: Path) -> RecordedSpec:
    """The ledger header's ``spec`` (from the ledger at ``ledger``) as a :class:`RecordedSpec`."""
    try:
        return RecordedSpec.model_validate(spec)
    except ValidationError as exc:
        field, problem = describe_record_error(exc)
        where = f"line 1: spec.{field}" if field else "line 1: spec"
        raise RunRecordError(str(ledger), where, problem, _FIX_HEADER) from None
