"""One bad run folder never takes down the rest (issue 10, point 4; acceptance d).

Runs are synthesized with the warehouse tests' run-folder factory (no agent runs). Ingest of 24
runs of which 3 are malformed loads 21 and reports 3 problems, stored in ``ingest_problems``;
the damage the issue reproduced (a ledger line nested 200k deep, ``seq=10^30``, a ledger that is
a directory) loads the others; a second concurrent ingest waits or says in one line that another
ingest holds the warehouse.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest

from realcli.warehouse import connect, fetch_df, ingest
from tests.conftest import REALCLI
from tests.security.fuzz.clean_fork import run_cli_clean as run_cli
from tests.warehouse.run_folders import write_run

N_RUNS = 24
DEEP = 200_000


def _header_line(run: Path, new_first_line: str) -> None:
    path = run / "ledger.jsonl"
    rest = path.read_text().split("\n", 1)[1]
    path.write_text(new_first_line + "\n" + rest)


def _make_runs(runs: Path) -> list[Path]:
    return [write_run(runs, seed=seed) for seed in range(1, N_RUNS + 1)]


def _malform_three(folders: list[Path]) -> dict[Path, str]:
    """Three folders that can't be loaded at all: the file each problem must name."""
    ledger_dir, deep_header, huge_seed = folders[3], folders[11], folders[19]
    (ledger_dir / "ledger.jsonl").unlink()
    (ledger_dir / "ledger.jsonl").mkdir()
    _header_line(deep_header, "[" * DEEP + "]" * DEEP)
    spec = json.loads((huge_seed / "spec.json").read_text())
    spec["spec"]["seed"] = 10**30
    (huge_seed / "spec.json").write_text(json.dumps(spec))
    return {
        ledger_dir: f"{ledger_dir / 'ledger.jsonl'}: cannot read ledger: is a directory",
        deep_header: f"{deep_header / 'ledger.jsonl'}: line 1: unreadable header (not valid JSON"
        " (recursion limit exceeded",
        huge_seed: f"{huge_seed / 'spec.json'}: spec.seed: integer of 100 bits is outside the"
        " signed 64-bit range",
    }


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    path = tmp_path / "runs"
    path.mkdir()
    return path


def test_24_runs_of_which_3_are_malformed_load_21_and_report_3_problems(
    runs: Path, tmp_path: Path
) -> None:
    expected = _malform_three(_make_runs(runs))
    warehouse = tmp_path / "w.duckdb"
    args = ["ingest", "--runs-dir", str(runs), "--warehouse", str(warehouse)]
    result = run_cli(args, {}, tmp_path, timeout_s=120)

    assert result.returncode == 0, result.output
    assert "Traceback" not in result.output
    assert "21 loaded, 0 unchanged, 0 incomplete, 0 removed, 3 skipped, 3 problems" in (
        result.output
    )
    warnings = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 3, result.output
    for fragment in expected.values():
        assert any(fragment in w and "folder skipped (fix: " in w for w in warnings), fragment
    con = connect(warehouse, read_only=True)
    try:
        assert con.execute("select count(*) from runs").fetchone() == (21,)
        rows = fetch_df(con, "select * from ingest_problems order by run_dir").rows(named=True)
    finally:
        con.close()
    assert sorted(r["run_dir"] for r in rows) == sorted(str(d) for d in expected)
    assert {r["outcome"] for r in rows} == {"folder skipped"}
    assert all(r["run_key"] is None and r["fix"] for r in rows)
    by_dir = {r["run_dir"]: r for r in rows}
    assert by_dir[str(sorted(expected)[0])]["file"].endswith(("ledger.jsonl", "spec.json"))
    assert {r["location"] for r in rows} == {None, "line 1", "spec.seed"}


def test_the_damage_the_issue_reproduced_loads_every_other_run(runs: Path, tmp_path: Path) -> None:
    """Before: one of these aborted the whole ingest (0 of 24 loaded)."""
    folders = _make_runs(runs)
    with (folders[0] / "ledger.jsonl").open("a") as fh:
        fh.write('{"a": ' + "[" * DEEP + "]" * DEEP + "}\n")
    with (folders[1] / "ledger.jsonl").open("a") as fh:
        fh.write(json.dumps({"seq": 10**30, "kind": "error", "error_type": "infra_error"}) + "\n")
    (folders[2] / "ledger.jsonl").unlink()
    (folders[2] / "ledger.jsonl").mkdir()

    con = connect(tmp_path / "w.duckdb")
    try:
        stats = ingest(con, runs)
        problems = con.execute("select run_dir, location, outcome from ingest_problems").fetchall()
        complete = dict(con.execute("select run_dir, complete from runs").fetchall())
    finally:
        con.close()
    assert (stats.loaded, stats.skipped, len(stats.problems)) == (23, 1, 3)
    assert sorted(problems) == sorted(
        [
            (str(folders[0]), "line 15", "loaded the lines that parse, complete=false"),
            (str(folders[1]), "line 15", "loaded the lines that parse, complete=false"),
            (str(folders[2]), None, "folder skipped"),
        ]
    )
    assert not complete[str(folders[0])] and not complete[str(folders[1])]
    assert sum(complete.values()) == 21


def test_problem_rows_follow_the_folder_fixed_or_removed(runs: Path, tmp_path: Path) -> None:
    folders = [write_run(runs, seed=seed) for seed in (1, 2, 3)]
    (folders[0] / "verdict.json").write_text("{")
    (folders[1] / "spec.json").write_text("[]")
    con = connect(tmp_path / "w.duckdb")
    try:
        ingest(con, runs)
        assert con.execute("select count(*) from ingest_problems").fetchone() == (2,)
        again = ingest(con, runs)  # the skipped folder is read again, the loaded one is not
        assert (again.unchanged, again.skipped) == (2, 1)
        assert con.execute("select count(*) from ingest_problems").fetchone() == (2,)
        folders[0].joinpath("verdict.json").unlink()  # now simply unfinished: no problem
        for path in folders[1].iterdir():
            path.unlink()
        folders[1].rmdir()
        fixed = ingest(con, runs)
        assert (fixed.loaded, fixed.problems) == (1, [])
        assert con.execute("select count(*) from ingest_problems").fetchone() == (0,)
    finally:
        con.close()


def test_a_second_ingest_waits_for_the_first_or_says_so_in_one_line(
    runs: Path, tmp_path: Path
) -> None:
    _make_runs(runs)
    warehouse = tmp_path / "w.duckdb"
    args = ["ingest", "--runs-dir", str(runs), "--warehouse", str(warehouse)]
    # another process (a forked case would inherit, and so keep, a lock held in this one)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from realcli.warehouse import writer_lock"
            "\nwith writer_lock(Path(sys.argv[1]), 0):\n print('held', flush=True)"
            "\n while not Path(sys.argv[2]).exists(): time.sleep(0.05)",
            str(warehouse),
            str(tmp_path / "release"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        refused = run_cli([*args, "--wait", "0.3"], {}, tmp_path)
        # the first ingest ends while the second waits
        threading.Timer(5.0, (tmp_path / "release").touch).start()
        waited = run_cli([*args, "--wait", "60"], {}, tmp_path, timeout_s=90)
    finally:
        holder.kill()
        holder.wait()
    assert refused.returncode == 2 and "Traceback" not in refused.output
    errors = [line for line in refused.output.splitlines() if line.startswith("realcli: error:")]
    assert len(errors) == 1, refused.output
    assert "another ingest" in errors[0] and "holds the warehouse" in errors[0]
    assert "(fix: wait for it to finish, or pass --wait SECONDS" in errors[0]
    assert waited.returncode == 0 and "Traceback" not in waited.output, waited.output
    assert "realcli: waiting up to 60 s for another ingest" in waited.output
    assert "24 loaded" in waited.output


def test_two_concurrent_ingests_both_finish_without_a_traceback(runs: Path, tmp_path: Path) -> None:
    """What the issue reproduced: the second died with a raw ``_duckdb.IOException``."""
    _make_runs(runs)
    args = [*REALCLI, "ingest", "--runs-dir", str(runs), "--warehouse", str(tmp_path / "w.duckdb")]
    procs = [
        subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    assert not any("Traceback" in out or "IOException" in out for out in outputs), outputs
    loaded = sorted(int(out.split(" loaded")[0].rsplit(" ", 1)[1]) for out in outputs)
    assert loaded == [0, 24], outputs  # the second waited, then found everything unchanged


def test_a_warehouse_another_program_holds_is_one_line(runs: Path, tmp_path: Path) -> None:
    warehouse = tmp_path / "w.duckdb"
    duckdb.connect(str(warehouse)).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('ok', flush=True);"
            " time.sleep(60)",
            str(warehouse),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ok"
        started = time.monotonic()
        result = run_cli(
            ["ingest", "--runs-dir", str(runs), "--warehouse", str(warehouse)], {}, tmp_path
        )
    finally:
        holder.kill()
        holder.wait()
    assert result.returncode == 2 and "Traceback" not in result.output, result.output
    assert time.monotonic() - started < 30
    assert f"realcli: error: {warehouse}: cannot open the warehouse" in result.output
    assert "(fix: another process has it open for writing" in result.output
