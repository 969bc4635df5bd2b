"""Acceptance (f): bad input gives one clear error naming the file, the field and the fix,
exits non-zero where it stops the command, and loses nothing else."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import TASKS, run_realcli

TASK = "smoke-bugfix-intervals"


def _tasks_copy(tmp_path: Path, *names: str) -> Path:
    root = tmp_path / "tasks"
    for name in names or (TASK,):
        shutil.copytree(TASKS / name, root / name)
    return root


def test_unknown_config_option_lists_the_choices(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    proc = run_realcli(["run", "model=gpt9"], realcli_env, tmp_path)
    assert proc.returncode == 2
    assert "model=gpt9" in proc.stderr
    assert "use one of noop, openrouter, recorded, replay, scripted, upstream_" in proc.stderr
    assert "conf/model/gpt9.yaml" in proc.stderr
    assert not (tmp_path / "runs").exists()


def test_unknown_config_key_names_the_yaml_file(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    proc = run_realcli(["run", "+model.backnd=noop"], realcli_env, tmp_path)
    assert proc.returncode == 2
    line = proc.stderr.strip().splitlines()[-1]
    assert "conf/model/replay.yaml: model.backnd: unknown key" in line
    assert "did you mean 'backend'" in line


def test_bad_config_value_lists_allowed_values(tmp_path: Path, realcli_env: dict[str, str]) -> None:
    proc = run_realcli(["run", "mode.name=desktop"], realcli_env, tmp_path)
    assert proc.returncode == 2
    assert "conf/mode/cli_only.yaml: mode.name: bad value 'desktop'" in proc.stderr
    assert "'cli_only', 'gui_only' or 'hybrid'" in proc.stderr


@pytest.mark.sandbox
def test_misspelled_task_key_stops_run_and_check(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    tasks = _tasks_copy(tmp_path)
    toml = tasks / TASK / "task.toml"
    toml.write_text(toml.read_text().replace("title =", "titel =", 1))
    env = {**realcli_env, "REALCLI_TASKS_DIR": str(tasks)}
    for args, code in ((["run", "model=noop"], 2), (["tasks", "check", TASK], 1)):
        proc = run_realcli(args, env, tmp_path)
        assert proc.returncode == code, proc.stderr
        out = proc.stdout + proc.stderr
        assert f"{toml}: titel: unknown key (fix: did you mean 'title'?" in out


@pytest.mark.sandbox
def test_tests_that_do_not_collect_are_named(tmp_path: Path, realcli_env: dict[str, str]) -> None:
    tasks = _tasks_copy(tmp_path)
    broken = tasks / TASK / "tests" / "p2p" / "test_broken.py"
    broken.write_text("def test_x(:\n    pass\n")
    proc = run_realcli(["tasks", "check", "--tasks-dir", str(tasks)], realcli_env, tmp_path)
    assert proc.returncode == 1
    assert f"{broken}: tests do not collect" in proc.stdout
    assert "(fix: make the test file importable" in proc.stdout


@pytest.mark.sandbox
def test_truncated_ledger_is_reported_and_nothing_else_is_lost(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    proc = run_realcli(
        ["run", "--multirun", "model=noop", "seed=1,2", f"task={TASK}"], realcli_env, tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    ledgers = sorted((tmp_path / "runs").glob("*/*/ledger.jsonl"))
    assert len(ledgers) == 2
    damaged = ledgers[0]
    data = damaged.read_bytes()
    damaged.write_bytes(data[: data.rindex(b"\n", 0, len(data) - 1) + 20])  # cut the last line

    show = run_realcli(["show", damaged.parent.name], realcli_env, tmp_path)
    assert show.returncode == 0
    assert f"{damaged}: line" in show.stdout and "truncated last line" in show.stdout

    ingest = run_realcli(["ingest"], realcli_env, tmp_path)
    assert ingest.returncode == 0
    assert "2 loaded" in ingest.stdout and "1 incomplete" in ingest.stdout

    regrade = run_realcli(["regrade"], realcli_env, tmp_path)
    assert regrade.returncode == 0 and "0 verdicts changed" in regrade.stdout


def test_bad_cli_arguments(tmp_path: Path, realcli_env: dict[str, str]) -> None:
    proc = run_realcli(["tasks", "check", "--repeat", "0"], realcli_env, tmp_path)
    assert proc.returncode == 2
    assert "--repeat: 0 is not a positive count (fix: use 1 or more)" in proc.stderr
    proc = run_realcli(["show", "ffff"], realcli_env, tmp_path)
    assert proc.returncode == 2 and "no run matching 'ffff'" in proc.stderr
    proc = run_realcli(["report"], realcli_env, tmp_path)
    assert proc.returncode == 2 and "run `realcli ingest` first" in proc.stderr
    proc = run_realcli(["frobnicate"], realcli_env, tmp_path)
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


def test_bad_scripted_backend_file(tmp_path: Path, realcli_env: dict[str, str]) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(json.dumps({"action": "shell"}) + "\n")
    proc = run_realcli(
        ["run", "model=scripted", f"model.script={script}", f"task={TASK}"], realcli_env, tmp_path
    )
    assert proc.returncode == 2, proc.stdout
    assert str(script) in proc.stderr and "cmd" in proc.stderr


def test_protocol_config_errors_name_the_protocol_file(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    env = {k: v for k, v in realcli_env.items() if k != "OPENAI_API_KEY"}
    proc = run_realcli(["run", "protocol=simulated_user"], env, tmp_path)
    assert proc.returncode == 2
    assert (
        "conf/protocol/simulated_user.yaml: protocol.guidance.user_model.upstream.api_key_env: "
        "environment variable OPENAI_API_KEY is not set"
    ) in proc.stderr
    proc = run_realcli(
        ["run", "protocol=interactive", "protocol.guidance.budget=-1"], env, tmp_path
    )
    assert proc.returncode == 2
    assert "conf/protocol/interactive.yaml: protocol.guidance.budget" in proc.stderr
    proc = run_realcli(
        ["run", "protocol=interactive", "protocol.guidance.source=model"], env, tmp_path
    )
    assert proc.returncode == 2 and "protocol.guidance" in proc.stderr
    assert "user_model" in proc.stderr
