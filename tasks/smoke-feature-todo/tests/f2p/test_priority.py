"""Feature 1: task priorities."""

import json

import pytest

from todo import TaskNotFound, TodoStore
from todo.cli import main


def _cli(capsys, path, *args):
    code = main(["--file", str(path), *args])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def test_priorities_constant():
    import todo
    import todo.model

    assert todo.PRIORITIES == ("low", "normal", "high")
    assert todo.model.PRIORITIES == ("low", "normal", "high")


def test_default_priority_is_normal():
    assert TodoStore().add("a").priority == "normal"


def test_add_with_priority():
    store = TodoStore()
    assert store.add("a", priority="high").priority == "high"
    assert store.add("b", tags=["x"], priority="low").priority == "low"


def test_invalid_priority_rejected():
    store = TodoStore()
    with pytest.raises(ValueError):
        store.add("a", priority="urgent")
    assert len(store) == 0


def test_set_priority():
    store = TodoStore()
    store.add("a")
    assert store.set_priority(1, "high").priority == "high"
    assert store.get(1).priority == "high"
    with pytest.raises(ValueError):
        store.set_priority(1, "asap")
    assert store.get(1).priority == "high"
    with pytest.raises(TaskNotFound):
        store.set_priority(42, "low")


def test_sort_by_priority():
    store = TodoStore()
    store.add("a", priority="low")
    store.add("b", priority="high")
    store.add("c")
    store.add("d", priority="high")
    assert [t.id for t in store.tasks(sort="priority")] == [2, 4, 3, 1]
    assert [t.id for t in store.tasks(sort="id")] == [1, 2, 3, 4]
    assert [t.id for t in store.tasks()] == [1, 2, 3, 4]
    with pytest.raises(ValueError):
        store.tasks(sort="title")


def test_priority_is_persisted(tmp_path):
    path = tmp_path / "todo.json"
    store = TodoStore(path)
    store.add("a", priority="low")
    store.save()
    assert json.loads(path.read_text())["tasks"][0]["priority"] == "low"
    assert TodoStore(path).get(1).priority == "low"


def test_old_file_defaults_to_normal(tmp_path):
    path = tmp_path / "todo.json"
    path.write_text(json.dumps({"next_id": 2, "tasks": [{"id": 1, "title": "old", "done": False, "tags": []}]}))
    assert TodoStore(path).get(1).priority == "normal"


def test_cli_priority(tmp_path, capsys):
    f = tmp_path / "todo.json"
    assert _cli(capsys, f, "add", "Water", "plants")[0] == 0
    assert _cli(capsys, f, "add", "Pay", "rent", "--priority", "high", "--tag", "home")[0] == 0
    code, lines, _ = _cli(capsys, f, "list")
    assert code == 0
    assert lines == ["[ ] 1 Water plants", "[ ] 2 Pay rent #home !high"]
    assert _cli(capsys, f, "prio", "1", "low")[:2] == (0, ["updated 1"])
    code, lines, _ = _cli(capsys, f, "list", "--sort", "priority")
    assert lines == ["[ ] 2 Pay rent #home !high", "[ ] 1 Water plants !low"]


def test_cli_prio_errors(tmp_path, capsys):
    f = tmp_path / "todo.json"
    code, _, err = _cli(capsys, f, "prio", "9", "high")
    assert code == 1
    assert "error: no task with id 9" in err
    _cli(capsys, f, "add", "x")
    with pytest.raises(SystemExit) as exc:
        main(["--file", str(f), "add", "y", "--priority", "urgent"])
    assert exc.value.code == 2
    assert [t.title for t in TodoStore(f).tasks()] == ["x"]
