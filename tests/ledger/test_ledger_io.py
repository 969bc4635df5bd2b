"""The ledger: append-only, sequence-stamped, redacted; read back tolerantly."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from realcli.ledger import LedgerWriter, read_ledger
from realcli.schema.events import HeaderEvent, MessageEvent, RunEndEvent
from realcli.util.errors import LedgerError
from realcli.util.redact import REDACTED, Redactor

SECRET = "s3cr3t-value-for-the-ledger-test"


def _header() -> HeaderEvent:
    return HeaderEvent(
        seq=0, realcli_version="0", git_sha=None, run_key="k", experiment="e", task_id="t",
        task_digest="d", spec={"note": f"key={SECRET}"}, host={},
    )  # fmt: skip


def _write(path: Path, n: int = 3, end: bool = True) -> None:
    redactor = Redactor(env={"MY_API_KEY": SECRET})
    with LedgerWriter.create(path, _header(), redactor) as ledger:
        for i in range(n):
            ledger.emit(MessageEvent(seq=0, role="assistant", text=f"msg {i} {SECRET}"))
        if end:
            ledger.emit(RunEndEvent(seq=0, status="graded", wall_time_s=1.0))


def test_events_are_numbered_redacted_and_complete(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    _write(path)
    raw = path.read_text()
    assert SECRET not in raw and REDACTED in raw
    contents = read_ledger(path)
    assert contents.complete and not contents.problems
    assert [e.seq for e in contents.events] == [1, 2, 3, 4]
    assert contents.header.spec["note"] == f"key={REDACTED}"


def test_a_ledger_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    _write(path)
    with pytest.raises(FileExistsError):
        LedgerWriter.create(path, _header(), Redactor(env={}))


def test_concurrent_emitters_get_distinct_sequence_numbers(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    with LedgerWriter.create(path, _header(), Redactor(env={})) as ledger:
        threads = [
            threading.Thread(
                target=lambda: [
                    ledger.emit(MessageEvent(seq=0, role="user", text="x")) for _ in range(50)
                ]
            )
            for _ in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    seqs = [json.loads(line)["seq"] for line in path.read_text().splitlines()]
    assert seqs == list(range(201))


def test_truncated_last_line_marks_incomplete_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    _write(path, end=False)
    with path.open("a") as fh:
        fh.write('{"seq": 4, "kind": "mess')
    contents = read_ledger(path)
    assert not contents.complete
    assert len(contents.events) == 3
    assert contents.problems == [
        f"{path}: line 5: truncated last line (not valid JSON (EOF while parsing a string at"
        " line 1 column 24))"
    ]


def test_a_corrupt_middle_line_is_reported_by_number(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    _write(path)
    lines = path.read_text().splitlines()
    lines[2] = '{"seq": 2, "kind": "telepathy"}'
    path.write_text("\n".join(lines) + "\n")
    contents = read_ledger(path)
    assert not contents.complete
    assert len(contents.events) == 3
    assert contents.problems[0].startswith(f"{path}: line 3: corrupt line")


@pytest.mark.parametrize("content", ["", "not json\n", '{"kind": "message"}\n'])
def test_an_unusable_header_is_an_error_naming_the_file(tmp_path: Path, content: str) -> None:
    path = tmp_path / "ledger.jsonl"
    path.write_text(content)
    with pytest.raises(LedgerError, match=f"{path}: line 1: .*rerun this run"):
        read_ledger(path)
