"""Desktop: a private Xvfb display per run; a sandbox sees its own display and no other."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
from pathlib import Path

import pytest
from gui_helpers import SYSTEM_PYTHON, wait_until

from realcli.gui import Desktop, DesktopError
from realcli.gui.desktop import SANDBOX_DISPLAY_SOCKET, SANDBOX_ENV
from realcli.sandbox import LocalSandbox, SandboxOptions

pytestmark = pytest.mark.gui


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def _lock_pid(path: Path) -> int | None:
    """The pid an X lock file names: None without one, 0 while it is being written."""
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else 0


def test_display_answers_on_its_path_socket_only(desktop: Desktop) -> None:
    assert desktop.running and desktop.display == f":{desktop.number}"
    assert desktop.socket_path == Path(f"/tmp/.X11-unix/X{desktop.number}")
    assert desktop.socket_path.is_socket()
    geometry = desktop.xdotool("getdisplaygeometry")
    assert geometry.returncode == 0 and geometry.stdout.split() == ["1280", "800"]
    assert subprocess.run(["wmctrl", "-m"], env=desktop.env(), capture_output=True,
                          text=True, check=False).stdout.startswith("Name: Openbox")  # fmt: skip
    # No abstract socket to connect to (the name is held, never listened on) and no TCP port.
    with socket.socket(socket.AF_UNIX) as s, pytest.raises(ConnectionRefusedError):
        s.connect(f"\0/tmp/.X11-unix/X{desktop.number}")
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", 6000 + desktop.number)) == errno.ECONNREFUSED
    # The host-side environment is clean: DISPLAY and basics, nothing of the host's.
    env = desktop.env()
    assert env["DISPLAY"] == desktop.display and "PYTEST_CURRENT_TEST" not in env


def test_two_desktops_get_two_displays_and_stop_cleans_up(desktop: Desktop) -> None:
    other = Desktop(320, 200, window_manager=False).start()
    try:
        assert other.number != desktop.number
        assert other.xdotool("getdisplaygeometry").stdout.split() == ["320", "200"]
        app = other.launch(["xlogo"])
        other.wait_for_window("^xlogo$", 5)
        xvfb = other._state.procs[0].pid
        number, home = other.number, other.home
    finally:
        other.stop()
    assert not _alive(xvfb) and not _alive(app.pid)
    # Its socket and lock file are gone, unless a test in another process took the freed
    # number at once (its reservation's lock then names that process, or is being written).
    holder = _lock_pid(Path(f"/tmp/.X{number}-lock"))
    if holder is None or holder in (xvfb, os.getpid()):
        assert not Path(f"/tmp/.X11-unix/X{number}").exists()
        assert not Path(f"/tmp/.X{number}-lock").exists()
    other.stop()  # idempotent
    assert not other.running
    with pytest.raises(DesktopError, match="not started"):
        _ = other.display
    other.start()  # and it can start again
    try:
        assert other.running
    finally:
        other.close()
    assert not home.exists()
    assert desktop.running  # the first one never noticed


def test_wait_for_window_times_out_with_a_clear_error(desktop: Desktop) -> None:
    with pytest.raises(DesktopError, match="no window named 'nothing-like-this'"):
        desktop.wait_for_window("nothing-like-this", timeout=0.3)


@pytest.mark.sandbox
def test_sandbox_sees_only_its_own_display(desktop: Desktop, tmp_path: Path) -> None:
    """A sandbox bound to desktop A runs X clients on A, and cannot find B's windows."""
    other = Desktop(640, 480, window_manager=False).start()
    try:
        assert desktop.sandbox_binds() == ((desktop.socket_path, SANDBOX_DISPLAY_SOCKET),)
        assert dict(SANDBOX_ENV) == {"DISPLAY": ":0"}
        base = LocalSandbox(SandboxOptions(workspace=tmp_path))
        on_a = base.with_ro_binds(*desktop.sandbox_binds()).with_options(env=SANDBOX_ENV)
        secret = "B-secret-window-7f3a"
        other.launch(["xlogo", "-title", secret], sandbox=base)  # B's app, its own sandbox
        other.wait_for_window(secret, 5)
        probe = (
            "xdotool getdisplaygeometry; ls /tmp/.X11-unix; "
            f"xdotool search --name {secret}; echo search=$?; wmctrl -l; "
            f"xdpyinfo -display :{other.number} >/dev/null 2>&1; echo other=$?"
        )
        result = on_a.exec(["sh", "-c", probe], timeout_s=20)
        assert result.ok, result.stderr
        lines = result.stdout.split("\n")
        assert lines[0] == "1280 800" and lines[1] == "X0"
        assert "search=1" in lines and secret not in result.stdout
        assert "other=1" in lines  # B's number leads nowhere: its socket is not here
        # Control: the same probe bound to B does find the window.
        on_b = other.sandbox(base)
        found = on_b.exec(["xdotool", "search", "--name", secret], timeout_s=20)
        assert found.ok and found.stdout.split()
    finally:
        other.close()


@pytest.mark.sandbox
def test_launch_in_a_sandbox_runs_an_x_app_killed_at_stop(tmp_path: Path) -> None:
    with Desktop(640, 480) as d:
        sandbox = LocalSandbox(SandboxOptions(workspace=tmp_path))
        app = d.launch(["xlogo", "-title", "sandboxed-logo"], sandbox=sandbox)
        window = d.wait_for_window("^sandboxed-logo$", 5)
        assert app.sandboxed and app.poll() is None
        # It is an ordinary client of the display: the window manager manages it.
        listing = subprocess.run(["wmctrl", "-l"], env=d.env(), capture_output=True,
                                 text=True, check=True).stdout  # fmt: skip
        assert "sandboxed-logo" in listing
        # A Tk app from the sandbox draws CJK text with the host's fonts (no fontconfig errors).
        tk = d.launch(
            [SYSTEM_PYTHON, "-c", "import tkinter as t; r=t.Tk(); r.title('中文窗口'); "
             "t.Label(r, text='中文').pack(); r.mainloop()"],
            sandbox=sandbox,
        )  # fmt: skip
        d.wait_for_window("中文窗口", 10)
        assert "Fontconfig error" not in tk.output()
        # Its stdout is drained: an app that prints a lot does not block on a full pipe.
        chatty = d.launch(
            ["sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x; echo; exec xlogo -title chatty"],
            sandbox=sandbox,
        )
        d.wait_for_window("^chatty$", 10)
        assert chatty.output().startswith("x" * 1000)
        d.stop()
        assert app.poll() is not None and tk.poll() is not None
        wait_until(lambda: not d.running, 2)
        assert window
