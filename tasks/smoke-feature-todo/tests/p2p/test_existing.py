"""Existing behaviour of the todo library and CLI that must keep working."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from todo import Task, TaskNotFound, TodoStore
from todo.cli import main


def test_add_assigns_increasing_ids_and_normalizes_tags():
    store = TodoStore()
    a = store.add("  Buy milk ", tags=["Shopping", "#shopping", " ", "Food"])
    b = store.add("Write report")
    assert isinstance(a, Task)
    assert (a.id, a.title, a.tags, a.done) == (1, "Buy milk", ["shopping", "food"], False)
    assert b.id == 2
    assert len(store) == 2


def test_empty_title_rejected():
    store = TodoStore()
    with pytest.raises(ValueError):
        store.add("   ")
    assert len(store) == 0


def test_complete_remove_and_filters():
    store = TodoStore()
    store.add("a", tags=["x"])
    store.add("b")
    store.add("c", tags=["x"])
    store.complete(1)
    assert [t.id for t in store.tasks()] == [2, 3]
    assert [t.id for t in store.tasks(include_done=True)] == [1, 2, 3]
    assert [t.id for t in store.tasks(tag="X")] == [3]
    assert [t.id for t in store.tasks(tag="#x", include_done=True)] == [1, 3]
    store.remove(2)
    assert [t.id for t in store.tasks(include_done=True)] == [1, 3]
    assert store.add("d").id == 4
    with pytest.raises(TaskNotFound):
        store.remove(2)
    with pytest.raises(KeyError):
        store.get(99)


def test_persistence_roundtrip(tmp_path):
    path = tmp_path / "todo.json"
    store = TodoStore(path)
    store.add("a", tags=["x"])
    store.add("b")
    store.complete(2)
    store.remove(1)
    store.save()
    again = TodoStore(path)
    assert [(t.id, t.title, t.done) for t in again.tasks(include_done=True)] == [(2, "b", True)]
    assert again.add("c").id == 3


def test_old_format_file_loads(tmp_path):
    path = tmp_path / "todo.json"
    path.write_text(
        json.dumps(
            {
                "next_id": 5,
                "tasks": [
                    {"id": 1, "title": "old one", "done": True, "tags": ["a"]},
                    {"id": 4, "title": "old two", "done": False, "tags": []},
                ],
            }
        )
    )
    store = TodoStore(path)
    assert [t.title for t in store.tasks(include_done=True)] == ["old one", "old two"]
    assert store.add("new").id == 5


def test_cli_basic_flow(tmp_path, capsys):
    f = str(tmp_path / "todo.json")
    assert main(["--file", f, "add", "Buy", "milk", "--tag", "shopping"]) == 0
    assert main(["--file", f, "add", "Write", "report", "--tag", "work", "--tag", "urgent"]) == 0
    assert main(["--file", f, "done", "1"]) == 0
    assert main(["--file", f, "list"]) == 0
    assert main(["--file", f, "list", "--all"]) == 0
    assert main(["--file", f, "rm", "2"]) == 0
    assert main(["--file", f, "list", "--all", "--tag", "shopping"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "added 1",
        "added 2",
        "completed 1",
        "[ ] 2 Write report #work #urgent",
        "[x] 1 Buy milk #shopping",
        "[ ] 2 Write report #work #urgent",
        "removed 2",
        "[x] 1 Buy milk #shopping",
    ]


def test_cli_errors(tmp_path, capsys):
    f = str(tmp_path / "todo.json")
    assert main(["--file", f, "done", "3"]) == 1
    assert "error: no task with id 3" in capsys.readouterr().err
    assert main(["--file", f, "add", " "]) == 1
    assert capsys.readouterr().err.startswith("error:")


def test_python_dash_m_uses_todo_file_env(tmp_path):
    env = dict(os.environ, TODO_FILE=str(tmp_path / "env.json"))
    cmd = [sys.executable, "-m", "todo"]
    add = subprocess.run(
        [*cmd, "add", "From", "env"], cwd=Path.cwd(), env=env, capture_output=True, text=True, timeout=60
    )
    assert add.returncode == 0, add.stderr
    assert add.stdout == "added 1\n"
    ls = subprocess.run([*cmd, "list"], cwd=Path.cwd(), env=env, capture_output=True, text=True, timeout=60)
    assert ls.stdout == "[ ] 1 From env\n"
    assert (tmp_path / "env.json").exists()
