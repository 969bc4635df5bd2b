"""Real applications in the app sandbox (``[[gui.apps]]`` ``profile``, ``env``,
``system_paths``, ``start_s``): every run starts the app from a fresh copy of the bundle's
frozen profile, writable by the app and never by the agent; the host folders a real app
needs are read-only; bad values are errors naming task.toml, the field and the fix."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.runner.gui_session import gui_session
from realcli.runner.workspace import prepare_workspace, sandbox_options
from realcli.sandbox import make_sandbox
from realcli.schema.task_gui_app import PROFILE_MOUNT
from realcli.util.errors import TaskError
from tests.conftest import TASKS

make = partial(make_sandbox, "local")
BASE = "weave-doc-review-signoff"

PROBE_APP = r"""
import os, sys, tkinter
state = sys.argv[1]
with open(state) as f:
    count = int(f.read()) + 1
with open(state, "w") as f:
    f.write(str(count))
try:
    open("/run/realcli/app/x", "w")
    app_ro = "no"
except OSError:
    app_ro = "yes"
fonts = "yes" if os.path.isfile("/etc/fonts/fonts.conf") else "no"
root = tkinter.Tk()
root.title(f"probe count={count} home={os.environ['HOME']} fonts={fonts} app_ro={app_ro}")
root.mainloop()
"""

APP_TOML = """
[[gui.apps]]
name = "probe"
argv = ["/usr/bin/python3", "{app}/probe.py", "{profile}/state.txt"]
window = "^probe "
files = "probe_app"
profile = "probe_profile"
env = { HOME = "{profile}" }
system_paths = ["/etc/fonts"]
start_s = 30
"""


def _bundle(tmp: Path, apps_toml: str) -> Path:
    root = tmp / BASE
    shutil.copytree(TASKS / BASE, root)
    toml = (root / "task.toml").read_text(encoding="utf-8")
    start = toml.index("[[gui.apps]]")
    end = toml.index("[[p1_atoms]]")
    (root / "task.toml").write_text(toml[:start] + apps_toml + "\n" + toml[end:], "utf-8")
    (root / "environment" / "probe_app").mkdir()
    (root / "environment" / "probe_app" / "probe.py").write_text(PROBE_APP, "utf-8")
    (root / "environment" / "probe_profile").mkdir()
    (root / "environment" / "probe_profile" / "state.txt").write_text("0", "utf-8")
    return root


@pytest.fixture(scope="module")
def bundle() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="realcli-appsbx-") as tmp:
        yield _bundle(Path(tmp), APP_TOML)


@pytest.mark.gui
@pytest.mark.sandbox
def test_every_run_starts_from_the_frozen_profile(bundle: Path, tmp_path: Path) -> None:
    task = load_task(bundle)
    titles, agent_views = [], []
    for n in range(2):
        workspace, run_dir = tmp_path / f"ws{n}", tmp_path / f"run{n}"
        run_dir.mkdir()
        prepare_workspace(task, workspace, make)
        with gui_session(task, workspace, run_dir, make, lambda event: None) as gui:
            titles += [t for _, t in gui.desktop.windows() if t.startswith("probe ")]
            agent = gui.agent_sandbox(make(sandbox_options(task, workspace)))
            res = agent.exec(
                ["/bin/sh", "-c", f"ls {PROFILE_MOUNT} 2>&1; echo rc=$?"], timeout_s=30
            )
            agent_views.append(res.stdout)
    # The app wrote its profile (count 1) and the next run started from the frozen 0 again.
    want = f"probe count=1 home={PROFILE_MOUNT} fonts=yes app_ro=yes"
    assert titles == [want, want]
    assert (bundle / "environment" / "probe_profile" / "state.txt").read_text() == "0"
    # The agent's sandbox has no profile mount at all.
    assert all(re.search(r"rc=[1-9]", view) for view in agent_views), agent_views


SILENT_APP_TOML = """
[[gui.apps]]
name = "probe"
argv = ["/bin/sh", "-c", "echo 'probe: cannot load its plugin' >&2; exit 3"]
window = "^probe "
files = "probe_app"
profile = "probe_profile"
start_s = 3
"""


@pytest.mark.gui
@pytest.mark.sandbox
def test_an_app_without_a_window_is_an_error_quoting_its_output(tmp_path: Path) -> None:
    task = load_task(_bundle(tmp_path, SILENT_APP_TOML))
    workspace, run_dir = tmp_path / "ws", tmp_path / "run"
    run_dir.mkdir()
    prepare_workspace(task, workspace, make)
    with (
        pytest.raises(TaskError, match=r"gui\.apps\.probe") as err,
        gui_session(task, workspace, run_dir, make, lambda event: None),
    ):
        pass
    assert "did not appear within 3s" in str(err.value)
    assert "the app's output ends: 'probe: cannot load its plugin'" in str(err.value)


@pytest.mark.parametrize(
    ("line", "field", "fix"),
    [
        ('system_paths = ["/etc/ssh"]', "system_paths", "configuration folder"),
        ('system_paths = ["/root/.config"]', "system_paths", "/etc/fonts"),
        ('system_paths = ["/etc/../root"]', "system_paths", "/etc/fonts"),
        ('env = { DISPLAY = ":0" }', "env", "leave it out"),
        ('env = { HOME = "{home}" }', "env", "{profile}"),
        ('profile = "repo"', "profile", "gui_app"),
        ('profile = "../x"', "profile", "environment/"),
        ("start_s = 0", "start_s", ""),
    ],
)
def test_bad_app_fields_name_the_field_and_the_fix(
    tmp_path: Path, line: str, field: str, fix: str
) -> None:
    key = line.split(" ", 1)[0]
    lines = [x for x in APP_TOML.splitlines() if not x.startswith(key + " ")]
    root = _bundle(tmp_path, "\n".join([*lines, line]))
    with pytest.raises(TaskError) as err:
        load_task(root)
    assert err.value.where.endswith("task.toml")
    assert err.value.field is not None and err.value.field.startswith(f"gui.apps.0.{field}"), (
        err.value
    )
    assert fix in err.value.fix, err.value


def test_a_placeholder_without_its_folder_is_an_error(tmp_path: Path) -> None:
    toml = APP_TOML.replace('profile = "probe_profile"\n', "")
    with pytest.raises(TaskError) as err:
        load_task(_bundle(tmp_path, toml))
    assert "{profile} is used" in err.value.problem and "profile =" in err.value.fix


def test_a_missing_profile_folder_is_an_error(tmp_path: Path) -> None:
    root = _bundle(tmp_path, APP_TOML)
    shutil.rmtree(root / "environment" / "probe_profile")
    with pytest.raises(TaskError) as err:
        load_task(root)
    assert err.value.field == "gui.apps.probe.profile", err.value
