"""``realcli runs``: run folders listed from their files (no ingest, so mid-sweep too), damaged
folders as ``unreadable`` rows with a warning naming the file; ``realcli show`` on an
ambiguous prefix lists the matching runs and exits 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from realcli.cli import main
from realcli.judge.store import write_judgement
from realcli.runner.listing import RunFilters, list_runs
from tests.warehouse.judgement_records import make_judgement
from tests.warehouse.run_folders import truncate_ledger, write_run


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six real run folders in two experiments, three of them damaged in different files."""
    runs = tmp_path_factory.mktemp("listing") / "runs"
    judged = write_run(runs, experiment="alpha", task_id="task-a", seed=1)
    write_judgement(judged, make_judgement(judged.name, "trajectory", final=0.9))
    failed = make_judgement(judged.name, "outcome_only", failed=True)
    write_judgement(judged, failed)
    write_run(runs, experiment="alpha", task_id="task-b", seed=2, passed=False, f2p_step=0.3)
    killed = write_run(runs, experiment="beta", task_id="task-a", model="noop", verdict=False)
    truncate_ledger(killed)  # killed mid-run: still listed, from its header
    bad_verdict = write_run(runs, experiment="beta", task_id="task-c", harness="codex")
    (bad_verdict / "verdict.json").write_text("{not json")
    bad_header = write_run(runs, experiment="beta", task_id="task-d")
    (bad_header / "ledger.jsonl").write_bytes(b"\x00garbage\n")
    bad_judgement = write_run(runs, experiment="beta", task_id="task-e", status="infra_error")
    (bad_judgement / "judgements").mkdir()
    (bad_judgement / "judgements" / "trajectory.json").write_text('{"run_key": 1}')
    (runs / "beta" / "0000starting").mkdir()  # a folder being created: nothing written yet
    fifo = write_run(runs, experiment="gamma", task_id="task-f")
    (fifo / "ledger.jsonl").unlink()
    os.mkfifo(fifo / "ledger.jsonl")  # would block a plain open(): never read
    (runs / "gamma" / "ffff-link").symlink_to(judged, target_is_directory=True)
    return runs


def _by_task(runs_dir: Path, **filters: tuple[str, ...]) -> dict[str, dict[str, object]]:
    return {r.task: vars(r) for r in list_runs(runs_dir, RunFilters(**filters))}


def test_rows_come_from_header_spec_verdict_and_judgements(runs_dir: Path) -> None:
    rows = _by_task(runs_dir, experiment=("alpha", "beta"))
    assert sorted(rows) == ["?", "task-a", "task-b", "task-c", "task-e"]  # task-a twice
    alpha = _by_task(runs_dir, experiment=("alpha",))
    assert {k: alpha["task-a"][k] for k in ("model", "harness", "mode", "protocol", "seed")} == {
        "model": "replay",
        "harness": "builtin",
        "mode": "cli_only",
        "protocol": "autonomous",
        "seed": 1,
    }
    assert alpha["task-a"]["kind"] == "longcli"
    assert (alpha["task-a"]["status"], alpha["task-a"]["passed"]) == ("graded", True)
    assert alpha["task-a"]["judged"] == {"trajectory": pytest.approx(0.9), "outcome_only": None}
    assert (alpha["task-b"]["passed"], alpha["task-b"]["f2p_step"]) == (False, 0.3)
    beta = _by_task(runs_dir, experiment=("beta",), task=("task-a",))
    assert (beta["task-a"]["status"], beta["task-a"]["model"]) == ("incomplete", "noop")
    assert beta["task-a"]["warnings"] == []


def test_a_damaged_folder_is_an_unreadable_row_with_a_warning_naming_the_file(
    runs_dir: Path,
) -> None:
    rows = _by_task(runs_dir, experiment=("beta",))
    verdict = rows["task-c"]
    assert verdict["status"] == "unreadable" and verdict["harness"] == "codex"
    assert verdict["warnings"] == [f"{verdict['run_dir']}/verdict.json: not valid JSON"
                                   " (key must be a string at line 1 column 2)"]  # fmt: skip
    header = rows["?"]  # no usable header: key and experiment from the folder's names
    assert header["status"] == "unreadable" and header["passed"] is None
    assert str(header["warnings"][0]).startswith(f"{header['run_dir']}/ledger.jsonl: line 1:")
    judgement = rows["task-e"]
    assert judgement["status"] == "infra_error" and judgement["judged"] == {}
    assert "judgements/trajectory.json" in str(judgement["warnings"][0])


def test_a_fifo_ledger_or_a_linked_folder_is_never_read(runs_dir: Path) -> None:
    rows = list_runs(runs_dir, RunFilters(experiment=("gamma",)))
    assert [(r.status, r.warnings) for r in rows] == [
        ("unreadable", [f"{rows[0].run_dir}/ledger.jsonl: is a FIFO, not a regular file"]),
        ("unreadable", [f"{rows[1].run_dir}: is a symbolic link (not followed)"]),
    ]
    assert rows[0].kind == "longcli" and rows[1].task == "?"


def test_filters_combine(runs_dir: Path) -> None:
    unreadable = list_runs(runs_dir, RunFilters(status=("unreadable",)))
    assert sorted(r.task for r in unreadable) == ["?", "?", "?", "task-c"]  # header, FIFO, link
    assert list(_by_task(runs_dir, model=("noop",), kind=("longcli",))) == ["task-a"]
    assert _by_task(runs_dir, harness=("codex",), mode=("hybrid",)) == {}


def test_cli_prints_a_table_and_warnings(
    runs_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["runs", "--runs-dir", str(runs_dir), "--experiment", "alpha", "--experiment", "beta"])
        == 0
    )
    out, err = capsys.readouterr()
    header = out.splitlines()[0].split()
    assert header[:9] == ["key", "experiment", "task", "model", "harness", "mode", "protocol",
                          "seed", "status"]  # fmt: skip
    assert "trajectory=0.90 outcome_only=—" in out or "outcome_only=— trajectory=0.90" in out
    assert out.splitlines()[-1] == (
        f"6 runs in {runs_dir}: 2 graded, 1 incomplete, 1 infra_error, 2 unreadable"
    )
    assert err.count("warning: ") == 3 and "verdict.json: not valid JSON" in err


def test_cli_json_is_for_scripts(runs_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["runs", "--runs-dir", str(runs_dir), "--json", "--status", "graded"]) == 0
    docs = json.loads(capsys.readouterr().out)
    assert [(d["experiment"], d["task"]) for d in docs] == [
        ("alpha", "task-a"),
        ("alpha", "task-b"),
    ]
    assert len(docs[0]["run_key"]) == 16 and docs[0]["judged"]["trajectory"] == 0.9


def test_show_with_an_ambiguous_prefix_lists_the_matches_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = tmp_path / "runs"
    keys = [write_run(runs, task_id=f"task-{i}", seed=i).name for i in range(1, 30)]
    prefix = next(k[0] for k in keys if sum(o.startswith(k[0]) for o in keys) >= 2)
    matching = sorted(k for k in keys if k.startswith(prefix))

    assert main(["show", prefix, "--runs-dir", str(runs)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(
        f"realcli: error: {runs}: RUN_KEY: {len(matching)} runs match {prefix!r} (fix: give a"
        " longer prefix"
    )
    shortest = [
        next(k[:n] for n in range(2, 16) if sum(o.startswith(k[:n]) for o in matching) == 1)
        for k in matching
    ]
    assert f"give a longer prefix ({', '.join(shortest[:3])}" in err[0]
    listed = [line.split()[0] for line in err[1:]]
    assert listed == matching
    assert all(" model=replay seed=" in line and " graded " in line for line in err[1:])
