"""Acceptance b: a sweep with an unsupported combination exits 2 before any run starts, one
line per refused job, and no run folder is created; config names and typed harness options are
checked for every job the same way."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from realcli.harness.base import HARNESSES
from realcli.harness.builtin import BuiltinHarness
from realcli.runner.app import CONF_DIR
from realcli.runner.cli_run import run_command
from realcli.runner.precheck import precheck
from tests.conftest import TASKS


@pytest.fixture
def env(tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REALCLI_TASKS_DIR", str(TASKS))
    monkeypatch.setenv("REALCLI_RUNS_DIR", str(tmp_path / "runs"))
    monkeypatch.setenv("REALCLI_CACHE_DIR", str(cache_dir))
    monkeypatch.chdir(tmp_path)
    return tmp_path


class CliOnlyHarness(BuiltinHarness):
    """A harness that declares one mode, as a plugin adapter whose agent has no GUI client
    would (every built-in adapter runs all three modes)."""

    kind = "cli_agent_only"
    MODES = frozenset({"cli_only"})


@pytest.fixture
def conf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The harness registered for this test only (other tests on this worker see the built-ins
    alone) and a user config dir with its YAML (``-cd``)."""
    HARNESSES.names()  # built-ins and entry points loaded first
    monkeypatch.setitem(HARNESSES._items, "cli_agent_only", CliOnlyHarness)
    (tmp_path / "conf" / "harness").mkdir(parents=True)
    text = 'name: cli_agent_only\nkind: cli_agent_only\nversion: "1"\nmax_turns: 50\n'
    (tmp_path / "conf" / "harness" / "cli_agent_only.yaml").write_text(text)
    return tmp_path / "conf"


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    code = run_command(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    return err.splitlines()


def _nothing_ran(tmp: Path) -> None:
    runs = tmp / "runs"
    assert not runs.exists() or not any(runs.rglob("spec.json")), list(runs.rglob("*"))
    assert not (tmp / "multirun").exists() and not (tmp / "outputs").exists()


def test_unsupported_modes_refuse_the_sweep_naming_each_job(
    env: Path, conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--multirun", "-cd", str(conf), "harness=builtin,cli_agent_only,openhands"]
    argv += ["mode=cli_only,gui_only,hybrid", "task=smoke-bugfix-intervals", "model=replay"]
    lines = _refused(argv, capsys)
    # Hydra's job order: harness outer, mode inner; builtin and openhands run every mode
    for job, mode in ((4, "gui_only"), (5, "hybrid")):
        assert any(
            line.startswith(f"realcli: error: job {job} (harness=cli_agent_only mode={mode}")
            and f"cli_agent_only supports cli_only, not {mode}" in line
            for line in lines
        ), lines
    labels = [line.split("):", 1)[0] for line in lines[:-1]]
    assert len(labels) == 2 and not any("builtin" in x or "openhands" in x for x in labels)
    assert lines[-1].startswith("realcli: error: 2 refusal(s) in 9 job(s); no run started"), lines
    _nothing_ran(env)


def test_one_run_is_refused_the_same_way(
    env: Path, conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["-cd", str(conf), "harness=cli_agent_only", "mode=gui_only"]
    lines = _refused([*argv, "task=smoke-bugfix-intervals"], capsys)
    assert "job 0 (harness=cli_agent_only mode=gui_only" in lines[0], lines
    assert (
        "cli_agent_only supports cli_only, not gui_only (fix: run it with mode=cli_only" in lines[0]
    )
    _nothing_ran(env)


def test_bad_options_and_names_are_config_errors_per_job(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--multirun", "harness=builtin,codex", "+harness.options.colour=blue"]
    lines = _refused([*argv, "task=smoke-bugfix-intervals"], capsys)
    codex = [line for line in lines if "(harness=codex" in line]
    assert len(codex) == 1, lines
    assert "conf/harness/codex.yaml: harness.options.colour: unknown key" in codex[0]
    assert "allowed keys: catalog_model, catalog_patch, config" in codex[0]
    assert any("(harness=builtin" in line and "harness.options.colour" in line for line in lines)

    argv = ["--multirun", "harness.kind=opnhands,builtin", "task=smoke-bugfix-intervals"]
    lines = _refused(argv, capsys)
    assert len(lines) == 2, lines
    assert "harness.kind: no harness 'opnhands' (fix: did you mean 'openhands'?" in lines[0]
    assert _refused(["sandbox.kind=dockr"], capsys)[0].endswith(
        "sandbox.kind: no sandbox backend 'dockr' (fix: did you mean 'docker'? use one of "
        "docker, local)"
    )
    assert (
        "model.backend: no backend 'replya' (fix: did you mean 'replay'?"
        in _refused(["model.backend=replya"], capsys)[0]
    )
    lines = _refused(["harness=codex", "harness.options.max_retries=many"], capsys)
    assert "harness.options.max_retries" in lines[0] and "valid integer" in lines[0], lines
    _nothing_ran(env)


def test_a_hundred_job_sweep_is_checked_in_seconds(env: Path) -> None:
    argv = ["--multirun", "seed=range(0,100)", "task=smoke-bugfix-intervals", "model=noop"]
    started = time.monotonic()
    precheck(argv, [CONF_DIR])  # every job composed, validated and checked: none refused
    seconds = time.monotonic() - started
    print(f"100-job sweep checked in {seconds:.2f} s")
    assert seconds < 60, seconds
    _nothing_ran(env)


def test_agents_list_shows_versions_installs_and_modes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from realcli.runner.commands import agents_list

    assert agents_list(tmp_path / "empty") == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()}
    every = "cli_only,gui_only,hybrid"
    assert rows["openhands"][:5] == ["openhands", "pip", "1.16.0", "missing", every]
    assert rows["codex"][:5] == ["codex", "npm", "0.171.0", "missing", every]
    builtin = "builtin - - n/a cli_only,gui_only,hybrid nothing to install"
    assert rows["builtin"] == builtin.split()
    assert list(rows)[:2] == ["node", "builtin"] and "command" in rows
