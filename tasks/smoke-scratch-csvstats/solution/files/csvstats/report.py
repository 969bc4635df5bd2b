"""Rendering summaries as an aligned text table, CSV or JSON."""

from __future__ import annotations

import csv
import io
import json

from csvstats.stats import FIELDS, Summary

FORMATS = ("table", "csv", "json")
HEADER = ("name", *FIELDS)


def _cell(field: str, value: float | int | None, precision: int, missing: str) -> str:
    if value is None:
        return missing
    if field == "count":
        return str(int(value))
    return f"{value:.{precision}f}"


def _rows(stats: dict[str, Summary], precision: int, missing: str) -> list[list[str]]:
    return [
        [name, *(_cell(f, summary[f], precision, missing) for f in FIELDS)]
        for name, summary in stats.items()
    ]


def format_report(stats: dict[str, Summary], fmt: str = "table", precision: int = 2) -> str:
    """Render ``{name: summary}`` in format ``fmt`` (``table``, ``csv`` or ``json``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    if precision < 0:
        raise ValueError("precision must not be negative")
    if fmt == "json":
        doc = {
            name: {
                f: (v if v is None or f == "count" else round(v, precision))
                for f, v in ((f, summary[f]) for f in FIELDS)
            }
            for name, summary in stats.items()
        }
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(_rows(stats, precision, ""))
        return out.getvalue()
    rows = [list(HEADER), *_rows(stats, precision, "-")]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    rows.insert(1, ["-" * w for w in widths])
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"
