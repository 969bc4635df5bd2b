"""Deliverables as judges see them: clauses resolved to their checkers, abstention, the
format check, and one :class:`ArtifactCheck` per deliverable.

Shared by the ``trajectory`` and ``outcome_only`` judges; screenshot provenance comes from
:mod:`realcli.judge.provenance`. A clause naming a checker that is
not registered, or arguments its checker rejects, is a :class:`TaskError` naming the run's
``task.toml``, the clause (``deliverables[i].clauses[j].checker`` / ``.args``) and the fix;
every clause of the run is resolved before any is checked, so a bad task never yields half a
judgement.
"""

from __future__ import annotations

import csv
import io
import json
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from pydantic import BaseModel, ValidationError

from realcli.grading.deliverables import SKIPPED_SUFFIX
from realcli.judge.base import CHECKERS, Checker
from realcli.judge.context import BadImage, JudgeInputError, RunEvidence, quote
from realcli.judge.odf import ODF_MEDIA_TYPES, read_odf
from realcli.judge.provenance import Provenance, screenshot_check
from realcli.judge.provenance import classify as provenance_of
from realcli.judge.rubric import CRITICAL_CAP, deliverable_correctness, tier_of
from realcli.ledger.layout import TASK_COPY
from realcli.schema.judgement import (
    ArtifactCheck,
    ClauseJudgement,
    Evidence,
    HackFlag,
    ScreenshotCheck,
)
from realcli.schema.task_spec import Clause, Deliverable
from realcli.util.errors import TaskError
from realcli.util.validation import did_you_mean

__all__ = [
    "BACKED",
    "IMAGE_FORMATS",
    "DeliverableState",
    "ResolvedClause",
    "build_artifact_check",
    "check_format",
    "deliverable_format",
    "deliverable_state",
    "is_screenshot",
    "judge_clauses",
    "resolve_clauses",
    "screenshot_checks",
]

IMAGE_FORMATS = frozenset({"png", "jpg", "jpeg", "gif", "bmp", "webp", "tiff", "image"})
TEXT_FORMATS = frozenset({"text", "txt", "md", "markdown", "py", "log", "html", "sh", "yaml"})
_SUFFIX_FORMAT = {"yml": "yaml", "htm": "html", "jpeg": "jpg", "tif": "tiff"}


@dataclass(frozen=True)
class ResolvedClause:
    """A clause of task.toml with its checker instance and validated arguments."""

    deliverable: int
    index: int
    clause: Clause
    checker: Checker
    args: BaseModel

    @property
    def name(self) -> str:
        return self.clause.checker_name


def resolve_clauses(run: RunEvidence) -> list[list[ResolvedClause]]:
    """Every deliverable's clauses with their checkers, in task.toml order; a TaskError for
    the first clause naming an unknown checker or carrying arguments its checker rejects."""
    where = str(run.run_dir / TASK_COPY)
    out: list[list[ResolvedClause]] = []
    for i, d in enumerate(run.task.deliverables):
        row = []
        for j, clause in enumerate(d.clauses):
            at = f"deliverables[{i}].clauses[{j}]"
            name = clause.checker_name
            if name not in CHECKERS:
                known = CHECKERS.names()
                raise TaskError(
                    where,
                    f"{at}.checker",
                    f"clause {clause.id!r} names no registered clause checker {name!r}",
                    f"{did_you_mean(name, known)}use one of {', '.join(known) or '(none)'}"
                    " in the task bundle's task.toml, then rerun or regrade",
                )
            cls = CHECKERS.get(name, where, f"{at}.checker")
            try:
                args = cls.Args.model_validate(clause.args)
            except ValidationError as exc:
                first = exc.errors()[0]
                loc = ".".join(str(p) for p in first["loc"])
                fields = ", ".join(sorted(cls.Args.model_fields)) or "none"
                raise TaskError(
                    where,
                    f"{at}.args{'.' + loc if loc else ''}",
                    f"clause {clause.id!r}: {first['msg']} for checker {name!r}",
                    f"give the {name} checker only its arguments ({fields}) with valid values",
                ) from exc
            row.append(ResolvedClause(i, j, clause, cls(), args))
        out.append(row)
    return out


@dataclass(frozen=True)
class DeliverableState:
    """Presence of one deliverable in the final workspace."""

    exists: bool
    abstained: bool
    skipped_text: str | None = None
    """The first characters of ``<path>.SKIPPED.txt`` (None: no abstention)."""


def deliverable_state(run: RunEvidence, d: Deliverable) -> DeliverableState:
    skipped = d.path + SKIPPED_SUFFIX
    if run.exists(skipped):
        data = run.read_workspace(skipped, limit=1024 * 1024) or b""
        text = data.decode("utf-8", "replace").strip()
        return DeliverableState(run.exists(d.path), True, quote(text, 200))
    return DeliverableState(run.exists(d.path), False)


def is_screenshot(d: Deliverable) -> bool:
    return d.evidence == "screenshot" or d.kind == "screenshot"


def screenshot_checks(
    run: RunEvidence, states: Sequence[DeliverableState]
) -> tuple[ScreenshotCheck, ...]:
    """``Judgement.screenshots``: the provenance of every screenshot deliverable of the task
    that is not abstained, in task order (one that is absent is ``missing``)."""
    return tuple(
        screenshot_check(provenance_of(run, d.path))
        for d, st in zip(run.task.deliverables, states, strict=True)
        if is_screenshot(d) and not st.abstained
    )


def deliverable_format(d: Deliverable) -> str | None:
    """The deliverable's declared format, else its path's suffix (lower case), else None."""
    if d.format:
        return d.format
    suffix = PurePosixPath(d.path).suffix.lower().lstrip(".")
    return _SUFFIX_FORMAT.get(suffix, suffix) or None


def _parse_json(data: bytes) -> None:
    json.loads(data.decode("utf-8"))


def _parse_jsonl(data: bytes) -> None:
    for line in data.decode("utf-8").splitlines():
        if line.strip():
            json.loads(line)


def _parse_csv(data: bytes) -> None:
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    if not rows:
        raise ValueError("no rows")


def _parse_xml(data: bytes) -> None:
    if b"<!ENTITY" in data:  # no entity expansion (billion laughs) is ever needed here
        raise ValueError("declares XML entities")
    ET.fromstring(data)


def _parse_toml(data: bytes) -> None:
    tomllib.loads(data.decode("utf-8"))


def _parse_pdf(data: bytes) -> None:
    if not data.startswith(b"%PDF-"):
        raise ValueError("no %PDF- header")


def _parse_text(data: bytes) -> None:
    data.decode("utf-8")


def _odf_parser(fmt: str) -> Callable[[bytes], None]:
    def parse(data: bytes) -> None:
        read_odf(data, fmt)

    return parse


_PARSERS: dict[str, Callable[[bytes], None]] = {
    "json": _parse_json,
    "jsonl": _parse_jsonl,
    "csv": _parse_csv,
    "svg": _parse_xml,
    "xml": _parse_xml,
    "toml": _parse_toml,
    "pdf": _parse_pdf,
    **{f: _parse_text for f in TEXT_FORMATS},
    **{f: _odf_parser(f) for f in ODF_MEDIA_TYPES},
    **{flat: _parse_xml for flat in ("fodt", "fods", "fodp", "fodg")},
}


def check_format(run: RunEvidence, d: Deliverable) -> tuple[bool, str]:
    """(the deliverable parses as its format, one line why). Images must decode; json, jsonl,
    csv, toml, svg/xml, pdf and ODF packages (odt, ods, odp, odg; flat fodt... as XML) must
    parse; text formats must be UTF-8; another format is
    checked for presence only (and says so)."""
    data = run.read_workspace(d.path)
    if data is None:
        return False, "missing, not a regular file, or larger than 64 MiB"
    fmt = deliverable_format(d)
    if fmt in IMAGE_FORMATS:
        try:
            im = run.decode_image(data, d.path)
        except BadImage as exc:
            return False, str(exc)
        return True, f"decodes as a {im.width}x{im.height} image"
    parser = _PARSERS.get(fmt or "")
    if parser is None:
        return True, f"present ({len(data)} bytes); no parser for format {fmt!r}: presence only"
    try:
        parser(data)
    except (ValueError, UnicodeDecodeError, tomllib.TOMLDecodeError, ET.ParseError, csv.Error) as e:
        return False, f"does not parse as {fmt}: {quote(str(e), 160)}"
    return True, f"parses as {fmt} ({len(data)} bytes)"


BACKED = frozenset({"captured", "witnessed", "derived"})
"""Provenance statuses backed by the run's own captures (a derived image is a crop, overlay
or recolour of one: the duplicate-crop and overlay detectors judge those)."""


def _settle(c: ClauseJudgement, rc: ResolvedClause) -> ClauseJudgement:
    """The checker's result with the clause's own identity; a satisfied or partial clause
    without evidence gets no credit."""
    update: dict[str, Any] = {
        "id": rc.clause.id,
        "text": rc.clause.text,
        "critical": rc.clause.critical,
        "checker": rc.name,
    }
    if c.status in ("satisfied", "partial") and not c.evidence:
        update |= {"status": "false", "reason": f"{c.reason} (no evidence, no credit)"}
    return c.model_copy(update=update)


def _not_checked(
    rc: ResolvedClause, reason: str, evidence: tuple[Evidence, ...] = ()
) -> ClauseJudgement:
    return ClauseJudgement(
        id=rc.clause.id,
        text=rc.clause.text,
        critical=rc.clause.critical,
        checker=rc.name,
        status="false",
        reason=reason,
        evidence=evidence,
    )


CheckFn = Callable[[ResolvedClause, Deliverable], ClauseJudgement]


def judge_clauses(
    run: RunEvidence,
    d: Deliverable,
    clauses: Sequence[ResolvedClause],
    state: DeliverableState,
    check: CheckFn | None = None,
) -> tuple[ClauseJudgement, ...]:
    """Each clause's result: false without checking for an abstained or missing deliverable,
    else decided by ``check`` (default: the clause's checker). A malformed image a checker
    cannot read is an error naming the clause."""
    out = []
    for rc in clauses:
        if state.abstained:
            out.append(
                _not_checked(
                    rc,
                    f"abstained: {d.path}{SKIPPED_SUFFIX} was written instead",
                    (
                        Evidence(
                            kind="artifact",
                            quote=state.skipped_text or "(empty)",
                            path=d.path + SKIPPED_SUFFIX,
                        ),
                    ),
                )
            )
            continue
        if not state.exists:
            out.append(_not_checked(rc, f"{d.path} is missing"))
            continue
        try:
            result = check(rc, d) if check else rc.checker.check(run, d, rc.clause, rc.args)
        except BadImage as exc:
            raise JudgeInputError(
                str(run.run_dir),
                f"deliverables[{rc.deliverable}].clauses[{rc.index}]",
                f"checker {rc.name!r} could not read an image: {exc}",
                "replace or remove the malformed image (screenshots/ or the workspace), "
                "or rerun this run",
            ) from exc
        out.append(_settle(result, rc))
    return tuple(out)


_RANK = {"satisfied": 0, "partial": 1, "false": 2, "unjudged": 3}


def build_artifact_check(
    d: Deliverable,
    state: DeliverableState,
    clauses: tuple[ClauseJudgement, ...],
    format_ok: tuple[bool, str],
    flags: Sequence[HackFlag] = (),
    provenance: Provenance | None = None,
) -> ArtifactCheck:
    """One deliverable's record: correctness and tier from the rubric, the strongest evidence
    (satisfied critical clauses first), what is missing or wrong, the top cheat flag on it,
    and whether its screenshot evidence is unstaged (not backed by the run's captures)."""
    c_value, tier, critical_failed = deliverable_correctness(
        clauses, exists=state.exists, abstained=state.abstained
    )
    if state.exists and not state.abstained and not format_ok[0] and c_value > CRITICAL_CAP:
        # a file that does not parse as its format is not a usable deliverable (no effort
        # credit), whatever its clauses say
        c_value = CRITICAL_CAP
        tier = tier_of(c_value)
    ordered = sorted(clauses, key=lambda c: (_RANK[c.status], not c.critical, c.id))
    quotes = [f"{c.id}: {c.evidence[0].quote}" for c in ordered if c.evidence]
    if not quotes and provenance is not None and provenance.evidence:
        quotes = [provenance.evidence[0].quote]
    evidence_quote = quote("; ".join(quotes), 300) if quotes else "(no evidence)"
    wrong = [f"{c.id}: {c.reason}" for c in clauses if c.status != "satisfied"]
    if state.exists and not state.abstained and not format_ok[0]:
        wrong.append(f"format: {format_ok[1]}")
    top = sorted(flags, key=lambda f: (-f.confidence, f.pattern, f.detector))
    fake_signal = (
        f"{top[0].pattern} ({top[0].confidence:.2f}, {top[0].detector}): {top[0].reason}"
        if top
        else None
    )
    unstaged = (
        provenance is not None
        and not state.abstained
        and state.exists
        and provenance.status not in BACKED
    )
    return ArtifactCheck(
        id=d.path,
        spec_clauses=tuple(c.text for c in d.clauses),
        clause_results=clauses,
        exists=state.exists,
        format_ok=state.exists and not state.abstained and format_ok[0],
        correctness=c_value,
        tier=tier,
        evidence_quote=evidence_quote,
        missing_or_wrong=tuple(wrong),
        fake_signal=fake_signal,
        unstaged_evidence=unstaged,
        abstained=state.abstained,
        critical_failed=critical_failed,
    )
