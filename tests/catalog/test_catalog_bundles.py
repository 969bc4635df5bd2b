"""Task bundles load, validate, and fail with errors that name the file, the field and the fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from realcli.catalog import discover_tasks, load_task, select_tasks
from realcli.schema.actions import WriteAction
from realcli.schema.run_spec import SuiteSpec
from realcli.util.errors import TaskError
from tests.conftest import TASKS

CATEGORIES = {"from_scratch", "feature", "bugfix", "refactor"}


def _copy_task(tmp_path: Path, name: str = "smoke-bugfix-intervals") -> Path:
    dest = tmp_path / "tasks" / name
    shutil.copytree(TASKS / name, dest)
    return dest


def test_shipped_smoke_tasks_cover_every_category() -> None:
    bundles = select_tasks(TASKS, SuiteSpec(name="smoke", suite="smoke"))
    assert {b.spec.category.value for b in bundles} == CATEGORIES
    for bundle in bundles:
        assert len(bundle.spec.substeps) >= 3
        assert bundle.test_files("p2p"), bundle.id
        assert all(
            a.content is not None for a in bundle.reference_actions() if isinstance(a, WriteAction)
        )


def test_digest_changes_with_any_file(tmp_path: Path) -> None:
    root = _copy_task(tmp_path)
    before = load_task(root).digest
    assert load_task(root).digest == before
    (root / "instruction.md").write_text("changed\n")
    assert load_task(root).digest != before


def test_misspelled_key_names_file_field_and_fix(tmp_path: Path) -> None:
    root = _copy_task(tmp_path)
    toml = root / "task.toml"
    toml.write_text(toml.read_text().replace("category =", "categroy =", 1))
    with pytest.raises(TaskError) as err:
        load_task(root)
    message = str(err.value)
    assert str(toml) in message
    assert "categroy" in message
    assert "did you mean 'category'" in message


def test_bad_substep_selector_is_reported(tmp_path: Path) -> None:
    root = _copy_task(tmp_path)
    toml = root / "task.toml"
    text = toml.read_text()
    first = text.index('tests = ["') + len('tests = ["')
    toml.write_text(text[:first] + "f2p/test_nothing_here.py" + text[text.index('"', first) :])
    with pytest.raises(TaskError, match=r"substeps\..*\.tests.*names no file"):
        load_task(root)


def test_content_from_may_not_leave_solution(tmp_path: Path) -> None:
    root = _copy_task(tmp_path)
    (root / "solution" / "trajectory.jsonl").write_text(
        '{"action": "write", "path": "x.py", "content_from": "../task.toml"}\n'
    )
    with pytest.raises(TaskError, match="content_from"):
        load_task(root).reference_actions()


def test_unknown_task_id_lists_known_ones() -> None:
    with pytest.raises(TaskError, match="smoke-bugfix-intervals"):
        select_tasks(TASKS, SuiteSpec(name="all"), task="no-such-task")


def test_discover_finds_all_tasks() -> None:
    assert len(discover_tasks(TASKS)) >= 4
