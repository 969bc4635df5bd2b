"""``checker = "value"``: a value in the deliverable (a JSON pointer into a structured file,
or a regex over a text file) compared with a hidden anchor (``tests/<task.anchors>``)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from pydantic import Field, field_validator, model_validator

from realcli.judge.base import CHECKERS
from realcli.judge.checkers.common import (
    BadPointer,
    ClauseChecker,
    FormatError,
    args_error,
    deliverable_format,
    judgement,
    parse,
    pointer_problem,
    read_file,
    resolve_pointer,
)
from realcli.judge.context import RunEvidence, quote
from realcli.judge.odf import ODF_MEDIA_TYPES
from realcli.schema.base import Frozen
from realcli.schema.judgement import ClauseJudgement, ClauseStatus, Evidence
from realcli.schema.task_spec import Clause, Deliverable, TaskSpec

__all__ = ["ValueArgs", "ValueChecker", "compare"]

_STRUCTURED = ("json", "toml", "yaml", "csv")


class ValueArgs(Frozen):
    pointer: str | None = Field(
        None,
        description="RFC 6901 JSON pointer into the parsed deliverable (JSON/TOML/YAML; "
        "CSV: /<row>/<column>)",
    )
    regex: str | None = Field(
        None,
        description="a regular expression searched in the text; its group (the first "
        "one when it has groups) is the value",
    )
    group: int | str | None = Field(None, description="the regex group to take")
    anchor: str = Field(
        min_length=1,
        description="the anchor's id: a key of the anchors file (or a JSON pointer into it)",
    )
    tolerance: float = Field(0.0, ge=0, description="numbers: allowed absolute difference")
    rel_tolerance: float = Field(0.0, ge=0, description="numbers: allowed relative difference")
    partial_tolerance: float | None = Field(
        None, ge=0, description="numbers: an absolute difference up to this is partial"
    )
    unordered: bool = Field(False, description="lists: compare as multisets (order ignored)")
    ignore_case: bool = Field(False, description="strings: compare case-insensitively")

    @field_validator("pointer")
    @classmethod
    def _pointer(cls, v: str | None) -> str | None:
        if v is not None and (problem := pointer_problem(v)):
            raise args_error(problem, "use '' or '/key/0/sub' (RFC 6901)")
        return v

    @field_validator("regex")
    @classmethod
    def _regex(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                re.compile(v)
            except re.error as exc:
                raise args_error(f"regex {v!r} does not compile ({exc})", "fix the regex") from exc
        return v

    @model_validator(mode="after")
    def _one_source(self) -> ValueArgs:
        if (self.pointer is None) == (self.regex is None):
            raise args_error(
                "a value clause needs exactly one of pointer or regex",
                "set pointer (JSON/TOML/YAML/CSV) or regex (text)",
            )
        if self.group is not None and self.regex is None:
            raise args_error("group applies to regex only", "drop group")
        if self.partial_tolerance is not None and self.partial_tolerance < self.tolerance:
            raise args_error(
                "partial_tolerance is below tolerance", "set partial_tolerance >= tolerance"
            )
        return self


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _canonical(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def compare(measured: Any, anchor: Any, a: ValueArgs) -> tuple[ClauseStatus, str]:
    """(status, why) of ``measured`` against ``anchor`` under the clause's tolerances."""
    if _is_number(anchor):
        if isinstance(measured, str):
            try:
                measured = float(measured.strip().replace(",", ""))
            except ValueError:
                return "false", f"{measured!r} is not a number"
        if not _is_number(measured) or not math.isfinite(measured):
            return "false", f"{measured!r} is not a finite number"
        diff = abs(measured - anchor)
        allowed = max(a.tolerance, a.rel_tolerance * abs(anchor))
        if diff <= allowed + 1e-12:
            return "satisfied", f"|{measured} - {anchor}| = {diff:g} <= {allowed:g}"
        if a.partial_tolerance is not None and diff <= a.partial_tolerance + 1e-12:
            return "partial", f"|{measured} - {anchor}| = {diff:g} <= {a.partial_tolerance:g}"
        return "false", f"|{measured} - {anchor}| = {diff:g} > {allowed:g}"
    if isinstance(measured, str) and isinstance(anchor, str):
        measured = measured.strip() if a.regex is not None else measured
        if a.ignore_case:
            measured, anchor = measured.casefold(), anchor.casefold()
    if a.unordered and isinstance(measured, list) and isinstance(anchor, list):
        same = sorted(map(_canonical, measured)) == sorted(map(_canonical, anchor))
    else:
        same = _canonical(measured) == _canonical(anchor)
    if same:
        return "satisfied", "equal" + (" (as multisets)" if a.unordered else "")
    return "false", "not equal" + (" (as multisets)" if a.unordered else "")


@CHECKERS.register("value")
class ValueChecker(ClauseChecker):
    """satisfied: the measured value equals the anchor (numbers: within ``tolerance`` or
    ``rel_tolerance``); partial: within ``partial_tolerance``; false otherwise or when the
    value cannot be read. No anchors (the bundle is not on disk, or differs from the one the
    run used): unjudged, never satisfied."""

    name = "value"
    Args = ValueArgs

    def clause_problems(
        self, task: TaskSpec, deliverable: Deliverable, clause: Clause, args: Any
    ) -> list[tuple[str, str, str]]:
        problems = []
        if task.anchors is None:
            problems.append(
                (
                    "args.anchor",
                    "the task declares no anchors file",
                    "put the value in tests/anchors.json and set anchors = 'anchors.json'",
                )
            )
        fmt = deliverable_format(deliverable)
        if args.pointer is not None and fmt not in _STRUCTURED:
            problems.append(
                ("args.pointer", f"a {fmt} file has no JSON pointers", "use regex instead")
            )
        if args.regex is not None and fmt in ("png", "jpeg"):  # an ODF package: its text
            problems.append(("args.regex", f"a {fmt} file is not text", "drop the clause"))
        return problems

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        a: ValueArgs = args
        anchors = run.anchors
        if anchors is None:
            return judgement(
                clause,
                self.name,
                "unjudged",
                "no hidden anchors: the task bundle is not on disk or differs from the one "
                "the run used",
            )
        try:
            expected = (
                resolve_pointer(anchors, a.anchor)
                if a.anchor.startswith("/")
                else anchors[a.anchor]
            )
        except (BadPointer, KeyError):
            return judgement(
                clause, self.name, "unjudged", f"anchor {a.anchor!r} is not in the anchors file"
            )
        rel = deliverable.path
        f = read_file(run, rel)
        if f.data is None:
            return judgement(clause, self.name, "false", f.problem or f"{rel} is missing")
        where = a.pointer if a.pointer is not None else f"/{a.regex}/"
        line: int | None = None
        try:
            if a.pointer is not None:
                doc = parse(run, rel, deliverable_format(deliverable), f.data).doc
                measured = resolve_pointer(doc, a.pointer)
            else:
                fmt = deliverable_format(deliverable)
                parsed = parse(run, rel, fmt if fmt in ODF_MEDIA_TYPES else "text", f.data)
                text = parsed.text if parsed.text is not None else parsed.doc
                m = re.search(a.regex or "", text, re.MULTILINE)
                if m is None:
                    return judgement(clause, self.name, "false", f"{rel}: no match for {where}")
                group = a.group if a.group is not None else (1 if m.re.groups else 0)
                try:
                    measured = m.group(group)
                except (IndexError, KeyError):
                    return judgement(clause, self.name, "false", f"{where} has no group {group}")
                line = text.count("\n", 0, m.start()) + 1
        except FormatError as exc:
            return judgement(clause, self.name, "false", f"{rel}: {exc}")
        except BadPointer as exc:
            return judgement(clause, self.name, "false", f"{rel}: {exc}")
        status, why = compare(measured, expected, a)
        shown = measured if isinstance(measured, str) else _canonical(measured)
        evidence = [
            Evidence(kind="value", quote=quote(f"{rel} {where} = {shown}"), path=rel, line=line),
            Evidence(kind="value", quote=quote(f"anchor {a.anchor} = {_canonical(expected)}")),
        ]
        return judgement(
            clause, self.name, status, f"{where} vs anchor {a.anchor}: {why}", evidence
        )
