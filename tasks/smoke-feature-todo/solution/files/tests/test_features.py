import json
from datetime import date

import pytest

from todo import PRIORITIES, TodoStore
from todo.cli import main


def test_priorities():
    store = TodoStore()
    store.add("a", priority="low")
    store.add("b", priority="high")
    store.add("c")
    assert PRIORITIES == ("low", "normal", "high")
    assert [t.id for t in store.tasks(sort="priority")] == [2, 3, 1]
    with pytest.raises(ValueError):
        store.add("d", priority="urgent")
    store.set_priority(3, "high")
    assert [t.id for t in store.tasks(sort="priority")] == [2, 3, 1]


def test_due_dates():
    store = TodoStore()
    store.add("a", due="2024-05-01")
    store.add("b", due=date(2024, 6, 1))
    store.add("c")
    with pytest.raises(ValueError):
        store.add("d", due="soon")
    assert [t.id for t in store.tasks(due_before=date(2024, 5, 1))] == [1]
    assert [t.id for t in store.overdue(date(2024, 7, 1))] == [1, 2]


def test_old_files_still_load(tmp_path):
    path = tmp_path / "todo.json"
    path.write_text(json.dumps({"next_id": 2, "tasks": [{"id": 1, "title": "x", "done": False, "tags": []}]}))
    task = TodoStore(path).get(1)
    assert (task.priority, task.due) == ("normal", None)


def test_export(tmp_path, capsys):
    f = str(tmp_path / "t.json")
    main(["--file", f, "add", "Pay", "rent", "--priority", "high", "--due", "2024-05-01"])
    main(["--file", f, "list"])
    main(["--file", f, "export"])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[:2] == ["added 1", "[ ] 1 Pay rent due:2024-05-01 !high"]
    doc = json.loads("\n".join(lines[2:]))
    assert doc["count"] == 1
    assert doc["tasks"][0] == {
        "id": 1,
        "title": "Pay rent",
        "done": False,
        "tags": [],
        "priority": "high",
        "due": "2024-05-01",
    }
