"""Feature 2: due dates."""

import json
from datetime import date

import pytest

from todo import TodoStore
from todo.cli import main


def _cli(capsys, path, *args):
    code = main(["--file", str(path), *args])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def test_due_defaults_to_none():
    assert TodoStore().add("a").due is None


def test_add_with_date_object():
    assert TodoStore().add("a", due=date(2024, 5, 1)).due == date(2024, 5, 1)


def test_add_with_iso_string():
    task = TodoStore().add("a", due="2024-05-01")
    assert task.due == date(2024, 5, 1)
    assert isinstance(task.due, date)


@pytest.mark.parametrize("bad", ["2024-13-01", "tomorrow", "01/05/2024"])
def test_invalid_due_rejected(bad):
    store = TodoStore()
    with pytest.raises(ValueError):
        store.add("a", due=bad)
    assert len(store) == 0


def test_due_before_filter():
    store = TodoStore()
    store.add("no due")
    store.add("early", due="2024-05-01")
    store.add("on the day", due="2024-05-10")
    store.add("late", due="2024-06-01")
    store.add("early but done", due="2024-04-01")
    store.complete(5)
    assert [t.id for t in store.tasks(due_before=date(2024, 5, 10))] == [2, 3]
    assert [t.id for t in store.tasks(due_before=date(2024, 5, 10), include_done=True)] == [2, 3, 5]
    assert [t.id for t in store.tasks()] == [1, 2, 3, 4]


def test_overdue():
    store = TodoStore()
    store.add("later", due="2024-05-03")
    store.add("no due")
    store.add("earliest", due="2024-05-01")
    store.add("today", due="2024-05-10")
    store.add("done", due="2024-04-01")
    store.add("same day as 1", due="2024-05-03")
    store.complete(5)
    assert [t.id for t in store.overdue(date(2024, 5, 10))] == [3, 1, 6]
    assert store.overdue(date(2024, 1, 1)) == []


def test_due_is_persisted_as_iso_string(tmp_path):
    path = tmp_path / "todo.json"
    store = TodoStore(path)
    store.add("a", due="2024-05-01")
    store.add("b")
    store.save()
    saved = json.loads(path.read_text())["tasks"]
    assert saved[0]["due"] == "2024-05-01"
    again = TodoStore(path)
    assert again.get(1).due == date(2024, 5, 1)
    assert again.get(2).due is None


def test_old_file_has_no_due(tmp_path):
    path = tmp_path / "todo.json"
    path.write_text(json.dumps({"next_id": 2, "tasks": [{"id": 1, "title": "old", "done": False, "tags": []}]}))
    assert TodoStore(path).get(1).due is None


def test_cli_due(tmp_path, capsys):
    f = tmp_path / "todo.json"
    assert _cli(capsys, f, "add", "File", "taxes", "--due", "2024-04-30", "--tag", "admin")[0] == 0
    assert _cli(capsys, f, "add", "Call", "mum", "--due", "2024-05-20", "--priority", "high")[0] == 0
    assert _cli(capsys, f, "add", "Read", "book")[0] == 0
    code, lines, _ = _cli(capsys, f, "list")
    assert code == 0
    assert lines == [
        "[ ] 1 File taxes #admin due:2024-04-30",
        "[ ] 2 Call mum due:2024-05-20 !high",
        "[ ] 3 Read book",
    ]
    assert _cli(capsys, f, "list", "--due-before", "2024-05-01")[1] == [
        "[ ] 1 File taxes #admin due:2024-04-30"
    ]
    code, lines, _ = _cli(capsys, f, "overdue", "--today", "2024-05-21")
    assert code == 0
    assert lines == ["[ ] 1 File taxes #admin due:2024-04-30", "[ ] 2 Call mum due:2024-05-20 !high"]
    assert _cli(capsys, f, "overdue", "--today", "2024-04-30")[:2] == (0, [])


def test_cli_invalid_due(tmp_path, capsys):
    f = tmp_path / "todo.json"
    code, lines, err = _cli(capsys, f, "add", "x", "--due", "2024-02-30")
    assert code == 1
    assert err.startswith("error:")
    assert _cli(capsys, f, "list", "--all")[1] == []
