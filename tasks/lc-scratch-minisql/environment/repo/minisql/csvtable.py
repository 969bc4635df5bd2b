"""Typed CSV tables for minisql (provided component; see docs/REQUIREMENTS.md, section 2).

A CSV file becomes a `Table`: a name, the header's column names, and rows of typed values
(None for an empty cell, int, float or str).
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CSVTableError", "Table", "convert_cell", "load_table", "parse_csv_table"]

_INT = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][-+]?\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class CSVTableError(ValueError):
    """A CSV file that cannot be turned into a table."""


def convert_cell(text: str) -> None | int | float | str:
    """The typed value of one CSV cell.

    Surrounding whitespace is removed first. An empty cell is None (SQL NULL); an optional
    sign and digits is an int; a decimal number (``1.5``, ``.5``, ``2.``, ``1e3``, ``-2.5E-1``)
    is a float; anything else is the (stripped) string itself. ``"NULL"``, ``"nan"`` or
    ``"inf"`` are plain strings.
    """
    s = text.strip()
    if s == "":
        return None
    if _INT.fullmatch(s):
        return int(s)
    if _FLOAT.fullmatch(s):
        return float(s)
    return s


@dataclass
class Table:
    """A named table: `columns` as in the header, `rows` as tuples of typed values."""

    name: str
    columns: list[str]
    rows: list[tuple] = field(default_factory=list)

    def column_index(self, name: str) -> int:
        """Index of the column called `name`, compared case-insensitively; KeyError if none."""
        low = name.lower()
        for i, col in enumerate(self.columns):
            if col.lower() == low:
                return i
        raise KeyError(name)


def parse_csv_table(text: str, name: str) -> Table:
    """Parse CSV text (comma-separated, ``"`` quoting) into a Table called `name`.

    Blank lines are skipped. The first row is the header: names are stripped and must be
    valid identifiers (letters, digits, underscores; not starting with a digit), unique
    case-insensitively. Every data row must have as many fields as the header, otherwise
    CSVTableError mentions ``line N`` (1-based line of `text`).
    """
    reader = csv.reader(io.StringIO(text))
    columns: list[str] | None = None
    rows: list[tuple] = []
    for fields in reader:
        if not fields or all(not f.strip() for f in fields):
            continue
        if columns is None:
            columns = [f.strip() for f in fields]
            seen: set[str] = set()
            for col in columns:
                if not _NAME.fullmatch(col):
                    raise CSVTableError(f"{name}: invalid column name {col!r}")
                if col.lower() in seen:
                    raise CSVTableError(f"{name}: duplicate column name {col!r}")
                seen.add(col.lower())
            continue
        if len(fields) != len(columns):
            raise CSVTableError(
                f"{name}: line {reader.line_num}: expected {len(columns)} fields, got {len(fields)}"
            )
        rows.append(tuple(convert_cell(f) for f in fields))
    if columns is None:
        raise CSVTableError(f"{name}: no header row")
    return Table(name, columns, rows)


def load_table(path: str | os.PathLike[str]) -> Table:
    """Read a UTF-8 CSV file (BOM ignored); the table name is the file stem in lower case."""
    p = Path(path)
    with open(p, encoding="utf-8-sig", newline="") as fh:
        text = fh.read()
    return parse_csv_table(text, p.stem.lower())
