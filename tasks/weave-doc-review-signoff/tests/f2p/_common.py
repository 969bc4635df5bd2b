"""Expected values and helpers for the weave-doc-review-signoff tests (hidden from the agent)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
WS = Path.cwd()
SPEC = WS / "docs" / "spec.md"
COMMENTS = WS / "review" / "comments.csv"
REPORT = WS / "out" / "review_report.md"

REVISIONS = [
    ["1.0", "2024-01-15", "R. Iyer", "K. Brandt", "Initial version"],
    ["1.1", "2024-02-02", "R. Iyer", "K. Brandt", "Backoff jitter (§3.2)"],
    ["1.2", "2024-03-11", "T. Nakamura", "K. Brandt", "Dead-letter queue and alerting (§4)"],
    ["1.3", "2024-04-08", "T. Nakamura", "L. Osei", "Idempotency keys (§3.1); retry cap 6 (§3.3)"],
]
COMMENT_ROWS = [
    ["C1", "2", "M. Okafor", "open", 'Define "attempt": does the first call count as attempt 1?'],
    [
        "C2",
        "3.1",
        "J. Lindqvist",
        "resolved",
        "Idempotency key must be stable across retries, not per attempt",
    ],
    ["C3", "3.2", "M. Okafor", "open", 'Jitter "0-30%" is ambiguous: full jitter or equal jitter?'],
    [
        "C4",
        "3.3",
        "L. Osei",
        "open",
        "Cap of 6 attempts needs a rationale, incl. the p99 latency budget",
    ],
    ["C5", "4.1", "J. Lindqvist", "open", "DLQ retention: 14 days, per the data retention policy"],
    [
        "C6",
        "4.2",
        "L. Osei",
        "resolved",
        "Alert threshold (> 50 messages in 5 min) agreed with on-call",
    ],
    [
        "C7",
        "5",
        "M. Okafor",
        "open",
        "What happens on 409 Conflict from the provider? Retry or fail?",
    ],
]


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def comment_rows() -> list[list[str]]:
    with COMMENTS.open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    return rows
