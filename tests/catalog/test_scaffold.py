"""``realcli tasks new`` scaffolds a bundle that ``realcli tasks validate`` accepts and whose
health gates fail honestly (at the reference, never at collection or on the initial state);
a bad or existing ID is a clear error; ``tasks validate`` names what is wrong."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.cli import main
from realcli.runner.gui_session import gui_session
from realcli.runner.health import check_task
from realcli.runner.workspace import prepare_workspace
from realcli.sandbox import make_sandbox


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.sandbox
@pytest.mark.parametrize("kind", ["weave", "longcli"])
def test_new_bundle_validates_and_fails_only_at_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    code, out, _ = _cli(capsys, "tasks", "new", "--kind", kind, "--tasks-dir", str(tmp_path),
                        "--domain", "DAV", "new-task")  # fmt: skip
    assert code == 0 and "task.toml" in out and "tasks check new-task" in out
    root = tmp_path / "new-task"
    for rel in ("instruction.md", "environment/repo/README.md", "solution/trajectory.jsonl"):
        assert (root / rel).is_file(), rel
    if kind == "weave":
        assert (root / "tests/anchors.json").is_file()
        assert 'domain = "DAV"' in (root / "task.toml").read_text()
    code, out, _ = _cli(capsys, "tasks", "validate", "--tasks-dir", str(tmp_path))
    assert code == 0 and out.startswith("ok   new-task"), out
    health = check_task(root, partial(make_sandbox, "local"))
    gates = {g.name: g for g in health.gates}
    failed = sorted(name for name, g in gates.items() if not g.ok)
    assert failed == ["f2p on reference"], [(g.name, g.detail) for g in health.gates]
    assert gates["f2p on initial"].ok and gates["p2p on initial"].ok
    assert health.n_f2p == (2 if kind == "weave" else 1)


def test_a_bad_or_existing_id_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _cli(capsys, "tasks", "new", "--tasks-dir", str(tmp_path), "Bad_ID")
    assert code == 2 and "ID: 'Bad_ID' is not a task id" in err and "fix:" in err
    (tmp_path / "taken").mkdir()
    code, _, err = _cli(capsys, "tasks", "new", "--tasks-dir", str(tmp_path), "taken")
    assert code == 2 and "already exists" in err and "choose another ID" in err
    code, _, err = _cli(capsys, "tasks", "new", "--tasks-dir", str(tmp_path), "--domain",
                        "XYZ", "fine-id")  # fmt: skip
    assert code == 2 and "--domain" in err and "DAV" in err
    assert not (tmp_path / "fine-id").exists()


def test_validate_names_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(capsys, "tasks", "new", "--tasks-dir", str(tmp_path), "w-one")[0] == 0
    toml = tmp_path / "w-one" / "task.toml"
    toml.write_text(toml.read_text().replace('atoms = ["F3", "V1", "V2"]', 'atoms = ["Q9"]'))
    code, out, _ = _cli(capsys, "tasks", "validate", "--tasks-dir", str(tmp_path), "w-one")
    assert code == 1 and out.startswith("FAIL w-one") and "Q9" in out and "task.toml" in out


@pytest.mark.gui
@pytest.mark.sandbox
@pytest.mark.skipif(not Path("/usr/bin/soffice").exists(), reason="LibreOffice is not installed")
def test_the_calc_template_starts_real_calc_from_its_frozen_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tasks", "new", "--app", "calc", "--tasks-dir", str(tmp_path), "calc-task"]
    assert _cli(capsys, *args)[0] == 0
    root = tmp_path / "calc-task"
    assert (root / "environment/profile/user/registrymodifications.xcu").is_file()
    assert _cli(capsys, "tasks", "validate", "--tasks-dir", str(tmp_path))[0] == 0
    task = load_task(root)
    make = partial(make_sandbox, "local")
    workspace, run_dir = tmp_path / "ws", tmp_path / "run"
    run_dir.mkdir()
    prepare_workspace(task, workspace, make)
    with gui_session(task, workspace, run_dir, make, lambda event: None) as gui:
        titles = [t for _, t in gui.desktop.windows()]
    # The workbook's own window, and nothing else: no first-start dialog, tip or recovery.
    assert titles == ["book.fods - LibreOffice Calc"], titles
