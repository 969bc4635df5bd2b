"""The typed records of a run folder (``spec.json``, the ledger header's spec) as ``show``,
``regrade`` and the warehouse read them: a bad one is one error naming the file, the field and
the fix."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from realcli.ledger.run_records import RunRecordError, read_run_record, recorded_spec
from realcli.runner.commands import regrade, show
from tests.warehouse.run_folders import write_run


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_run(tmp_path_factory.mktemp("runs"), seed=3, harness="codex", mode="hybrid")


def _edit(path: Path, change: Callable[[dict[str, Any]], object]) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_spec_json_reads_as_its_typed_record(run_dir: Path) -> None:
    record = read_run_record(run_dir)
    assert record.run_key == run_dir.name
    assert (record.experiment, record.task.id, record.task.kind) == ("exp", "task-a", "longcli")
    spec = record.spec
    assert (spec.model.name, spec.harness.name, spec.mode.name, spec.seed) == (
        "replay",
        "codex",
        "hybrid",
        3,
    )
    assert spec.mode.channels == ("cli", "gui")
    assert spec.section("sandbox")["kind"] == "local"  # the rest of the spec is kept as written
    assert spec.section("no_such_section") == {}


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        (lambda d: d["spec"]["harness"].pop("name"), "spec.harness.name", "missing"),
        (lambda d: d["spec"].update(seed=True), "spec.seed", "expected int, found True"),
        (lambda d: d["spec"].update(mode="hybrid"), "spec.mode", "expected object"),
        (lambda d: d["task"].update(id=None), "task.id", "missing"),
        (lambda d: d.pop("run_key"), "run_key", "missing"),
    ],
    ids=["missing", "bool-seed", "not-object", "null", "no-run-key"],
)
def test_a_bad_spec_json_names_file_field_and_fix(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], field: str, problem: str
) -> None:
    run = write_run(tmp_path)
    _edit(run / "spec.json", change)
    with pytest.raises(RunRecordError) as err:
        read_run_record(run)
    assert (err.value.where, err.value.field) == (str(run / "spec.json"), field)
    assert err.value.problem.startswith(problem)
    assert "restore spec.json" in err.value.fix


def test_numbers_in_text_fields_read_as_text(tmp_path: Path) -> None:
    run = write_run(tmp_path)
    _edit(run / "spec.json", lambda d: d["spec"]["harness"].update(version=2))
    assert read_run_record(run).spec.harness.version == "2"


def test_a_bad_header_spec_names_the_ledger_line(tmp_path: Path) -> None:
    with pytest.raises(RunRecordError) as err:
        recorded_spec({"model": {"name": "m"}}, tmp_path / "ledger.jsonl")
    assert err.value.field == "line 1: spec.harness"
    assert err.value.problem == "missing"


def test_show_prints_the_recorded_axes(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert show(run_dir.parent.parent, run_dir.name) == 0
    out = capsys.readouterr().out
    assert "model=replay harness=codex mode=hybrid protocol=autonomous seed=3" in out


def test_regrade_refuses_a_run_whose_spec_json_is_another_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path)
    _edit(run / "spec.json", lambda d: d.update(run_key="0123456789abcdef"))
    assert regrade(tmp_path, [run.name]) == 1
    out = capsys.readouterr().out
    assert f"error    {run.name}: {run / 'verdict.json'}: run_key: verdict is for" in out
    assert "spec.json for '0123456789abcdef'" in out
    _edit(run / "spec.json", lambda d: d["spec"].pop("seed"))
    assert regrade(tmp_path, [run.name]) == 1
    assert f"{run / 'spec.json'}: spec.seed: missing" in capsys.readouterr().out
