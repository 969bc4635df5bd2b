"""What the built-in clause checkers share: a base class with a clause-level validation hook,
the ClauseJudgement constructor, workspace file reading with a precise reason, format
parsing and RFC 6901 JSON pointers."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import tomllib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from pydantic_core import PydanticCustomError

from realcli.judge.base import Checker
from realcli.judge.context import MAX_IMAGE_BYTES, BadImage, RunEvidence
from realcli.judge.odf import ODF_MEDIA_TYPES, OdfError, read_odf
from realcli.schema.judgement import ClauseJudgement, ClauseStatus, Evidence
from realcli.schema.task_spec import Clause, Deliverable, TaskSpec

__all__ = [
    "FORMATS",
    "BadPointer",
    "ClauseChecker",
    "FormatError",
    "Parsed",
    "WorkspaceFile",
    "args_error",
    "deliverable_format",
    "judgement",
    "parse",
    "pointer_problem",
    "read_file",
    "resolve_pointer",
]

FORMATS: dict[str, tuple[str, ...]] = {
    "json": (".json",),
    "csv": (".csv",),
    "png": (".png",),
    "jpeg": (".jpg", ".jpeg"),
    "svg": (".svg",),
    "xml": (".xml", ".fodt", ".fods", ".fodp", ".fodg"),
    "odt": (".odt",),
    "ods": (".ods",),
    "odp": (".odp",),
    "odg": (".odg",),
    "toml": (".toml",),
    "yaml": (".yaml", ".yml"),
    "text": (".txt", ".md"),
}
"""The formats the format check parses, with the path suffixes that imply them (any other
suffix is checked as utf-8 text)."""
_ALIASES = {
    "jpg": "jpeg",
    "yml": "yaml",
    "md": "text",
    "txt": "text",
    **{flat: "xml" for flat in ("fodt", "fods", "fodp", "fodg")},  # flat ODF is one XML file
}


class ClauseChecker(Checker):
    """A built-in checker: besides ``Args``, it may reject a clause whose shape it cannot
    decide (``clause_problems``), so ``realcli tasks check`` catches it before any run."""

    def clause_problems(
        self, task: TaskSpec, deliverable: Deliverable, clause: Clause, args: Any
    ) -> list[tuple[str, str, str]]:
        """(field below the clause, problem, fix) for each problem; [] when it is fine."""
        return []


def args_error(problem: str, fix: str) -> PydanticCustomError:
    """A validation error of a checker's ``Args`` whose fix the one-line message uses."""
    return PydanticCustomError("clause_args", "{problem}", {"problem": problem, "fix": fix})


def judgement(
    clause: Clause,
    checker: str,
    status: ClauseStatus,
    reason: str,
    evidence: tuple[Evidence, ...] | list[Evidence] = (),
) -> ClauseJudgement:
    """The clause's judgement; a satisfied clause without evidence is false (no evidence, no
    credit)."""
    ev = tuple(evidence)
    if status == "satisfied" and not ev:
        status, reason = "false", f"{reason} (no evidence recorded, so no credit)"
    return ClauseJudgement(
        id=clause.id,
        text=clause.text,
        critical=clause.critical,
        checker=checker,
        status=status,
        reason=reason,
        evidence=ev,
    )


@dataclass(frozen=True)
class WorkspaceFile:
    """A workspace file read without following links: ``data`` None with ``problem`` set
    when it cannot be used."""

    rel: str
    data: bytes | None
    problem: str | None


def read_file(run: RunEvidence, rel: str, limit: int = MAX_IMAGE_BYTES) -> WorkspaceFile:
    ws = run.workspace
    if ws is None:
        return WorkspaceFile(rel, None, "the run folder has no workspace")
    try:
        st = os.lstat(ws / rel)
    except FileNotFoundError:
        return WorkspaceFile(rel, None, f"{rel} does not exist")
    except OSError as exc:
        return WorkspaceFile(rel, None, f"{rel}: {exc.strerror}")
    if stat.S_ISLNK(st.st_mode):
        return WorkspaceFile(rel, None, f"{rel} is a symbolic link, not a file")
    if not stat.S_ISREG(st.st_mode):
        return WorkspaceFile(rel, None, f"{rel} is not a regular file")
    if st.st_size > limit:
        return WorkspaceFile(rel, None, f"{rel} is {st.st_size} bytes, over the {limit} limit")
    data = run.read_workspace(rel, limit)
    if data is None:  # a link in a parent folder, or it changed under us
        return WorkspaceFile(rel, None, f"{rel} is not a regular file inside the workspace")
    return WorkspaceFile(rel, data, None)


def deliverable_format(deliverable: Deliverable) -> str:
    """The deliverable's declared format, or the one its suffix implies (text otherwise)."""
    if deliverable.format:
        return _ALIASES.get(deliverable.format, deliverable.format)
    suffix = PurePosixPath(deliverable.path).suffix.lower()
    return next((f for f, sufs in FORMATS.items() if suffix in sufs), "text")


@dataclass(frozen=True)
class Parsed:
    """A file parsed as its format: ``doc`` the data (JSON/TOML/YAML value, CSV rows as
    dicts, the XML root, an ODF package's content.xml root, the text, the image), ``summary``
    one line a reader can check, ``text`` what a regex reads when it is not the file's bytes
    (an ODF package's paragraphs)."""

    doc: Any
    summary: str
    columns: tuple[str, ...] = ()
    text: str | None = None


class FormatError(ValueError):
    """The bytes do not parse as the format (the message says where)."""


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"not utf-8 text (byte {exc.start})") from exc


def parse(run: RunEvidence, rel: str, fmt: str, data: bytes) -> Parsed:
    """Parse ``data`` as ``fmt``; :class:`FormatError` with the reason when it does not."""
    n = len(data)
    if fmt == "json":
        try:
            doc = json.loads(_text(data))
        except json.JSONDecodeError as exc:
            raise FormatError(f"not JSON (line {exc.lineno} col {exc.colno}: {exc.msg})") from exc
        return Parsed(doc, f"JSON {type(doc).__name__}, {n} bytes")
    if fmt == "toml":
        try:
            doc = tomllib.loads(_text(data))
        except tomllib.TOMLDecodeError as exc:
            raise FormatError(f"not TOML ({exc})") from exc
        return Parsed(doc, f"TOML table, {n} bytes")
    if fmt == "yaml":
        try:
            import yaml
        except ImportError as exc:  # PyYAML comes with Hydra; a bare install may lack it
            raise FormatError("YAML cannot be parsed here (PyYAML is not installed)") from exc
        try:
            doc = yaml.safe_load(_text(data))
        except yaml.YAMLError as exc:
            raise FormatError(f"not YAML ({str(exc).splitlines()[0]})") from exc
        return Parsed(doc, f"YAML {type(doc).__name__}, {n} bytes")
    if fmt == "csv":
        text = _text(data)
        try:
            rows = list(csv.DictReader(io.StringIO(text, newline="")))
        except csv.Error as exc:
            raise FormatError(f"not CSV ({exc})") from exc
        header = next(csv.reader(io.StringIO(text, newline="")), [])
        if not header:
            raise FormatError("not CSV (no header row)")
        ragged = next((i for i, r in enumerate(rows, 2) if None in r or None in r.values()), None)
        if ragged is not None:
            raise FormatError(f"not CSV (row {ragged} has a different number of fields)")
        return Parsed(rows, f"CSV, {len(rows)} rows, columns {', '.join(header)}", tuple(header))
    if fmt in ("png", "jpeg"):
        magic = {"png": b"\x89PNG\r\n\x1a\n", "jpeg": b"\xff\xd8\xff"}[fmt]
        if not data.startswith(magic):
            raise FormatError(f"not a {fmt.upper()} file (wrong signature)")
        try:
            im = run.decode_image(data, rel)
        except BadImage as exc:
            raise FormatError(str(exc)) from exc
        return Parsed(im, f"{fmt.upper()} {im.width}x{im.height}, {n} bytes")
    if fmt in ("svg", "xml"):
        import xml.etree.ElementTree as ET  # expat >= 2.4.1 refuses entity-expansion bombs

        text = _text(data)
        if "<!ENTITY" in text:
            raise FormatError("XML with entity declarations is not accepted")
        try:
            root = ET.fromstring(text)
        except ET.ParseError as exc:
            raise FormatError(f"not XML ({exc})") from exc
        tag = root.tag.rsplit("}", 1)[-1]
        if fmt == "svg" and tag != "svg":
            raise FormatError(f"not SVG (root element <{tag}>)")
        return Parsed(root, f"{fmt.upper()} <{tag}> with {len(root)} children, {n} bytes")
    if fmt in ODF_MEDIA_TYPES:
        try:
            pkg = read_odf(data, fmt)
        except OdfError as exc:
            raise FormatError(f"not an ODF {fmt} package ({exc})") from exc
        return Parsed(pkg.content, pkg.summary, text=pkg.text)
    text = _text(data)  # text, md, and any other declared format: utf-8 text
    return Parsed(text, f"text, {len(text.splitlines())} lines, {n} bytes")


class BadPointer(ValueError):
    """A JSON pointer that is malformed or names nothing in the document."""


def resolve_pointer(doc: Any, pointer: str) -> Any:
    """The value ``pointer`` (RFC 6901) names in ``doc``; :class:`BadPointer` otherwise."""
    if pointer == "":
        return doc
    if not pointer.startswith("/"):
        raise BadPointer(f"JSON pointer {pointer!r} must be empty or start with '/'")
    current = doc
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(current, dict):
            if token not in current:
                raise BadPointer(f"{pointer}: no key {token!r}")
            current = current[token]
        elif isinstance(current, list):
            if token == "-" or not token.isdigit() or (token != "0" and token.startswith("0")):
                raise BadPointer(f"{pointer}: {token!r} is not an array index")
            if int(token) >= len(current):
                raise BadPointer(f"{pointer}: index {token} past the end ({len(current)} items)")
            current = current[int(token)]
        else:
            raise BadPointer(f"{pointer}: {token!r} is inside a {type(current).__name__}")
    return current


def pointer_problem(pointer: str) -> str | None:
    """Why ``pointer`` is not a syntactically valid RFC 6901 pointer, or None."""
    if pointer and not pointer.startswith("/"):
        return f"JSON pointer {pointer!r} must be empty or start with '/'"
    if "~" in pointer.replace("~0", "").replace("~1", ""):
        return f"JSON pointer {pointer!r} has a '~' not followed by 0 or 1"
    return None
