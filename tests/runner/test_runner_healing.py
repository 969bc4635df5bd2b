"""`realcli run` over damaged run folders of a real sweep: an unreadable verdict is redone, a
verdict without run_end is healed without running the agent, the other runs are skipped, and
a second rerun duplicates nothing (issue 10, point 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from realcli.ledger import read_ledger
from realcli.schema.events import RunEndEvent
from tests.conftest import env_for, run_lines, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

SWEEP = ["run", "--multirun", "model=noop", "task=smoke-scratch-csvstats", "seed=1,2,3"]


def _by_seed(runs: Path) -> dict[int, Path]:
    found = {}
    for ledger in runs.glob("*/*/ledger.jsonl"):
        found[int(json.loads((ledger.parent / "spec.json").read_text())["spec"]["seed"])] = (
            ledger.parent
        )
    return found


def test_rerun_redoes_an_unreadable_verdict_heals_a_missing_run_end_and_skips_the_rest(
    tmp_path: Path, cache_dir: Path
) -> None:
    env = env_for(tmp_path, cache_dir)
    first = run_realcli(SWEEP, env, tmp_path)
    assert first.returncode == 0, first.stderr[-3000:]
    runs = _by_seed(tmp_path / "runs")
    assert sorted(runs) == [1, 2, 3]
    (runs[1] / "verdict.json").write_text('{"run_key": ')  # a torn write
    ledger2 = runs[2] / "ledger.jsonl"
    lines = ledger2.read_bytes().splitlines(keepends=True)
    assert b'"run_end"' in lines[-1]
    ledger2.write_bytes(b"".join(lines[:-1]) + lines[-1][:25])  # killed writing run_end
    kept = b"".join(lines[:-1])
    untouched = (runs[3] / "ledger.jsonl").read_bytes()

    second = run_realcli(SWEEP, env, tmp_path)

    assert second.returncode == 0, second.stderr[-3000:]
    assert "Traceback" not in second.stderr
    assert f"finished {runs[1].name}" in second.stdout
    assert f"healed   {runs[2].name}" in second.stdout
    assert f"skipped  {runs[3].name}" in second.stdout
    warnings = [line for line in second.stderr.splitlines() if "realcli: warning:" in line]
    assert len(warnings) == 2, second.stderr[-3000:]
    assert f"{runs[1] / 'verdict.json'}: not valid JSON" in warnings[0]
    assert "the run counts as not finished and is done again" in warnings[0]
    assert f"{ledger2}: run_end: missing after verdict.json" in warnings[1]
    assert "the agent was not run again" in warnings[1]
    healed = read_ledger(ledger2)
    assert ledger2.read_bytes().startswith(kept) and healed.complete
    assert [e.kind for e in healed.events].count("run_end") == 1
    end = healed.events[-1]
    assert isinstance(end, RunEndEvent) and end.healed
    assert sum(e.kind == "session" for e in healed.events) == 1  # the agent ran once
    assert read_ledger(runs[1] / "ledger.jsonl").complete
    assert (runs[3] / "ledger.jsonl").read_bytes() == untouched

    third = run_realcli(SWEEP, env, tmp_path)
    assert third.returncode == 0 and run_lines(third.stdout, "skipped") == 3, third.stdout
    assert "realcli: warning:" not in third.stderr
    assert len(list((tmp_path / "runs").glob("*/*/verdict.json"))) == 3
