"""The desktop's X side: Xvfb on a reserved display number (``-displayfd`` says when it is
ready; :data:`~realcli.gui.lockdown.XVFB_LOCKDOWN_ARGS`) and openbox with a configuration
that executes nothing, each in a process group of its own recorded in the
:class:`~realcli.gui.apps.DesktopState` that kills them."""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from realcli.gui.apps import DesktopState
from realcli.gui.display_number import DisplayReservation, socket_answers
from realcli.gui.errors import DesktopError
from realcli.gui.lockdown import XVFB_LOCKDOWN_ARGS, openbox_config

__all__ = ["HOST_PATH", "log_tail", "start_openbox", "start_xvfb"]

HOST_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
"""The only PATH of the processes a desktop starts on the host."""


def log_tail(home: Path, name: str) -> str:
    """The end of a desktop process's log (``<home>/<name>.log``), for an error message."""
    try:
        text = (home / f"{name}.log").read_bytes().decode("utf-8", "replace")
    except OSError:
        return ""
    return text.strip()[-2000:]


def start_xvfb(state: DesktopState, width: int, height: int, depth: int, timeout_s: float) -> None:
    """Reserve a display number and start a locked-down Xvfb on it (its process group in
    ``state.procs``); return once the display answers on its socket.

    Raises:
        DesktopError: Xvfb exited, reported another display, or did not answer in time.
    """
    home = state.home
    deadline = time.monotonic() + timeout_s
    reservation = state.reservation = DisplayReservation.take()
    read_fd, write_fd = os.pipe()
    try:
        with (home / "xvfb.log").open("ab") as log:
            popen = subprocess.Popen(
                [
                    "Xvfb",
                    f":{reservation.number}",
                    "-displayfd",  # written once the server accepts connections
                    str(write_fd),
                    "-nolock",  # the lock file is the reservation's (DisplayReservation)
                    "-screen",
                    "0",
                    f"{width}x{height}x{depth}",
                    "-nolisten",
                    "tcp",
                    "-nolisten",
                    "local",  # no abstract socket: the path socket is the only way in
                    "-noreset",  # keep the server when the last client leaves
                    "-dpi",
                    "96",
                    *XVFB_LOCKDOWN_ARGS,  # Tk refuses send on it (lockdown.py)
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                pass_fds=(write_fd,),
                start_new_session=True,
                env={"PATH": HOST_PATH, "HOME": str(home)},
            )
        state.procs.append(popen)
        reservation.claim_for(popen.pid)
        os.close(write_fd)
        write_fd = -1
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                raise DesktopError(
                    f"Xvfb did not come up within {timeout_s}s: {log_tail(home, 'xvfb')}"
                )
            ready, _, _ = select.select([read_fd], [], [], left)
            if ready:
                chunk = os.read(read_fd, 64)
                if not chunk:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        popen.wait(2)
                    raise DesktopError(
                        f"Xvfb exited ({popen.returncode}) before the display came up: "
                        f"{log_tail(home, 'xvfb')}"
                    )
                data += chunk
    finally:
        os.close(read_fd)
        if write_fd >= 0:
            os.close(write_fd)
    if data.strip() != str(reservation.number).encode():
        raise DesktopError(f"Xvfb reported display {data!r}, asked for :{reservation.number}")
    socket_path = Path(f"/tmp/.X11-unix/X{reservation.number}")
    while not socket_answers(socket_path):
        if time.monotonic() > deadline or popen.poll() is not None:
            raise DesktopError(
                f"display :{reservation.number} does not answer on {socket_path}: "
                f"{log_tail(home, 'xvfb')}"
            )
        time.sleep(0.01)


def start_openbox(
    state: DesktopState, display: str, env: Mapping[str, str], timeout_s: float
) -> None:
    """Start openbox (executing nothing: lockdown.py) on ``display`` with ``env`` and wait
    until it has managed the windows already there.

    Raises:
        DesktopError: openbox exited or did not start in time.
    """
    home = state.home
    deadline = time.monotonic() + timeout_s
    ready = home / "openbox.ready"
    ready.unlink(missing_ok=True)
    # Openbox re-reads its Compose table on every keymap change (~0.1 s for the UTF-8
    # one; GuiDriver.type changes the keymap per non-ASCII character), and a click on
    # a window waits for openbox meanwhile (its click-to-focus grab freezes the
    # pointer). A window manager composes nothing: give it an empty table.
    compose = home / "openbox.compose"
    compose.write_bytes(b"")
    with (home / "openbox.log").open("ab") as log:
        popen = subprocess.Popen(
            # --startup runs once openbox has set itself up and managed the windows
            # already there; before that a new window may stay unmanaged (unmapped).
            [
                "openbox",
                "--sm-disable",
                "--config-file",  # executes nothing, no root menu (lockdown.py)
                str(openbox_config(home / "openbox")),
                "--startup",
                f"touch {shlex.quote(str(ready))}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            env={**env, "XCOMPOSEFILE": str(compose)},
            cwd=home,
        )
    state.procs.append(popen)
    while not ready.exists():
        if popen.poll() is not None or time.monotonic() > deadline:
            raise DesktopError(f"openbox did not start on {display}: {log_tail(home, 'openbox')}")
        time.sleep(0.01)
