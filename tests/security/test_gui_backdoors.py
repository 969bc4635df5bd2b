"""The display is a screen, not a back door (docs/security.md, "The display").

For every shipped weave task, the real GUI session of a hybrid run (its apps in their own
sandboxes on Xvfb) and the real agent sandbox the shell gets (the display bound in), an
adversarial probe in that sandbox tries the inter-client channels: Tk ``send`` (tkinter and
``wish``, to every name ``winfo interps`` lists and to the names Tk would give the app, before
and after re-enabling X access control with ``xhost -``), the app's private files (at their
mount path, through ``/proc``, anywhere in its filesystem by content), and every X property
of the root and of every window (byte-searched for the task's screen-only data). The screen
itself must keep working: a screenshot and a click through the GUI service, ``xdotool`` and
``xwd`` from the shell. One GUI session per task, shared by its tests.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from realcli.catalog import TaskBundle, load_task
from realcli.gui import Desktop
from realcli.gui.driver import GuiDriver
from realcli.gui.lockdown import OPENBOX_BLOCKED_ACTIONS
from realcli.gui.service import GuiService
from realcli.runner.app_sandbox import fill_placeholders
from realcli.runner.gui_session import APP_MOUNT, GuiSession, gui_session
from realcli.runner.workspace import prepare_workspace, sandbox_options
from realcli.sandbox import SandboxOptions, make_sandbox

pytestmark = [pytest.mark.gui, pytest.mark.sandbox]

TASKS = Path(__file__).resolve().parents[2] / "tasks"
WEAVE = sorted(
    p.parent.name
    for p in TASKS.glob("*/task.toml")
    if tomllib.loads(p.read_text(encoding="utf-8")).get("kind") == "weave"
)
SYSTEM_PYTHON = "/usr/bin/python3"
MIN_SECRET = 6
NOT_SECRET = {
    "127.0.0.1": "loopback of the app's own network namespace (Chromium's WM_CLASS is its "
    "--app URL's host)",
}
"""Strings of an app's files that are public by nature, with why."""
QUOTED = re.compile(rf"[\"'`]([^\"'`\n]{{{MIN_SECRET},200}})[\"'`]")
"""A quoted string in a text file that is neither JSON nor Python (shell, JavaScript)."""
make = partial(make_sandbox, "local")


def _missing() -> list[str]:
    need = ("Xvfb", "xdotool", "openbox", "bwrap", "wish", "xprop", "xwininfo", "xhost", "xwd")
    return [b for b in need if shutil.which(b) is None]


# --------------------------------------------------------------------------- the probe
PROBE = r"""
import json, os, subprocess, sys, tkinter
args = json.loads(sys.argv[1])
out = {}

def try_send(tk, names, me):
    got = {}
    for name in names:
        if name == me:
            continue
        try:
            got[name] = ["answered", str(tk.call("send", name, "info nameofexecutable"))]
        except tkinter.TclError as exc:
            got[name] = ["refused", str(exc)]
    return got

root = tkinter.Tk()
root.withdraw()
me = str(root.tk.call("tk", "appname"))
interps = [str(n) for n in root.tk.splitlist(root.tk.call("winfo", "interps"))]
names = sorted(set(interps) | set(args["guesses"]))
out["me"], out["interps"] = me, interps
out["send"] = try_send(root.tk, names, me)
tcl = "".join(
    "if {{%s} eq [tk appname]} {} "
    "elseif {[catch {send {%s} {info nameofexecutable}} r]} {puts \"refused %s\"} "
    "else {puts \"answered %s $r\"}\n" % (n, n, n, n) for n in names if n != me
) + "exit\n"  # not to this process's own interpreter: it is blocked until wish is done
out["wish"] = subprocess.run(["wish"], input=tcl, capture_output=True, text=True).stdout
out["xhost_minus"] = subprocess.run(["xhost", "-"], capture_output=True, text=True).stdout
out["send_after_xhost"] = try_send(root.tk, names, me)
root.destroy()

# The app's private files: at their mount path, through every visible process, by content.
reads = {}
for rel in args["files"]:
    for path in [os.path.join(args["mount"], rel)] + [
        os.path.join("/proc", pid, where, args["mount"].lstrip("/"), rel)
        for pid in os.listdir("/proc") if pid.isdigit() for where in ("root", "cwd")
    ]:
        try:
            with open(path, "rb") as f:
                reads[path] = f.read(64).decode("latin-1")
        except OSError:
            pass
out["reads"] = reads
cmdlines = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdlines.append(f.read().replace(b"\0", b" ").decode("utf-8", "replace"))
    except OSError:
        pass
out["cmdlines"] = cmdlines
sizes = set(args["sizes"])
same = []
skip = {"/proc", "/sys", "/dev", "/usr", *args["skip"]}
for top, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(top, d) not in skip]
    for name in files:
        path = os.path.join(top, name)
        try:
            if os.path.islink(path) or os.path.getsize(path) not in sizes:
                continue
            with open(path, "rb") as f:
                same.append([path, __import__("hashlib").sha256(f.read()).hexdigest()])
        except OSError:
            pass
out["same_size"] = same

# Every X property of the root window and of every window, mapped or not.
tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True).stdout
ids = sorted(set(__import__("re").findall(r"^\s+(0x[0-9a-f]+)\s", tree, flags=8)))
props = [subprocess.run(["xprop", "-root"], capture_output=True, text=True).stdout]
for wid in ids:
    props.append(subprocess.run(["xprop", "-id", wid], capture_output=True, text=True).stdout)
out["windows"] = len(ids)
out["props"] = "\n".join(props)
out["clients"] = subprocess.run(["xlsclients", "-l", "-a"], capture_output=True, text=True).stdout

# The screen still works from the shell: xdotool finds the app's window, xwd reads the screen.
out["xdotool"] = subprocess.run(
    ["xdotool", "search", "--onlyvisible", "--name", args["window"]],
    capture_output=True, text=True,
).stdout.split()
xwd = subprocess.run(["xwd", "-root", "-silent"], capture_output=True)
out["xwd_bytes"] = len(xwd.stdout)
print(json.dumps(out))
"""


# --------------------------------------------------------------------------- secrets
def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)


def _strings(path: Path) -> set[str]:
    """The string data of one private file: JSON leaves, Python string constants, quoted
    strings and whole lines of any other text file (a GLib keyfile's ``key=value``), the
    printable runs of a binary file (a capture's HTTP lines, like ``strings``)."""
    data = path.read_bytes()
    text = data.decode("utf-8", "replace")
    if b"\0" in data:
        runs = re.findall(rb"[\x20-\x7e]{%d,200}" % MIN_SECRET, data)
        found = {r.decode("ascii") for r in runs}
    elif path.suffix == ".json":
        found = set(_leaves(json.loads(text)))
    elif path.suffix == ".py":
        found = {
            n.value
            for n in ast.walk(ast.parse(text))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        }
    else:
        found = set(re.findall(QUOTED, text)) | set(text.splitlines())
    lines = {line.strip() for s in found for line in s.splitlines()}
    return {s for s in lines if _distinctive(s)}


def _distinctive(s: str) -> bool:
    """Data rather than a word: a board row, an id, an address, a sentence ("normal", a Tk
    option value, is also an openbox window type)."""
    if len(s) < MIN_SECRET or s in NOT_SECRET:
        return False
    return len(s) >= 12 or any(c.isdigit() or c in "#-_:/.|" for c in s)


def task_secrets(task: TaskBundle, titles: list[str]) -> dict[str, set[str]]:
    """Per private file (relative to its app's folder): the strings it holds that nothing
    public holds: task.toml, the instruction, the workspace files, the windows' titles (a
    title is what xdotool and the WM show: public by design)."""
    texts = [(task.root / "task.toml").read_text(encoding="utf-8"), *titles]
    texts += [p.read_text(encoding="utf-8") for p in task.root.glob("instruction*.md")]
    for path in task.repo_dir.rglob("*"):
        if path.is_file() and not path.is_symlink() and path.stat().st_size < 1_000_000:
            texts.append(path.read_bytes().decode("utf-8", "replace"))
    public = "\n".join(texts)
    secrets: dict[str, set[str]] = {}
    for app in task.spec.gui.apps if task.spec.gui else ():
        for folder in (app.files, app.profile):  # a real app's document is in its profile
            if folder is None:
                continue
            base = task.root / "environment" / folder
            for path in sorted(p for p in base.rglob("*") if p.is_file()):
                strings = {s for s in _strings(path) if s not in public}
                secrets[path.relative_to(base).as_posix()] = strings
    return secrets


def private_files(task: TaskBundle) -> dict[str, Path]:
    files: dict[str, Path] = {}
    for app in task.spec.gui.apps if task.spec.gui else ():
        for folder in (app.files, app.profile):  # the frozen profile is the app's too
            if folder is not None:
                base = task.root / "environment" / folder
                files |= {p.relative_to(base).as_posix(): p for p in base.rglob("*") if p.is_file()}
    return files


# --------------------------------------------------------------------------- fixtures
@dataclass
class Probed:
    task: TaskBundle
    gui: GuiSession
    result: dict[str, Any]
    seconds: float


@pytest.fixture(scope="module", params=WEAVE)
def probed(request: pytest.FixtureRequest) -> Iterator[Probed]:
    """One weave task's real GUI session and the probe's findings from the agent's sandbox."""
    missing = _missing()
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    task = load_task(TASKS / request.param)
    assert task.spec.gui is not None and task.spec.gui.apps, f"{task.id} has no GUI app"
    files = private_files(task)
    guesses = {"tk", "Tk", "wish", "tk #2", "wish #2"}
    for app in task.spec.gui.apps:
        guesses |= {app.name, app.name.capitalize()}
        for arg in app.argv:
            stem = Path(arg).stem
            guesses |= {stem, stem.capitalize(), stem.lower()}
    with tempfile.TemporaryDirectory(prefix="realcli-backdoor-") as tmp:
        workspace, run_dir = Path(tmp) / "ws", Path(tmp) / "run"
        run_dir.mkdir()
        prepare_workspace(task, workspace, make)
        with gui_session(task, workspace, run_dir, make, lambda event: None) as gui:
            agent = gui.agent_sandbox(make(sandbox_options(task, workspace)))
            args = {
                "guesses": sorted(guesses),
                "files": sorted(files),
                "sizes": sorted({p.stat().st_size for p in files.values()}),
                "mount": APP_MOUNT,
                "skip": sorted({sys.prefix, sys.base_prefix, os.path.realpath(sys.base_prefix)}),
                "window": task.spec.gui.apps[0].window,
            }
            started = time.monotonic()
            res = agent.exec(
                [SYSTEM_PYTHON, "-c", PROBE, json.dumps(args)], timeout_s=120, cwd="/tmp"
            )
            seconds = time.monotonic() - started
            assert res.returncode == 0, f"probe failed: {res.stderr[-2000:]}"
            yield Probed(task, gui, json.loads(res.stdout.splitlines()[-1]), seconds)


# --------------------------------------------------------------------------- tests
def test_every_shipped_weave_task_is_probed() -> None:
    assert len(WEAVE) >= 8, WEAVE
    for tid in WEAVE:
        task = load_task(TASKS / tid)
        assert task.spec.gui is not None and task.spec.gui.apps, f"{tid}: no GUI app"


def test_tk_send_to_the_app_fails(probed: Probed) -> None:
    r = probed.result
    # winfo interps lists the probe itself and nothing else: no app is registered.
    assert set(r["interps"]) <= {r["me"]}, r["interps"]
    assert r["send"], "no name was tried"
    for when in ("send", "send_after_xhost"):
        answered = {n: v for n, v in r[when].items() if v[0] != "refused"}
        assert not answered, f"{probed.task.id}: {when}: an app answered Tk send: {answered}"
    assert "answered" not in r["wish"], r["wish"]
    assert "refused" in r["wish"]


def test_the_apps_private_files_are_unreadable(probed: Probed) -> None:
    r = probed.result
    assert r["reads"] == {}, f"{probed.task.id}: read from the agent's sandbox: {r['reads']}"
    argvs = [
        " ".join(fill_placeholders(a) for a in app.argv)
        for app in probed.task.spec.gui.apps  # type: ignore[union-attr]
    ]
    leaked = [c for c in r["cmdlines"] if any(argv in c for argv in argvs)]
    assert not leaked, f"the agent sees the app's processes: {leaked}"
    digests = {hashlib.sha256(p.read_bytes()).hexdigest(): rel for rel, p in
               private_files(probed.task).items()}  # fmt: skip
    copies = [(path, digests[d]) for path, d in r["same_size"] if d in digests]
    assert not copies, f"{probed.task.id}: private files inside the agent's sandbox: {copies}"


def test_x_properties_carry_no_secret(probed: Probed) -> None:
    r = probed.result
    dump = r["props"] + r["clients"]
    window = probed.task.spec.gui.apps[0].window  # type: ignore[union-attr]
    titles = [name for _, name in probed.gui.desktop.windows(visible=False)]
    shown = [t for t in titles if re.search(window, t)]  # `window` is a regex (re.search)
    assert shown and any(t in dump for t in shown), (
        f"the dump did not read the app's window properties ({window!r} in {titles})"
    )
    secrets = task_secrets(probed.task, titles)
    assert any(secrets.values()), f"{probed.task.id}: no secret to look for"
    found = {rel: sorted(s for s in strings if s in dump) for rel, strings in secrets.items()}
    found = {rel: hits for rel, hits in found.items() if hits}
    assert not found, f"{probed.task.id}: X properties hold the app's data: {found}"


def test_the_screen_still_works(probed: Probed) -> None:
    r = probed.result
    assert r["xdotool"], "xdotool from the agent's shell does not find the app's window"
    width, height = probed.gui.desktop.width, probed.gui.desktop.height
    assert r["xwd_bytes"] > width * height, "xwd from the agent's shell read no screen"
    shot = probed.gui.service.call("screenshot")
    assert shot.ok and shot.png is not None and len(set(shot.png[100:4000])) > 8, shot.text
    assert probed.gui.service.call("move", {"x": width // 2, "y": height // 2}).ok
    assert probed.seconds < 60


# --------------------------------------------------------------------------- bare desktop
@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Desktop, GuiService]]:
    missing = _missing()
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    run_dir = tmp_path_factory.mktemp("bare-run")
    with Desktop(800, 600) as desktop:
        service = GuiService(GuiDriver(desktop), run_dir / "shots", run_dir, lambda e: None)
        yield desktop, service


def _host_programs(names: tuple[str, ...], display: str) -> list[str]:
    """Host processes named one of ``names`` that run on ``display`` (DISPLAY in their
    environment, which whatever the window manager starts inherits): other tests' and other
    workers' scrot captures on their own displays are not this desktop's doing."""
    found = []
    want = f"DISPLAY={display}".encode()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
            if Path(argv0).name not in names:
                continue
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if want in environ:
            found.append(f"{pid} {argv0}")
    return found


def test_the_window_manager_executes_nothing(bare: tuple[Desktop, GuiService]) -> None:
    """The stock openbox menu opens a host terminal on right click + Return (reproduced
    before the fix); Print runs scrot, W-e a file manager. None of it may run now."""
    desktop, service = bare
    spawned = ("x-terminal-emulator", "zutty", "xterm", "scrot", "kfmclient", "x-www-browser")
    before = _host_programs(spawned, desktop.display)
    assert service.call("click", {"x": 400, "y": 300, "button": "right"}).ok
    for keys in ("Down", "Return", "Print", "super+e", "alt+Print"):
        assert service.call("keypress", {"keys": keys}).ok
    time.sleep(1.5)
    assert desktop.windows(visible=False) == [], "a window appeared"
    assert _host_programs(spawned, desktop.display) == before
    rc = (desktop.home / "openbox" / "rc.xml").read_text(encoding="utf-8")
    names = set(re.findall(r'<(?:\w+:)?action name="([^"]+)"', rc))
    assert names and not {n.lower() for n in names} & OPENBOX_BLOCKED_ACTIONS, names


def test_an_app_a_task_author_adds_is_closed_too(
    bare: tuple[Desktop, GuiService], tmp_path: Path
) -> None:
    """A wish app (not Python) that names itself, twice: the launch default still closes
    send, with no help from the author."""
    desktop, _ = bare
    script = tmp_path / "author_app.tcl"
    script.write_text(
        'wm title . "Author app"; label .l -text hi; pack .l\n'
        "tk appname author-app; tk appname author-app-2\n",
        encoding="utf-8",
    )
    app_box = make(SandboxOptions(workspace=tmp_path, ro_binds=((script, "/run/app.tcl"),)))
    app = desktop.launch(["wish", "/run/app.tcl"], sandbox=app_box)
    try:
        desktop.wait_for_window("Author app", timeout=10)
        agent = desktop.sandbox(make(SandboxOptions(workspace=tmp_path)))
        tcl = (
            "puts [winfo interps]\n"
            "foreach n {author-app author-app-2 app.tcl app} {catch {send $n {set tcl_version}} r;"
            ' puts "$n: $r"}\nexit\n'
        )
        res = agent.exec(["wish"], stdin=tcl, timeout_s=30)
        assert res.returncode == 0, res.stderr
        first, *answers = res.stdout.splitlines()
        assert "author-app" not in first, first
        assert answers and all("no application named" in a for a in answers), res.stdout
    finally:
        app.kill()
