import pytest

from todo import TaskNotFound, TodoStore


def test_add_and_list():
    store = TodoStore()
    a = store.add("Buy milk", tags=["Shopping", "#shopping"])
    b = store.add("Write report")
    assert (a.id, b.id) == (1, 2)
    assert a.tags == ["shopping"]
    assert [t.id for t in store.tasks()] == [1, 2]


def test_complete_hides_task():
    store = TodoStore()
    store.add("a")
    store.add("b")
    store.complete(1)
    assert [t.id for t in store.tasks()] == [2]
    assert [t.id for t in store.tasks(include_done=True)] == [1, 2]


def test_missing_task():
    with pytest.raises(TaskNotFound):
        TodoStore().get(7)


def test_roundtrip(tmp_path):
    path = tmp_path / "todo.json"
    store = TodoStore(path)
    store.add("a", tags=["x"])
    store.save()
    again = TodoStore(path)
    assert again.get(1).title == "a"
    assert again.get(1).tags == ["x"]
