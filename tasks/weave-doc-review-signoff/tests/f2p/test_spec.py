"""docs/spec.md carries the signed-off revision history and version."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_front_matter() -> None:
    tool = c.load("_review_report")
    meta = tool.front_matter(c.SPEC.read_text(encoding="utf-8"))
    assert meta.get("version") == "1.3", meta
    assert meta.get("status") == "approved", meta
    assert meta.get("doc_id") == "PRS-SPEC-004"
    assert meta.get("title") == "Payment Retry Service - Design Specification"


def test_revision_history() -> None:
    tool = c.load("_review_report")
    rows = tool.revisions(c.SPEC.read_text(encoding="utf-8"))
    assert rows == c.REVISIONS, rows
