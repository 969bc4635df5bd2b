"""review/comments.csv: every review comment in document order (resolved one included)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_comments_csv() -> None:
    with (c.WS / "review" / "comments.csv").open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    assert rows[0] == c.COMMENTS[0], rows[0]
    assert len(rows) - 1 == len(c.COMMENTS) - 1, f"{len(rows) - 1} comments, expected 3"
    for got, want in zip(rows[1:], c.COMMENTS[1:], strict=True):
        assert got == want, (got, want)
