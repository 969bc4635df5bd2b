"""Summary statistics of numeric columns, overall or per group."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence

from csvstats.reader import Table
from csvstats.values import is_missing, parse_number

#: The keys of a summary, in order.
FIELDS = ("count", "mean", "median", "stdev", "min", "max")

Summary = dict[str, float | int | None]


def summarize(values: Iterable[float]) -> Summary:
    """count, mean, median, sample standard deviation, min and max of ``values``."""
    data = [float(v) for v in values]
    if not data:
        return {"count": 0, "mean": None, "median": None, "stdev": None, "min": None, "max": None}
    return {
        "count": len(data),
        "mean": statistics.fmean(data),
        "median": float(statistics.median(data)),
        "stdev": statistics.stdev(data) if len(data) > 1 else None,
        "min": min(data),
        "max": max(data),
    }


def describe(table: Table, columns: Sequence[str] | None = None) -> dict[str, Summary]:
    """Summaries of ``columns`` (default: all numeric columns), in that order."""
    names = table.numeric_columns() if columns is None else list(columns)
    return {name: summarize(table.numeric(name)) for name in names}


def group_by(table: Table, key: str, column: str) -> dict[str, Summary]:
    """Summaries of ``column`` for each distinct value of ``key``, sorted by that value.

    Rows whose key is missing are ignored; missing values in ``column`` are skipped.
    """
    table.column(key)
    table.column(column)
    groups: dict[str, list[float]] = {}
    for row in table.rows:
        group = row[key]
        if is_missing(group):
            continue
        bucket = groups.setdefault(group, [])
        try:
            value = parse_number(row[column])
        except ValueError:
            raise ValueError(f"column {column!r} is not numeric: {row[column]!r}") from None
        if value is not None:
            bucket.append(value)
    return {group: summarize(groups[group]) for group in sorted(groups)}
