"""Desktop: one private virtual X display (Xvfb + optional openbox) per run.

Xvfb runs with ``-nolisten tcp -nolisten local``: it listens only on the path socket
``/tmp/.X11-unix/X<n>`` (no TCP port, no abstract socket), so that one file is the only way
to the display. A bubblewrap sandbox gets exactly that socket bound at ``/tmp/.X11-unix/X0``
(:meth:`Desktop.sandbox_binds`) with ``DISPLAY=:0`` (:data:`SANDBOX_ENV`): it sees this run's
display and no other (other displays' sockets are not in its filesystem, and abstract sockets
belong to the network namespace it does not share).

The display number is reserved here, not by ``Xvfb -displayfd``
(:mod:`realcli.gui.display_number` says why); Xvfb and openbox are started by
:mod:`realcli.gui.xserver`, the task's applications and their clean-up live in
:mod:`realcli.gui.apps`.

The display is a screen, not a back door (:mod:`realcli.gui.lockdown`): Xvfb runs with
:data:`~realcli.gui.lockdown.XVFB_LOCKDOWN_ARGS`, openbox with a configuration that executes
nothing, and every application :meth:`Desktop.launch` starts gets the Tk shim
(``TK_LIBRARY``) that closes Tk ``send``.

Every process started here (Xvfb, openbox, the task's GUI applications from :meth:`launch`)
runs in a process group (or sandbox) of its own and is killed by :meth:`Desktop.stop`,
which is idempotent and also runs when the object is collected or the interpreter exits.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Self

from realcli.gui.apps import App, DesktopState
from realcli.gui.errors import DesktopError, GuiArgumentError, GuiError
from realcli.gui.lockdown import TK_SHIM_MOUNT, write_tk_shim
from realcli.gui.xserver import HOST_PATH, start_openbox, start_xvfb
from realcli.sandbox import Sandbox

__all__ = [
    "FONT_BINDS",
    "SANDBOX_DISPLAY",
    "SANDBOX_DISPLAY_SOCKET",
    "SANDBOX_ENV",
    "App",
    "Desktop",
    "DesktopError",
    "GuiArgumentError",
    "GuiError",
]

SANDBOX_DISPLAY_SOCKET = "/tmp/.X11-unix/X0"
"""Where the run's display socket appears inside a sandbox."""
SANDBOX_DISPLAY = ":0"
SANDBOX_ENV: Mapping[str, str] = MappingProxyType({"DISPLAY": SANDBOX_DISPLAY})
"""Environment a sandbox needs (with :meth:`Desktop.sandbox_binds`) to reach the display."""
FONT_BINDS: tuple[tuple[Path, str], ...] = (
    ((Path("/etc/fonts"), "/etc/fonts"),) if Path("/etc/fonts").is_dir() else ()
)
"""fontconfig's configuration, for GUI applications in a sandbox (not a secret)."""


def _finalize(state: DesktopState) -> None:
    state.cleanup()
    shutil.rmtree(state.home, ignore_errors=True)


class Desktop:
    """A private virtual display: ``Xvfb`` (+ ``openbox`` when ``window_manager``).

    Use as a context manager, or call :meth:`start` and :meth:`stop`. See the module
    docstring for the isolation it gives a sandbox.
    """

    def __init__(
        self,
        width: int = 1280,
        height: int = 800,
        depth: int = 24,
        window_manager: bool = True,
        *,
        start_timeout_s: float = 10.0,
    ) -> None:
        if not (16 <= width <= 8192 and 16 <= height <= 8192):
            raise ValueError(f"screen size out of range: {width}x{height}")
        if depth not in (8, 15, 16, 24, 30):
            raise ValueError(f"depth must be 8, 15, 16, 24 or 30 (Xvfb's), got {depth}")
        self.width = width
        self.height = height
        self.depth = depth
        self.window_manager = window_manager
        self.start_timeout_s = start_timeout_s
        self._state = DesktopState(Path(tempfile.mkdtemp(prefix="realcli-desktop-")))
        self.generation = 0
        """Incremented by every start(): a restarted server has a fresh keymap and no windows."""
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _finalize, self._state)

    # ----------------------------------------------------------------- properties
    @property
    def running(self) -> bool:
        s = self._state
        return s.reservation is not None and bool(s.procs) and s.procs[0].poll() is None

    @property
    def number(self) -> int:
        if self._state.reservation is None:
            raise DesktopError("desktop is not started")
        return self._state.reservation.number

    @property
    def display(self) -> str:
        """The host-side display name, ``:<n>``."""
        return f":{self.number}"

    @property
    def socket_path(self) -> Path:
        """The display's only socket, ``/tmp/.X11-unix/X<n>``."""
        return Path(f"/tmp/.X11-unix/X{self.number}")

    @property
    def home(self) -> Path:
        """A private HOME for the processes this desktop starts on the host (and their logs)."""
        return self._state.home

    @property
    def tk_shim_dir(self) -> Path:
        """The host folder of the Tk shim every launched application gets as ``TK_LIBRARY``."""
        return self.home / "tk"

    @property
    def apps(self) -> tuple[App, ...]:
        return tuple(self._state.apps)

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """A clean host-side environment with ``DISPLAY`` set (nothing else of the host's:
        no API key reaches the window manager or a host-side application)."""
        home = self.home
        env = {
            "PATH": HOST_PATH,
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_RUNTIME_DIR": str(home / "runtime"),
            "DISPLAY": self.display,
        }
        env.update(extra or {})
        return env

    def sandbox_binds(self) -> tuple[tuple[Path, str], ...]:
        """Read-only binds that give a sandbox this display (and only it) as ``:0``."""
        return ((self.socket_path, SANDBOX_DISPLAY_SOCKET),)

    def sandbox(self, sandbox: Sandbox) -> Sandbox:
        """``sandbox`` with this display bound in, ``DISPLAY=:0``, and the host's fontconfig
        configuration (``/etc/fonts``, read-only: without it every toolkit warns)."""
        binds = self.sandbox_binds() + FONT_BINDS
        env = {**sandbox.options.env, **SANDBOX_ENV}
        return sandbox.with_ro_binds(*binds).with_options(env=env)

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> Self:
        """Start Xvfb (and openbox) and wait until the display answers.

        Raises:
            DesktopError: a binary is missing, Xvfb failed, or the display did not come up.
            RuntimeError: already started.
        """
        with self._lock:
            if self._state.reservation is not None:
                raise RuntimeError("desktop already started")
            needed = ("Xvfb", "xdotool", *(("openbox",) if self.window_manager else ()))
            for binary in needed:
                if shutil.which(binary, path=HOST_PATH) is None:
                    raise DesktopError(
                        f"{binary} is not installed (apt-get install xvfb xdotool openbox)"
                    )
            self.home.mkdir(exist_ok=True)
            (self.home / "runtime").mkdir(mode=0o700, exist_ok=True)
            write_tk_shim(self.tk_shim_dir)
            self.generation += 1
            try:
                start_xvfb(self._state, self.width, self.height, self.depth, self.start_timeout_s)
                if self.window_manager:
                    start_openbox(self._state, self.display, self.env(), self.start_timeout_s)
            except BaseException:
                self._state.cleanup()
                raise
        return self

    def stop(self) -> None:
        """Kill every process this desktop started (apps, openbox, Xvfb) and release the
        display number. Idempotent; :meth:`start` may be called again afterwards."""
        with self._lock:
            self._state.cleanup()

    def close(self) -> None:
        """:meth:`stop`, and remove the private home (logs included) for good."""
        with self._lock:
            self._finalizer()

    def __enter__(self) -> Self:
        if self._state.reservation is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- applications
    def launch(
        self,
        argv: Sequence[str],
        sandbox: Sandbox | None = None,
        env: Mapping[str, str] | None = None,
    ) -> App:
        """Start a task GUI application on this display; :meth:`stop` kills it.

        With ``sandbox`` it runs there (the application's own sandbox, never the agent's)
        with only this display added (:meth:`sandbox`) and the Tk shim at
        :data:`~realcli.gui.lockdown.TK_SHIM_MOUNT`; else on the host with :meth:`env`
        (cwd: the desktop's private home). ``env`` adds variables either way, except
        ``TK_LIBRARY``: it is always the shim, which closes Tk ``send`` in the application
        (see :mod:`realcli.gui.lockdown`).

        Raises:
            DesktopError: the desktop is not running.
            SandboxError: the sandbox could not be started.
        """
        if isinstance(argv, str):
            raise ValueError("argv must be a sequence of strings, not one string")
        with self._lock:
            if not self.running:
                raise DesktopError("desktop is not running")
            app: App
            if sandbox is not None:
                boxed = self.sandbox(sandbox).with_ro_binds((self.tk_shim_dir, TK_SHIM_MOUNT))
                process = boxed.spawn(list(argv), env={**(env or {}), "TK_LIBRARY": TK_SHIM_MOUNT})
                app = App(argv, process=process)
            else:
                log_path = self.home / f"app-{len(self._state.apps)}.log"
                with log_path.open("ab") as log:
                    popen = subprocess.Popen(
                        list(argv),
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=log,
                        start_new_session=True,
                        env=self.env({**(env or {}), "TK_LIBRARY": str(self.tk_shim_dir)}),
                        cwd=self.home,
                    )
                app = App(argv, popen=popen, log_path=log_path)
            self._state.apps.append(app)
        return app

    def xdotool(self, *args: str, timeout_s: float = 10.0) -> subprocess.CompletedProcess[str]:
        """Run ``xdotool ARGS`` on this display (host side); the exit status is not checked."""
        return subprocess.run(
            ["xdotool", *args],
            env=self.env(),
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout_s,
            check=False,
        )

    def windows(self, *, visible: bool = True) -> list[tuple[int, str]]:
        """``(id, name)`` of every named window (mapped ones only when ``visible``).

        Names are read like ``xdotool getwindowname`` does (``_NET_WM_NAME``, UTF-8), so
        non-ASCII titles come out right (``xdotool search --name`` only sees ``WM_NAME``,
        which Tk, for one, fills with mangled UTF-8: a CJK title never matches there).
        """
        if not self.running:
            raise DesktopError("desktop is not running")
        found = self.xdotool("search", *(["--onlyvisible"] if visible else []), "--name", ".")
        out = []
        for wid in found.stdout.split():
            name = self.xdotool("getwindowname", wid)
            if name.returncode == 0:  # else it closed in between
                out.append((int(wid), name.stdout.rstrip("\n")))
        return out

    def wait_for_window(self, name: str, timeout: float = 10.0, *, visible: bool = True) -> int:
        """The id of a window whose name matches the regex ``name`` (Python syntax,
        ``re.search``, case-sensitive), waiting up to ``timeout`` seconds for one to
        exist (and be mapped, when ``visible``: then it can be clicked).

        Raises:
            ValueError: ``name`` is not a valid regex.
            DesktopError: no such window in time, or the desktop is not running.
        """
        try:
            pattern = re.compile(name)
        except re.error as exc:
            raise ValueError(f"bad window name regex {name!r}: {exc}") from None
        deadline = time.monotonic() + timeout
        while True:
            for wid, title in self.windows(visible=visible):
                if pattern.search(title):
                    return wid
            if time.monotonic() > deadline:
                raise DesktopError(
                    f"no window named {name!r} on {self.display} within {timeout:g}s"
                )
            time.sleep(0.05)
