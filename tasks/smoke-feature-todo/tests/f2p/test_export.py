"""Feature 3: JSON export."""

import json
from datetime import date

from todo import TodoStore
from todo.cli import main


def _store():
    store = TodoStore()
    store.add("Buy milk", tags=["shopping"], priority="high", due=date(2024, 5, 1))
    store.add("Write report")
    store.add("Old chore", tags=["home"], priority="low")
    store.complete(3)
    return store


EXPECTED_TASKS = [
    {"id": 1, "title": "Buy milk", "done": False, "tags": ["shopping"], "priority": "high", "due": "2024-05-01"},
    {"id": 2, "title": "Write report", "done": False, "tags": [], "priority": "normal", "due": None},
    {"id": 3, "title": "Old chore", "done": True, "tags": ["home"], "priority": "low", "due": None},
]


def test_export_all():
    doc = json.loads(_store().export_json())
    assert doc == {"version": 1, "count": 3, "tasks": EXPECTED_TASKS}


def test_export_pending_only():
    doc = json.loads(_store().export_json(include_done=False))
    assert doc == {"version": 1, "count": 2, "tasks": EXPECTED_TASKS[:2]}


def test_export_is_pretty_printed_in_documented_key_order():
    text = _store().export_json()
    doc = json.loads(text)
    assert list(doc) == ["version", "count", "tasks"]
    assert list(doc["tasks"][0]) == ["id", "title", "done", "tags", "priority", "due"]
    assert text == json.dumps(doc, indent=2)


def test_export_empty_store():
    assert json.loads(TodoStore().export_json()) == {"version": 1, "count": 0, "tasks": []}


def _seed(path, capsys):
    main(["--file", str(path), "add", "Buy", "milk", "--tag", "shopping", "--priority", "high", "--due", "2024-05-01"])
    main(["--file", str(path), "add", "Write", "report"])
    main(["--file", str(path), "add", "Old", "chore", "--tag", "home", "--priority", "low"])
    main(["--file", str(path), "done", "3"])
    capsys.readouterr()


def test_cli_export_to_stdout(tmp_path, capsys):
    f = tmp_path / "todo.json"
    _seed(f, capsys)
    assert main(["--file", str(f), "export"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == {"version": 1, "count": 3, "tasks": EXPECTED_TASKS}


def test_cli_export_pending_to_file(tmp_path, capsys):
    f = tmp_path / "todo.json"
    _seed(f, capsys)
    target = tmp_path / "export.json"
    assert main(["--file", str(f), "export", "--pending", "--output", str(target)]) == 0
    assert capsys.readouterr().out.strip() == f"exported 2 tasks to {target}"
    assert json.loads(target.read_text()) == {"version": 1, "count": 2, "tasks": EXPECTED_TASKS[:2]}
