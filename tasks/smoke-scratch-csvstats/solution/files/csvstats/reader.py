"""Reading CSV text into a :class:`Table` of stripped string cells."""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field

from csvstats.values import is_missing, parse_number


@dataclass
class Table:
    """A parsed CSV file: the header and one ``{column: value}`` dict per data row."""

    columns: list[str]
    rows: list[dict[str, str]] = field(default_factory=list)

    def _check(self, name: str) -> None:
        if name not in self.columns:
            raise KeyError(name)

    def column(self, name: str) -> list[str]:
        """All values of column ``name`` (as strings), in row order."""
        self._check(name)
        return [row[name] for row in self.rows]

    def numeric(self, name: str) -> list[float]:
        """The numeric values of column ``name``; missing values are skipped."""
        values: list[float] = []
        for text in self.column(name):
            try:
                number = parse_number(text)
            except ValueError:
                raise ValueError(f"column {name!r} is not numeric: {text!r}") from None
            if number is not None:
                values.append(number)
        return values

    def numeric_columns(self) -> list[str]:
        """Columns with at least one value whose non-missing values are all numbers."""
        result = []
        for name in self.columns:
            present = [v for v in self.column(name) if not is_missing(v)]
            if not present:
                continue
            try:
                for text in present:
                    parse_number(text)
            except ValueError:
                continue
            result.append(name)
        return result


def parse_csv(text: str, delimiter: str = ",") -> Table:
    """Parse CSV ``text``; the first non-blank row is the header."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header: list[str] | None = None
    rows: list[dict[str, str]] = []
    for record in reader:
        cells = [cell.strip() for cell in record]
        if not any(cells):
            continue  # blank line
        if header is None:
            if "" in cells:
                raise ValueError(f"line {reader.line_num}: empty column name in header")
            duplicates = sorted({c for c in cells if cells.count(c) > 1})
            if duplicates:
                raise ValueError(f"line {reader.line_num}: duplicate column name(s): {', '.join(duplicates)}")
            header = cells
            continue
        if len(cells) != len(header):
            raise ValueError(
                f"line {reader.line_num}: expected {len(header)} fields, got {len(cells)}"
            )
        rows.append(dict(zip(header, cells, strict=True)))
    if header is None:
        raise ValueError("empty input: no header row")
    return Table(columns=header, rows=rows)


def read_csv(
    path: str | os.PathLike[str], delimiter: str = ",", encoding: str = "utf-8-sig"
) -> Table:
    """Read and parse the CSV file at ``path`` (a leading UTF-8 BOM is ignored)."""
    with open(path, encoding=encoding, newline="") as handle:
        return parse_csv(handle.read(), delimiter=delimiter)
