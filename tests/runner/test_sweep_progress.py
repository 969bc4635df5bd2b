"""Acceptance (issue 12, d): a ``--multirun`` of 8 runs shows a live count and ends with a
summary table; each finished-run line names its seed, model, harness and mode; a rerun shows
the runs as skipped; a crashed job is an error in the table and the exit code (2) says so; on
a terminal the display is redrawn live (rich), in a pipe it is plain lines with no ANSI."""

from __future__ import annotations

import os
import pty
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REALCLI, env_for, run_lines, run_realcli

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

# noop over the 4 smoke tasks, two seeds, in two joblib worker processes: 8 runs (~35 s)
SWEEP = ["run", "--multirun", "model=noop", "seed=1,2", "hydra/launcher=joblib"]
SWEEP += ["hydra.launcher.n_jobs=2"]
STATUS = re.compile(
    r"^\[(\d+)/8\] done · (\d+) running · (\d+) passed · (\d+) failed · (\d+) errors · "
    r"(\d+) skipped · \d\d:\d\d elapsed · ETA (?:\d\d:\d\d|--:--)$"
)
RUN_LINE = re.compile(
    r"^(finished|skipped ) [0-9a-f]{16} smoke-[a-z-]+ seed=[12] model=noop harness=builtin"
    r" mode=cli_only protocol=autonomous: graded pass=0 f2p_step=0\.00 p2p_step=1\.00"
    r" wall=\d+\.\ds$"
)


def _totals(stdout: str) -> list[str]:
    """The cells of the summary table's total row."""
    row = next(line for line in stdout.splitlines() if line.startswith("| total"))
    return [cell.strip() for cell in row.strip("|").split("|")]


@pytest.fixture(scope="module")
def sweep(
    tmp_path_factory: pytest.TempPathFactory, cache_dir: Path
) -> tuple[Path, dict[str, str], str]:
    tmp = tmp_path_factory.mktemp("progress")
    env = env_for(tmp, cache_dir)
    proc = run_realcli(SWEEP, env, tmp)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return tmp, env, proc.stdout


def test_sweep_shows_a_live_count_and_names_each_run(
    sweep: tuple[Path, dict[str, str], str],
) -> None:
    _, _, stdout = sweep
    assert "\x1b" not in stdout  # a pipe gets plain lines, never ANSI
    states = [tuple(map(int, m.groups())) for m in map(STATUS.match, stdout.splitlines()) if m]
    done = [s[0] for s in states]
    assert done[0] == 0 and done[-1] == 8 and done == sorted(done)
    assert len(set(done)) >= 5  # several distinct [k/8] states, not one line at the end
    assert any(s[1] > 0 for s in states)  # runs seen running
    assert states[-1] == (8, 0, 0, 8, 0, 0)  # noop fails every F2P test, nothing errs
    lines = [line for line in stdout.splitlines() if line.startswith("finished ")]
    assert len(lines) == 8 and all(RUN_LINE.match(line) for line in lines), lines
    assert {re.search(r"seed=(\d)", line).group(1) for line in lines} == {"1", "2"}  # type: ignore[union-attr]


def test_sweep_ends_with_the_summary_table(sweep: tuple[Path, dict[str, str], str]) -> None:
    tmp, _, stdout = sweep
    lines = stdout.splitlines()
    tail = lines[len(lines) - 1 - lines[::-1].index("sweep summary") :]
    assert len(tail) == 14  # title, 3 head lines, 4 rows, 3 total lines, 3 notes
    header = [cell.strip() for cell in tail[2].strip("|").split("|")]
    assert header == [
        "model", "harness", "mode", "protocol", "task", "runs", "passed", "failed", "errors",
        "skipped", "F2P step", "judged", "wall",
    ]  # fmt: skip
    rows = [line for line in tail if line.startswith("| noop ")]
    assert len(rows) == 4  # one per smoke task, two seeds each
    assert all(
        [c.strip() for c in r.strip("|").split("|")][5:10] == ["2", "0", "2", "0", "0"]
        for r in rows
    )
    assert _totals(stdout)[5:12] == ["8", "0", "8", "0", "0", "0.00", "0.00"]
    assert f"run store: {tmp / 'runs' / 'default'}" in tail
    assert tail[-1] == "next: realcli ingest && realcli report"


def test_rerun_shows_every_run_skipped(sweep: tuple[Path, dict[str, str], str]) -> None:
    tmp, env, _ = sweep
    before = {p: p.stat().st_mtime for p in (tmp / "runs").glob("*/*/ledger.jsonl")}
    proc = run_realcli(SWEEP, env, tmp)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert run_lines(proc.stdout, "skipped") == 8 and run_lines(proc.stdout, "finished") == 0
    assert "[8/8] done · 0 running · 0 passed · 8 failed · 0 errors · 8 skipped" in proc.stdout
    assert _totals(proc.stdout)[5:10] == ["8", "0", "8", "0", "8"]
    assert {p: p.stat().st_mtime for p in before} == before  # nothing run again


def test_crashed_job_is_an_error_and_exit_2(sweep: tuple[Path, dict[str, str], str]) -> None:
    """Hydra's basic launcher, in-process: the second job's config cannot validate (a scripted
    model without its script; the first job's is checked before Hydra starts). The table
    counts it as an error and the exit code is 2, as for any bad config."""
    tmp, env, _ = sweep
    args = ["run", "--multirun", "model=noop,scripted", "seed=1", "task=smoke-refactor-shapes"]
    proc = run_realcli(args, env, tmp)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "model.script: required value is missing" in proc.stderr
    assert "failed: job #1 (model=scripted seed=1 task=smoke-refactor-shapes):" in proc.stdout
    assert run_lines(proc.stdout, "skipped") == 1
    assert "[2/2] done · 0 running · 0 passed · 1 failed · 1 errors · 1 skipped" in proc.stdout
    assert any(line.startswith("| job #1 failed ") for line in proc.stdout.splitlines())
    assert _totals(proc.stdout)[5:10] == ["2", "0", "1", "1", "1"]


def test_terminal_gets_a_live_display(sweep: tuple[Path, dict[str, str], str]) -> None:
    """On a terminal (a pty here) rich redraws one progress display instead of status lines.
    The same 8 runs (skipped: cheap), swept by an experiment file's ``hydra.sweeper.params``
    under the basic launcher: the total comes from the sweeper's params too."""
    tmp, env, _ = sweep
    (tmp / "conf" / "experiment").mkdir(parents=True)
    (tmp / "conf" / "experiment" / "eight.yaml").write_text(
        "# @package _global_\nhydra:\n  sweeper:\n    params:\n      model: noop\n      seed: 1,2\n"
    )
    leader, follower = pty.openpty()
    args = ["run", "--multirun", "-cd", str(tmp / "conf"), "experiment=eight"]
    proc = subprocess.Popen(
        [*REALCLI, *args], env={**env, "COLUMNS": "160"}, cwd=tmp, stdout=follower,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    assert proc.wait(timeout=120) == 0
    os.close(leader)
    out = b"".join(chunks).decode()
    assert "\x1b[2K" in out  # the display is redrawn in place
    assert "8/8" in out and "[8/8] done" not in out  # the live bar, not the plain lines
    assert "sweep summary" in out and out.count("skipped  ") == 8
