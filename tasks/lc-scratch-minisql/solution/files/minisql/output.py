"""Result rendering: values, table, CSV and JSON (docs/REQUIREMENTS.md, section 9.1)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Sequence

from minisql.expr import format_float

__all__ = ["format_value", "render", "render_csv", "render_json", "render_table"]


def format_value(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return format_float(value)
    return str(value)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def render_table(columns: Sequence[str], rows: Sequence[tuple]) -> str:
    cells = [[format_value(v) for v in row] for row in rows]
    widths = [len(c) for c in columns]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [border, "| " + " | ".join(c.ljust(w) for c, w in zip(columns, widths)) + " |", border]
    for raw, row in zip(rows, cells):
        parts = [c.rjust(w) if _is_number(v) else c.ljust(w) for v, c, w in zip(raw, row, widths)]
        lines.append("| " + " | ".join(parts) + " |")
    if rows:
        lines.append(border)
    return "\n".join(lines) + "\n"


def render_csv(columns: Sequence[str], rows: Sequence[tuple]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if v is None else format_value(v) for v in row])
    return buf.getvalue()


def render_json(columns: Sequence[str], rows: Sequence[tuple]) -> str:
    doc = {"columns": list(columns), "rows": [list(r) for r in rows]}
    return json.dumps(doc, indent=2) + "\n"


def render(columns: Sequence[str], rows: Sequence[tuple], fmt: str = "table") -> str:
    if fmt == "table":
        n = len(rows)
        return render_table(columns, rows) + f"({n} row{'' if n == 1 else 's'})\n"
    if fmt == "csv":
        return render_csv(columns, rows)
    if fmt == "json":
        return render_json(columns, rows)
    raise ValueError(f"unknown format: {fmt!r}")
