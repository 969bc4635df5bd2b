"""Finding a finished run: an unreadable verdict counts as not finished, a verdict without
``run_end`` (the process stopped between the two writes) is healed without running the agent.

Run folders come from the warehouse tests' factory (a real ledger via LedgerWriter, a real
verdict), so nothing here starts an agent or a sandbox.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from realcli.ledger import read_ledger
from realcli.runner.folders import finished_outcome, read_verdict
from realcli.schema.events import RunEndEvent
from realcli.warehouse import connect, ingest
from tests.warehouse.run_folders import write_run


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return write_run(tmp_path / "runs", seed=1)


def _outcome(run: Path, *, heal: bool = True) -> tuple[str | None, list[str]]:
    said: list[str] = []
    outcome = finished_outcome(run, run.name, "task-a", heal=heal, say=said.append)
    return (outcome.state if outcome else None), said


def _drop_run_end(run: Path, *, keep: int = 0) -> bytes:
    """The ledger as a kill between verdict.json and run_end leaves it (``keep``: bytes of the
    run_end line that made it to disk). Returns the ledger's bytes before the run_end."""
    path = run / "ledger.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    assert b'"run_end"' in lines[-1]
    before = b"".join(lines[:-1])
    path.write_bytes(before + lines[-1][:keep])
    return before


def _replaced_by(make: Callable[[Path], object]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        path.unlink()
        make(path)

    return damage


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda p: p.write_text('{"run_key": '), "verdict.json: not valid JSON"),
        (lambda p: p.write_bytes(b"\x00\xff" * 100), "verdict.json: not valid JSON"),
        (lambda p: p.write_text("[" * 200_000 + "]" * 200_000), "recursion limit exceeded"),
        (_replaced_by(Path.mkdir), "verdict.json: is a directory, not a regular file"),
        (_replaced_by(os.mkfifo), "verdict.json: is a FIFO, not a regular file"),
        (
            _replaced_by(lambda p: p.symlink_to("/etc/hostname")),
            "verdict.json: is a symbolic link (not followed)",
        ),
        (lambda p: p.write_text(p.read_text().replace('"graded"', '"gradd"')), "status: Input"),
        (
            lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "run_key": "x"})),
            "run_key: the verdict is for 'x'",
        ),
    ],
    ids=["truncated", "binary", "deep", "directory", "fifo", "symlink", "bad-status", "other-run"],
)
def test_an_unreadable_verdict_is_not_finished_with_one_line(
    run: Path, damage: object, expected: str
) -> None:
    damage(run / "verdict.json")  # type: ignore[operator]
    state, said = _outcome(run)
    assert state is None  # the runner redoes it
    assert len(said) == 1 and "\n" not in said[0]
    assert expected in said[0] and said[0].startswith(str(run / "verdict.json"))
    assert said[0].endswith("the run counts as not finished and is done again")


def test_a_finished_run_is_skipped_untouched(run: Path) -> None:
    before = (run / "ledger.jsonl").read_bytes()
    assert _outcome(run) == ("skipped", [])
    assert (run / "ledger.jsonl").read_bytes() == before


@pytest.mark.parametrize("keep", [0, 30], ids=["run_end-never-written", "run_end-half-written"])
def test_a_verdict_without_run_end_is_healed_once_from_the_verdict(run: Path, keep: int) -> None:
    before = _drop_run_end(run, keep=keep)
    verdict, _ = read_verdict(run)
    assert verdict is not None
    assert _outcome(run, heal=False) == (None, [])  # the quick check leaves it to the lock

    state, said = _outcome(run)

    assert state == "healed"
    assert len(said) == 1 and "run_end: missing after verdict.json" in said[0]
    raw = (run / "ledger.jsonl").read_bytes()
    assert raw.startswith(before)  # every event the run wrote is kept, byte for byte
    ledger = read_ledger(run / "ledger.jsonl")
    assert ledger.complete and ledger.problems == []
    end = ledger.events[-1]
    assert isinstance(end, RunEndEvent) and end.healed
    assert (end.seq, end.status, end.wall_time_s) == (13, "graded", verdict.wall_time_s)
    assert end.ts == verdict.graded_at
    # healed once: the next rerun skips it and duplicates nothing
    assert _outcome(run) == ("skipped", [])
    assert (run / "ledger.jsonl").read_bytes() == raw


def test_a_run_end_missing_only_its_newline_gets_the_newline(run: Path) -> None:
    path = run / "ledger.jsonl"
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    state, said = _outcome(run)
    assert state == "healed"
    assert said == [f"{path}: last line: the newline after it was missing; added"]
    ledger = read_ledger(path)
    assert ledger.complete and sum(e.kind == "run_end" for e in ledger.events) == 1


def test_a_verdict_whose_ledger_is_unusable_is_redone(run: Path) -> None:
    (run / "ledger.jsonl").unlink()
    (run / "ledger.jsonl").mkdir()
    state, said = _outcome(run)
    assert state is None
    assert len(said) == 1 and "ledger.jsonl: cannot read ledger: is a directory" in said[0]
    assert said[0].endswith("has a verdict but no usable ledger and is done again")


def test_ingest_flags_the_unhealed_run_and_loads_the_healed_one_complete(
    tmp_path: Path,
) -> None:
    runs = tmp_path / "runs"
    run = write_run(runs, seed=1)
    _drop_run_end(run)
    con = connect(tmp_path / "w.duckdb")
    try:
        first = ingest(con, runs)
        row = con.execute("select status, complete, passed from runs").fetchone()
        assert (first.loaded, first.incomplete, row) == (1, 1, ("graded", False, True))
        assert len(first.problems) == 1
        assert "ledger.jsonl: run_end: missing although verdict.json exists" in first.problems[0]
        assert "loaded from verdict.json, complete=false" in first.problems[0]
        assert _outcome(run)[0] == "healed"
        second = ingest(con, runs)
        assert (second.loaded, second.incomplete, second.problems) == (1, 0, [])
        assert con.execute("select status, complete, ledger_status from runs").fetchone() == (
            "graded",
            True,
            "graded",
        )
        assert con.execute("select count(*) from ingest_problems").fetchone() == (0,)
    finally:
        con.close()


def test_a_linked_run_folder_is_not_read_through(run: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    run.rename(elsewhere)
    run.symlink_to(elsewhere)
    state, said = _outcome(run)
    assert state is None
    assert said == [f"{run}: is a symbolic link (not followed); the run is done again here"]
