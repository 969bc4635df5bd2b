"""review/comments.csv tracks every reviewer comment of the signed copy."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_comment_ids() -> None:
    rows = c.comment_rows()
    assert rows[0] == ["id", "section", "reviewer", "status", "comment"], rows[0]
    assert [r[0].strip() for r in rows[1:]] == [f"C{i}" for i in range(1, 8)]


def test_comment_fields() -> None:
    rows = [[cell.strip() for cell in r] for r in c.comment_rows()[1:]]
    for want in c.COMMENT_ROWS:
        match = [r for r in rows if r and r[0] == want[0]]
        assert match, f"comment {want[0]} is missing"
        assert match[0] == want, f"{want[0]}: {match[0]} != {want}"


def test_resolved_statuses() -> None:
    rows = {r[0].strip(): r for r in c.comment_rows()[1:] if r}
    assert rows.get("C2", [""] * 5)[3].strip() == "resolved", "C2 is resolved in the signed copy"
    assert rows.get("C6", [""] * 5)[3].strip() == "resolved", "C6 (hidden resolved comment) missing"
