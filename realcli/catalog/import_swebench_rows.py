"""SWE-bench rows as the dataset publishes them, read and checked field by field.

Sources: a JSONL file (one row a line, as ``swebench`` and the dataset card's examples write
them), a parquet file (the Hub's ``data/<split>-*.parquet``), an Arrow file (``datasets``'
``save_to_disk`` folder: ``data-*.arrow``, Arrow IPC stream), or a folder of any of these.
Parquet and Arrow are read with polars; a JSONL line is decoded on its own with :mod:`json`,
so one malformed line is that row's problem and never stops the others (polars' ndjson reader
fails the whole file on one bad line and unifies types across rows).

:func:`check_row` collects every problem of a row in one pass: each names the row (file,
line or index, ``instance_id``), the field and the fix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from realcli.schema.task_spec import TASK_ID_PATTERN

__all__ = ["RawRow", "RowProblem", "SwebenchRow", "check_row", "read_rows"]

_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_SHA = re.compile(r"^[0-9a-fA-F]{7,40}$")
_TASK_ID = re.compile(TASK_ID_PATTERN)
_NODE_ID = re.compile(r"^[^\s:][^:]*\.py(::[^\n]+)?$")


@dataclass(frozen=True)
class RawRow:
    where: str
    """``rows.jsonl:3`` or ``data-00000-of-00001.arrow[2]``."""
    data: dict[str, Any] | None
    problem: str | None = None
    """Why the row could not be read at all (then ``data`` is None)."""


@dataclass(frozen=True)
class RowProblem:
    where: str
    instance_id: str | None
    field: str | None
    problem: str
    fix: str

    def line(self) -> str:
        who = f" ({self.instance_id})" if self.instance_id else ""
        at = f": {self.field}" if self.field else ""
        return f"{self.where}{who}{at}: {self.problem} (fix: {self.fix})"


@dataclass(frozen=True)
class SwebenchRow:
    where: str
    instance_id: str
    task_id: str
    repo: str
    base_commit: str
    patch: str
    test_patch: str
    problem_statement: str
    fail_to_pass: tuple[str, ...]
    pass_to_pass: tuple[str, ...]
    version: str | None
    extra: dict[str, str] = field(default_factory=dict)
    """The row's other fields (hints_text, created_at, environment_setup_commit, ...)."""


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if path.is_dir():  # not *.json: datasets' dataset_info/state/dataset_dict.json live there
        suffixes = (".jsonl", ".parquet", ".arrow")
        return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in suffixes)
    return []


def _jsonl(path: Path) -> Iterator[RawRow]:
    with path.open(encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                yield RawRow(where, None, f"not a JSON object ({exc.msg} at column {exc.colno})")
                continue
            if not isinstance(data, dict):
                yield RawRow(where, None, "not a JSON object (a row is {field: value, ...})")
                continue
            yield RawRow(where, data)


def _table(path: Path) -> Iterator[RawRow]:
    import polars as pl

    try:
        if path.suffix == ".parquet":
            frame = pl.read_parquet(path)
        else:
            try:
                frame = pl.read_ipc_stream(path)  # datasets' save_to_disk writes the stream form
            except Exception:
                frame = pl.read_ipc(path)
    except Exception as exc:
        yield RawRow(str(path), None, f"not a readable {path.suffix[1:]} table ({exc})")
        return
    for i, data in enumerate(frame.iter_rows(named=True)):
        yield RawRow(f"{path}[{i}]", data)


def read_rows(paths: list[Path]) -> Iterator[RawRow]:
    """Every row of every source, in order; a source that is missing or holds no table is one
    unreadable row naming it."""
    for path in paths:
        files = _files(path)
        if not files:
            what = "no such file or folder" if not path.exists() else "holds no rows file"
            yield RawRow(
                str(path), None, f"{what} (give a .jsonl/.parquet/.arrow file or a folder of them)"
            )
        for file in files:
            yield from _jsonl(file) if file.suffix in (".jsonl", ".json") else _table(file)


def _ids(value: Any, name: str, add: Any) -> tuple[str, ...]:
    """FAIL_TO_PASS / PASS_TO_PASS: a JSON-encoded list of pytest node ids (or the list)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            add(name, f"not a JSON-encoded list ({value[:60]!r})", 'write ["path.py::test", ...]')
            return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        add(name, "not a list of test ids", 'write ["path.py::test", ...]')
        return ()
    bad = [v for v in value if not _NODE_ID.match(v) or v.startswith("/") or ".." in v.split("/")]
    if bad:
        add(
            name,
            f"{len(bad)} id(s) are not pytest node ids relative to the repo: {bad[:3]}",
            "use pytest ids (tests/test_x.py::test_y); rows of repos graded by another runner"
            " (Django's runtests.py, sympy's bin/test) cannot be imported as pytest sets",
        )
    if len(set(value)) != len(value):
        add(name, "lists a test id twice", "list each id once")
    return tuple(value)


def _task_id(instance_id: str) -> str:
    return re.sub(r"[^a-z0-9._-]+", "-", instance_id.lower()).strip("._-")[:64]


def check_row(raw: RawRow) -> SwebenchRow | list[RowProblem]:
    """The row, or every problem it has."""
    if raw.data is None:
        return [RowProblem(raw.where, None, None, raw.problem or "unreadable", "fix the row")]
    data = raw.data
    iid = data.get("instance_id")
    instance = iid if isinstance(iid, str) and iid.strip() else None
    problems: list[RowProblem] = []

    def add(name: str, problem: str, fix: str) -> None:
        problems.append(RowProblem(raw.where, instance, name, problem, fix))

    def text(name: str, *, required: bool = True) -> str:
        value = data.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                add(name, "missing or empty", f"give the row its {name}")
            return ""
        if not isinstance(value, str):
            add(name, f"not text ({type(value).__name__})", f"write {name} as a string")
            return ""
        return value

    text("instance_id")
    task_id = _task_id(instance or "")
    if instance and not _TASK_ID.match(task_id):
        add("instance_id", f"gives no task id ({task_id!r})", "use letters, digits, '_-.'")
    repo = text("repo")
    if repo and not _REPO.match(repo):
        add("repo", f"{repo!r} is not owner/name", "write it as on GitHub, e.g. psf/requests")
    base = text("base_commit")
    if base and not _SHA.match(base):
        add("base_commit", f"{base!r} is not a commit id", "give the 40-hex commit of the repo")
    patch = text("patch")
    test_patch = text("test_patch")
    for name, diff in (("patch", patch), ("test_patch", test_patch)):
        if diff and not re.search(r"^(diff --git |--- )", diff, re.M):
            add(name, "not a unified diff", "give the diff as `git diff` prints it")
    statement = text("problem_statement")
    f2p = _ids(data.get("FAIL_TO_PASS"), "FAIL_TO_PASS", add)
    if "FAIL_TO_PASS" in data and not f2p and not any(p.field == "FAIL_TO_PASS" for p in problems):
        add("FAIL_TO_PASS", "empty", "list the tests the fix makes pass")
    if "FAIL_TO_PASS" not in data:
        add("FAIL_TO_PASS", "missing", "list the tests the fix makes pass")
    p2p = _ids(data.get("PASS_TO_PASS", "[]"), "PASS_TO_PASS", add)
    overlap = sorted(set(f2p) & set(p2p))
    if overlap:
        add("PASS_TO_PASS", f"shares ids with FAIL_TO_PASS: {overlap[:3]}", "list each in one set")
    version = data.get("version")
    if problems:
        return problems
    known = {"instance_id", "repo", "base_commit", "patch", "test_patch", "problem_statement"}
    known |= {"FAIL_TO_PASS", "PASS_TO_PASS", "version"}
    extra = {
        k: v if isinstance(v, str) else json.dumps(v, default=str)
        for k, v in data.items()
        if k not in known and v is not None
    }
    return SwebenchRow(
        where=raw.where,
        instance_id=instance or "",
        task_id=task_id,
        repo=repo,
        base_commit=base,
        patch=patch,
        test_patch=test_patch,
        problem_statement=statement,
        fail_to_pass=f2p,
        pass_to_pass=p2p,
        version=None if version is None else str(version),
        extra=extra,
    )
