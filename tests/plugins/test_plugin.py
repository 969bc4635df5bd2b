"""Acceptance c: a plugin package adds a harness and a figure through entry points, and
``realcli run`` and ``realcli report`` use them without any edit to realcli.

The plugin (``tests/plugins/realcli_demo_plugin``, its own pyproject.toml) is installed for
real with pip, offline (``--no-deps --no-build-isolation``), into a ``--target`` folder that
only this test's subprocesses see (on their ``PYTHONPATH``): installed into the test venv, it
would change every other xdist worker's registries mid-suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from html import escape as html_escape
from pathlib import Path

import pytest

from analysis.figures import all_figures
from tests.conftest import env_for, run_realcli

pytestmark = [pytest.mark.sandbox]

PLUGIN = Path(__file__).parent / "realcli_demo_plugin"
TASK = "smoke-bugfix-intervals"


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("plugin")
    site = tmp / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation"]
    pip += ["--no-index", "--disable-pip-version-check", "--target", str(site), str(PLUGIN)]
    proc = subprocess.run(pip, capture_output=True, text=True, timeout=300, check=False, cwd=tmp)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert list(site.glob("realcli_demo_plugin-0.1.0.dist-info/entry_points.txt"))
    env = env_for(tmp, cache_dir)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    return env


@pytest.fixture(scope="module")
def demo_run(plugin_env: dict[str, str]) -> Path:
    tmp = Path(plugin_env["REALCLI_RUNS_DIR"]).parent
    args = ["run", "--config-dir", str(PLUGIN / "conf"), "harness=demo", "model=replay"]
    proc = run_realcli([*args, f"task={TASK}", "experiment_name=plugin"], plugin_env, tmp)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "passed" in proc.stdout, proc.stdout
    (spec,) = Path(plugin_env["REALCLI_RUNS_DIR"]).rglob("spec.json")
    return spec.parent


def test_run_uses_the_plugin_harness(demo_run: Path) -> None:
    spec = json.loads((demo_run / "spec.json").read_text())["spec"]
    assert spec["harness"]["kind"] == "demo" and spec["harness"]["options"] == {"probe": "ls -1"}
    session = next(
        json.loads(line)
        for line in (demo_run / "ledger.jsonl").read_text().splitlines()
        if json.loads(line).get("kind") == "session"
    )
    assert session["harness"] == "demo", session
    (probe,) = demo_run.rglob("demo_probe.txt")  # the plugin's own command, in the sandbox
    text = probe.read_text()
    assert text.startswith("$ ls -1\nexit 0\n") and "intervals" in text, text


def test_report_has_the_plugin_figure(plugin_env: dict[str, str], demo_run: Path) -> None:
    tmp = Path(plugin_env["REALCLI_RUNS_DIR"]).parent
    assert run_realcli(["ingest"], plugin_env, tmp).returncode == 0
    report = run_realcli(["report"], plugin_env, tmp)
    assert report.returncode == 0, report.stderr[-3000:]
    out = Path(plugin_env["REALCLI_REPORT_DIR"])
    rows = (out / "demo_runs_per_harness.csv").read_text().splitlines()
    assert rows == ["harness,runs,passed", "demo,1,1"], rows
    html = (out / "index.html").read_text()
    assert "Demo plugin: runs per harness" in html
    # plugins come after the built-ins, which keep their order (coverage is the last)
    titles = [html.index(html_escape(f.TITLE)) for f in all_figures()]
    assert titles == sorted(titles) and all_figures()[-1].NAME == "coverage"
    assert html.index("Demo plugin: runs per harness") > titles[-1]


def test_plugin_capabilities_are_checked_and_listed(plugin_env: dict[str, str]) -> None:
    tmp = Path(plugin_env["REALCLI_RUNS_DIR"]).parent
    args = ["run", "--config-dir", str(PLUGIN / "conf"), "harness=demo", f"task={TASK}"]
    proc = run_realcli([*args, "--multirun", "mode=cli_only,gui_only"], plugin_env, tmp)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 2 and "job 1 (harness=demo mode=gui_only" in lines[0], lines
    assert "demo supports cli_only, not gui_only" in lines[0]
    proc = run_realcli([*args, "+harness.options.colour=1"], plugin_env, tmp)
    assert proc.returncode == 2, proc.stderr
    assert "harness.options.colour: unknown key" in proc.stderr
    assert "allowed keys: probe" in proc.stderr
    listing = run_realcli(["agents", "list"], plugin_env, tmp)
    assert listing.returncode == 0, listing.stderr
    (demo,) = [line for line in listing.stdout.splitlines() if line.startswith("demo ")]
    assert demo.split() == ["demo", "-", "-", "n/a", "cli_only", "nothing", "to", "install"]
