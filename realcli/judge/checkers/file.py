"""``checker = "file"``: the deliverable exists as a regular file, parses as its format, and
meets the optional size, key, row and JSON Schema requirements."""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import Field, field_validator

from realcli.judge.base import CHECKERS
from realcli.judge.checkers.common import (
    ClauseChecker,
    FormatError,
    deliverable_format,
    judgement,
    parse,
    read_file,
)
from realcli.judge.context import RunEvidence, quote
from realcli.judge.odf import ODF_MEDIA_TYPES
from realcli.schema.base import Frozen
from realcli.schema.judgement import ClauseJudgement, Evidence
from realcli.schema.task_spec import Clause, Deliverable, TaskSpec, bundle_relative
from realcli.util.bounded import MIB, BadFile, read_json_file

__all__ = ["FileArgs", "FileChecker"]


class FileArgs(Frozen):
    schema_: str | None = Field(
        None,
        alias="schema",
        description="a JSON Schema file under the bundle's tests/ the parsed document must "
        "validate against (JSON, TOML, YAML; CSV rows as a list of objects)",
    )
    min_bytes: int | None = Field(None, ge=0, description="the file has at least this many bytes")
    required_keys: tuple[str, ...] = Field(
        (), description="top-level keys of the object (JSON/TOML/YAML), or CSV columns"
    )
    min_rows: int | None = Field(
        None, ge=0, description="CSV data rows, items of a top-level array, or text lines"
    )

    @field_validator("schema_")
    @classmethod
    def _inside_tests(cls, v: str | None) -> str | None:
        if v is None:
            return v
        return bundle_relative(v, "schema", "name a JSON Schema file under tests/")


@CHECKERS.register("file")
class FileChecker(ClauseChecker):
    """satisfied: a regular file (never a link) that parses as ``deliverable.format`` (or
    its suffix's format) and meets every argument; false otherwise. A schema the run cannot
    see (the bundle on disk is not the one the run used) leaves the clause ``unjudged``."""

    name = "file"
    Args = FileArgs

    def clause_problems(
        self, task: TaskSpec, deliverable: Deliverable, clause: Clause, args: Any
    ) -> list[tuple[str, str, str]]:
        fmt = deliverable_format(deliverable)
        problems = []
        structured = fmt in ("json", "toml", "yaml", "csv")
        if args.required_keys and not structured:
            problems.append(
                ("args.required_keys", f"a {fmt} file has no keys", "drop required_keys")
            )
        if args.schema_ and not structured:
            problems.append(("args.schema", f"a {fmt} file has no schema", "drop schema"))
        if args.min_rows is not None and fmt in (
            "png",
            "jpeg",
            "svg",
            "xml",
            "toml",
            *ODF_MEDIA_TYPES,
        ):
            problems.append(("args.min_rows", f"a {fmt} file has no rows", "drop min_rows"))
        return problems

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        a: FileArgs = args
        rel = deliverable.path
        f = read_file(run, rel)
        if f.data is None:
            return judgement(clause, self.name, "false", f.problem or f"{rel} is missing")
        fmt = deliverable_format(deliverable)
        try:
            parsed = parse(run, rel, fmt, f.data)
        except FormatError as exc:
            return judgement(clause, self.name, "false", f"{rel}: {exc}")
        sha = hashlib.sha256(f.data).hexdigest()
        evidence = [Evidence(kind="file", quote=f"{rel}: {parsed.summary}", path=rel, sha256=sha)]
        first = _first_line(f.data)
        if first is not None and fmt not in ("png", "jpeg", *ODF_MEDIA_TYPES):
            evidence.append(Evidence(kind="artifact", quote=quote(first), path=rel, line=1))
        doc = parsed.doc
        problems: list[str] = []
        if a.min_bytes is not None and len(f.data) < a.min_bytes:
            problems.append(f"{len(f.data)} bytes, fewer than {a.min_bytes}")
        if a.required_keys:
            keys = (
                set(parsed.columns) if fmt == "csv" else set(doc) if isinstance(doc, dict) else ()
            )
            missing = [k for k in a.required_keys if k not in keys]
            if missing:
                problems.append(f"missing key(s) {', '.join(missing)}")
            else:
                evidence.append(
                    Evidence(kind="value", quote=f"keys present: {', '.join(a.required_keys)}")
                )
        if a.min_rows is not None:
            rows = _rows(doc)
            if rows is None:
                problems.append(f"no rows to count in a {type(doc).__name__}")
            elif rows < a.min_rows:
                problems.append(f"{rows} rows, fewer than {a.min_rows}")
            else:
                evidence.append(Evidence(kind="value", quote=f"{rows} rows (>= {a.min_rows})"))
        if a.schema_:
            path = run.hidden_file(a.schema_)
            if path is None:
                return judgement(
                    clause,
                    self.name,
                    "unjudged",
                    f"schema tests/{a.schema_} is not available (the task bundle on disk is "
                    "missing or differs from the one the run used)",
                    evidence,
                )
            try:
                schema = read_json_file(path, 16 * MIB)
            except (OSError, BadFile) as exc:
                return judgement(clause, self.name, "unjudged", f"schema {path}: {exc}", evidence)
            error = _schema_error(schema, doc)
            if error is not None:
                problems.append(f"does not validate against tests/{a.schema_}: {error}")
            else:
                evidence.append(Evidence(kind="value", quote=f"validates against {a.schema_}"))
        if problems:
            return judgement(clause, self.name, "false", f"{rel}: {'; '.join(problems)}", evidence)
        return judgement(clause, self.name, "satisfied", f"{rel}: {parsed.summary}", evidence)


def _first_line(data: bytes) -> str | None:
    try:
        text = data[:4096].decode("utf-8")
    except UnicodeDecodeError:
        return None
    line = text.split("\n", 1)[0].strip()
    return line or None


def _rows(doc: Any) -> int | None:
    if isinstance(doc, list):
        return len(doc)
    if isinstance(doc, str):
        return len(doc.splitlines())
    return None


def _schema_error(schema: Any, doc: Any) -> str | None:
    """The first validation error's path and message, or None when ``doc`` validates."""
    import jsonschema

    try:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return f"the schema itself is invalid ({exc.message})"
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(map(str, e.path)))
    if not errors:
        return None
    err = errors[0]
    where = "/" + "/".join(str(p) for p in err.absolute_path)
    return quote(f"at {where}: {err.message}", 200)
