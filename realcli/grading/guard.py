"""The host side of tamper-evident grading: plant a canary, check what the pytest guard wrote.

:mod:`realcli.grading.pytest_guard` runs pytest inside the grading sandbox and writes an
HMAC-chained result stream. This module prepares each test-set run (a fresh key, a copy of the
task's tests with one *canary* test planted among them under an unguessable name: it always
fails) and afterwards cross-checks the independent signals it gets back:

- the stream's MAC chain (no line added, changed, dropped or reordered) and its ``end`` record;
- the guard's own findings (pytest internals changed, a reporting plugin registered by the code
  under test, a report that says passed for a test that raised, blocked writes or heap walks);
- pytest's exit status (the canary fails, so an honest run never exits 0) against ``end``;
- the canary itself: reported failed, never passed, never missing;
- the SHA-256 of the JUnit XML against the one recorded at the end, and every test the XML
  calls passed against the stream;
- pytest's printed summary line against the stream's counts.

Any disagreement is a reason; a test set with a reason is *tampered*: all its results become
``error`` with ``tampered=True`` (so the round cannot pass) and the runner writes a
``grading_tampered`` event. Everything needed is saved beside the XML
(``round-N.<set>.guard.jsonl`` and ``.guard.json``), so regrading checks again without a
sandbox.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from realcli.grading.junit import TESTS_MOUNT
from realcli.schema.verdict import TestOutcome, TestResult

__all__ = [
    "GUARD_SCRIPT",
    "GuardCheck",
    "GuardSetup",
    "check_guarded_run",
    "new_guard",
    "parse_summary",
]

GUARD_SCRIPT = Path(__file__).with_name("pytest_guard.py")
"""The program run inside the grading sandbox (standard library and pytest only)."""
GUARD_MOUNT = "/run/realcli/pytest_guard.py"
_MESSAGE_CHARS = 500
_MAX_STREAM_BYTES = 64 * 1024 * 1024
_MAX_REASONS = 12
_WORDS = (
    "parse", "render", "config", "cache", "format", "convert", "merge", "split", "load",
    "dump", "index", "query", "match", "order", "limit", "window", "event", "record",
    "field", "value", "token", "schema", "report", "export", "import", "filter", "build",
)  # fmt: skip
_SUMMARY = re.compile(
    r"^=*\s*((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|"
    r"rerun)(?:, )?)+) in [\d.]+s(?: \([^)]*\))?\s*=*\s*$"
)


@dataclass(frozen=True)
class GuardSetup:
    """What one guarded test-set run needs: its key and its planted canary."""

    key: str
    canary_file: str  # relative to tests/, e.g. f2p/test_index_merge_3fa9c1.py
    canary_source: str

    @property
    def canary_nodeid(self) -> str:
        return f"{self.canary_file}::test_{Path(self.canary_file).stem.split('_', 1)[1]}"

    def plant(self, tests_copy: Path) -> None:
        """Write the canary into a (host-side, read-only mounted) copy of the task's tests."""
        path = tests_copy / self.canary_file
        path.parent.mkdir(parents=True, exist_ok=True)  # a location=workspace set has none
        path.write_text(self.canary_source, encoding="utf-8")

    def to_json(self) -> dict[str, str]:
        return {
            "key": self.key,
            "canary_file": self.canary_file,
            "canary_source": self.canary_source,
        }


def new_guard(test_set: str) -> GuardSetup:
    """A fresh key and a canary test that fails with an ordinary assertion."""
    a, b = secrets.choice(_WORDS), secrets.choice(_WORDS)
    stem = f"test_{a}_{b}_{secrets.token_hex(3)}"
    n = 3 + secrets.randbelow(5)
    values = [secrets.randbelow(90) + 10 for _ in range(n)]
    wrong = sorted(values)[::-1] if len(set(values)) > 1 else [*values, 0]
    source = (
        f"def test_{stem.split('_', 1)[1]}():\n"
        f"    values = {values!r}\n"
        f"    assert sorted(values) == {wrong!r}\n"
    )
    return GuardSetup(
        key=secrets.token_hex(32), canary_file=f"{test_set}/{stem}.py", canary_source=source
    )


@dataclass
class GuardCheck:
    """The results of one guarded test-set run and why (if at all) they cannot be trusted."""

    results: list[TestResult]
    reasons: list[str] = field(default_factory=list)
    finished: bool = False  # the stream has a valid ``end`` record

    @property
    def tampered(self) -> bool:
        return bool(self.reasons)


def parse_summary(output: str) -> dict[str, int] | None:
    """pytest's last summary line (``2 failed, 1 passed in 0.1s``) as counts, if printed."""
    for line in reversed(output.splitlines()[-200:]):
        match = _SUMMARY.match(line.strip())
        if match:
            counts: dict[str, int] = {}
            for part in match.group(1).split(", "):
                if part:
                    number, word = part.split(" ", 1)
                    word = {"errors": "error", "warnings": "warning"}.get(word, word)
                    counts[word] = int(number)
            return counts
    return None


def _read_stream(path: Path, key: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The verified records of a stream, and what is wrong with it."""
    if not path.is_file():
        return [], []
    if path.stat().st_size > _MAX_STREAM_BYTES:
        return [], ["the guard's result stream is implausibly large"]
    raw = path.read_bytes()
    key_bytes = bytes.fromhex(key)
    prev = b""
    records: list[dict[str, Any]] = []
    for number, line in enumerate(raw.split(b"\n"), 1):
        if not line:
            continue
        mac, _, body = line.partition(b" ")
        want = hmac.new(key_bytes, prev + body, hashlib.sha256).hexdigest().encode()
        if not hmac.compare_digest(mac, want):
            return records, [
                f"the result stream's line {number} does not verify (forged or edited)"
            ]
        try:
            record = json.loads(body)
        except ValueError:
            return records, [f"the result stream's line {number} is not JSON"]
        if not isinstance(record, dict) or record.get("seq") != len(records):
            return records, [f"the result stream's line {number} is out of sequence"]
        records.append(record)
        prev = mac
        if record.get("t") == "end":
            rest = raw.split(b"\n")[number:]
            if any(rest_line.strip() for rest_line in rest):
                return records, ["the result stream continues after its end record"]
            break
    return records, []


def _strip_mount(nodeid: str) -> str:
    return nodeid.removeprefix(TESTS_MOUNT + "/")


def _results_from(
    records: Sequence[dict[str, Any]], test_set: Literal["f2p", "p2p"]
) -> dict[str, TestResult]:
    """Per test: error when setup/teardown failed, failed when the call failed, skipped when
    skipped (xfail included), else passed, like :func:`realcli.grading.junit.parse_junit`."""
    out: dict[str, TestResult] = {}
    for r in records:
        if r.get("t") == "collect_error":
            nodeid = _strip_mount(str(r.get("nodeid", "")))
            out[nodeid] = TestResult(
                nodeid=nodeid,
                test_set=test_set,
                outcome=TestOutcome.error,
                # worded as pytest's JUnit report words it (``realcli tasks check`` keys on it)
                message=f"collection failure: {r.get('message', '')}"[:_MESSAGE_CHARS],
            )
        if r.get("t") != "report":
            continue
        nodeid = _strip_mount(str(r.get("nodeid", "")))
        when, outcome = r.get("when"), r.get("outcome")
        previous = out.get(nodeid)
        if previous is not None and previous.outcome is not TestOutcome.passed:
            continue  # the first non-pass decides, as in the JUnit report
        duration = float(r.get("duration") or 0.0) + (previous.duration_s if previous else 0.0)
        if outcome == "failed":
            result = TestOutcome.failed if when == "call" else TestOutcome.error
        elif outcome == "skipped":
            result = TestOutcome.skipped
        else:
            result = TestOutcome.passed
        out[nodeid] = TestResult(
            nodeid=nodeid,
            test_set=test_set,
            outcome=result,
            duration_s=duration,
            message=str(r.get("message", ""))[:_MESSAGE_CHARS],
        )
    return out


def _summary_counts(records: Sequence[dict[str, Any]]) -> dict[str, int]:
    end = records[-1] if records and records[-1].get("t") == "end" else {}
    counts = end.get("counts")
    return {str(k): int(v) for k, v in counts.items()} if isinstance(counts, dict) else {}


def check_guarded_run(
    *,
    setup: GuardSetup,
    test_set: Literal["f2p", "p2p"],
    stream_path: Path,
    xml_results: Sequence[TestResult] | None,
    xml_sha256: str | None,
    exit_code: int,
    timed_out: bool,
    summary: Mapping[str, int] | None,
) -> GuardCheck:
    """Cross-check one guarded run (see the module docstring); ``xml_results`` None: no XML."""
    records, reasons = _read_stream(stream_path, setup.key)
    end = records[-1] if records and records[-1].get("t") == "end" else None
    by_id = _results_from(records, test_set)
    canary = by_id.pop(setup.canary_nodeid, None)
    check = GuardCheck(results=list(by_id.values()), finished=end is not None)
    reasons += [f"guard: {r['reason']}" for r in records if r.get("t") == "finding"]
    if exit_code == 0:
        reasons.append("pytest exited 0 although the planted canary test must fail")
    if end is not None:
        if int(end.get("exit", -1)) != exit_code:
            reasons.append(f"pytest returned {end.get('exit')} but the process exited {exit_code}")
        if end.get("junit_sha256") != xml_sha256:
            reasons.append("the JUnit XML changed after pytest wrote it")
        if canary is None:
            reasons.append("the planted canary test was not reported")
        elif canary.outcome is TestOutcome.passed or canary.outcome is TestOutcome.skipped:
            reasons.append(
                f"the planted canary test (which must fail) was reported {canary.outcome.value}"
            )
    if canary is not None and canary.outcome is TestOutcome.passed and end is None:
        reasons.append("the planted canary test (which must fail) was reported passed")
    if xml_results is not None:
        for r in xml_results:
            mine = by_id.get(r.nodeid)
            if (
                r.outcome is TestOutcome.passed
                and mine is not None
                and mine.outcome is not TestOutcome.passed
            ):
                reasons.append(
                    f"the JUnit XML says {r.nodeid} passed, the guard saw {mine.outcome.value}"
                )
                break
            if r.nodeid == setup.canary_nodeid and r.outcome in (
                TestOutcome.passed,
                TestOutcome.skipped,
            ):
                reasons.append("the JUnit XML reports the planted canary test as not failed")
                break
    if summary is not None and end is not None:
        counts = _summary_counts(records)
        said_bad = summary.get("failed", 0) + summary.get("error", 0)
        saw_bad = counts.get("failed", 0) + counts.get("error", 0)
        if summary.get("passed", 0) > counts.get("passed", 0) or said_bad < saw_bad:
            reasons.append(
                f"pytest's summary ({summary.get('passed', 0)} passed, {said_bad} failed or "
                f"errors) disagrees with the guard ({counts.get('passed', 0)} passed, "
                f"{saw_bad} failed or errors)"
            )
    reasons = list(dict.fromkeys(reasons))
    if len(reasons) > _MAX_REASONS:
        reasons = [*reasons[: _MAX_REASONS - 1], f"… and {len(reasons) - _MAX_REASONS + 1} more"]
    check.reasons = reasons
    if check.tampered:
        why = "grading tampered: " + check.reasons[0]
        check.results = [
            r.model_copy(
                update={
                    "outcome": TestOutcome.error,
                    "message": why[:_MESSAGE_CHARS],
                    "tampered": True,
                }
            )
            for r in check.results
        ]
    elif end is None:  # crashed, killed or timed out: what was reported cannot pass
        why = (
            "the test run timed out"
            if timed_out
            else f"the test run ended (exit {exit_code}) before pytest finished"
        )
        check.results = [
            r
            if r.outcome is not TestOutcome.passed
            else r.model_copy(update={"outcome": TestOutcome.error, "message": why})
            for r in check.results
        ]
    return check
