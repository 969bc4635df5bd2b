from todo.cli import main


def test_add_then_list(tmp_path, capsys):
    f = str(tmp_path / "t.json")
    assert main(["--file", f, "add", "Buy", "milk", "--tag", "shop"]) == 0
    assert main(["--file", f, "list"]) == 0
    assert capsys.readouterr().out.splitlines() == ["added 1", "[ ] 1 Buy milk #shop"]


def test_unknown_id(tmp_path, capsys):
    assert main(["--file", str(tmp_path / "t.json"), "done", "3"]) == 1
    assert "error: no task with id 3" in capsys.readouterr().err
