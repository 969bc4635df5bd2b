"""Desktop: one private virtual X display (Xvfb + optional openbox) per run.

Xvfb runs with ``-nolisten tcp -nolisten local``: it listens only on the path socket
``/tmp/.X11-unix/X<n>`` (no TCP port, no abstract socket), so that one file is the only way
to the display. A bubblewrap sandbox gets exactly that socket bound at ``/tmp/.X11-unix/X0``
(:meth:`Desktop.sandbox_binds`) with ``DISPLAY=:0`` (:data:`SANDBOX_ENV`): it sees this run's
display and no other (other displays' sockets are not in its filesystem, and abstract sockets
belong to the network namespace it does not share).

The display number is reserved here, not by ``Xvfb -displayfd``: ``-displayfd`` finds a
free number by failing to bind the abstract socket of a busy one, so with ``-nolisten local``
two servers started at once both take ``:0`` (the second unlinks the first one's socket;
checked). :class:`_Reservation` holds the number the way both kinds of X server respect, so
concurrent runs never collide; ``-displayfd`` still tells when the server is ready.

The display is a screen, not a back door (:mod:`realcli.gui.lockdown`): Xvfb runs with
:data:`~realcli.gui.lockdown.XVFB_LOCKDOWN_ARGS`, openbox with a configuration that executes
nothing, and every application :meth:`Desktop.launch` starts gets the Tk shim
(``TK_LIBRARY``) that closes Tk ``send``.

Every process started here (Xvfb, openbox, the task's GUI applications from :meth:`launch`)
runs in a process group (or sandbox) of its own and is killed by :meth:`Desktop.stop`,
which is idempotent and also runs when the object is collected or the interpreter exits.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Self

from realcli.gui.lockdown import (
    TK_SHIM_MOUNT,
    XVFB_LOCKDOWN_ARGS,
    openbox_config,
    write_tk_shim,
)
from realcli.sandbox import Sandbox, SandboxProcess
from realcli.util.processes import pid_alive

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
HOST_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
MAX_APP_OUTPUT = 1024 * 1024
TERM_WAIT_S = 2.0
"""How long stop() waits after SIGTERM before SIGKILL."""
FONT_BINDS: tuple[tuple[Path, str], ...] = (
    ((Path("/etc/fonts"), "/etc/fonts"),) if Path("/etc/fonts").is_dir() else ()
)
"""fontconfig's configuration, for GUI applications in a sandbox (not a secret)."""


class GuiError(RuntimeError):
    """A GUI action or the desktop failed (the message carries the command's stderr)."""


class GuiArgumentError(GuiError, ValueError):
    """A GUI action was given a bad argument (off-screen point, unknown key name...)."""


class DesktopError(GuiError):
    """The virtual display could not be started or used."""


class App:
    """A task GUI application started by :meth:`Desktop.launch` (host or sandbox)."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        popen: subprocess.Popen[bytes] | None = None,
        process: SandboxProcess | None = None,
        log_path: Path | None = None,
    ) -> None:
        self.argv = tuple(argv)
        self._popen = popen
        self._process = process
        self._log_path = log_path
        self._stdout: list[str] = []
        if process is not None:  # drain its stdout pipe, or a chatty app blocks on it
            threading.Thread(target=self._drain, args=(process,), daemon=True).start()

    def _drain(self, process: SandboxProcess) -> None:
        kept = 0
        with contextlib.suppress(OSError, ValueError):
            for line in process.stdout:
                if kept < MAX_APP_OUTPUT:
                    self._stdout.append(line)
                    kept += len(line)

    @property
    def pid(self) -> int:
        if self._process is not None:
            return self._process.pid
        assert self._popen is not None
        return self._popen.pid

    @property
    def sandboxed(self) -> bool:
        return self._process is not None

    def poll(self) -> int | None:
        if self._process is not None:
            return self._process.poll()
        assert self._popen is not None
        return self._popen.poll()

    def output(self) -> str:
        """What the application wrote so far: stdout and stderr (in a sandbox: its stdout,
        up to 1 MB, then its stderr)."""
        if self._process is not None:
            return "".join(self._stdout) + self._process.stderr_text()
        if self._log_path is None:
            return ""
        try:
            return self._log_path.read_bytes().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def kill(self) -> None:
        """Kill the application and everything it started. Idempotent."""
        if self._process is not None:
            self._process.kill_tree()
            self._process.close()
        elif self._popen is not None:
            _kill_group(self._popen)


def _kill_group(popen: subprocess.Popen[bytes], wait_s: float = TERM_WAIT_S) -> None:
    """SIGTERM the process group led by ``popen`` (it was started with a new session),
    SIGKILL it if it is still there after ``wait_s``, and reap the leader."""
    if popen.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(popen.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(wait_s)
    # Whatever is left of the group (children that outlived the leader, or the leader).
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(5)


def _socket_answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(1.0)
        try:
            s.connect(str(path))
        except OSError:
            return False
    return True


class _Reservation:
    """A display number held for one desktop, the way X servers and -displayfd agree on:

    - the abstract socket ``@/tmp/.X11-unix/X<n>`` is bound (never listened on) by this
      process, so an ``Xvfb -displayfd`` elsewhere skips ``n`` (it finds ``n`` busy when it
      cannot bind that name; with ``-nolisten local`` Xvfb itself binds no abstract socket
      and would take, and unlink, a display in use: hence the number is chosen here);
    - the lock file ``/tmp/.X<n>-lock`` (created exclusively, holding the server's pid) makes
      an X server started with an explicit ``:n`` refuse it.
    """

    def __init__(self, number: int, holder: socket.socket, lock: Path) -> None:
        self.number = number
        self.holder = holder
        self.lock = lock

    @classmethod
    def take(cls, first: int = 0, last: int = 999) -> _Reservation:
        for n in range(first, last + 1):
            holder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                holder.bind(f"\0/tmp/.X11-unix/X{n}")
            except OSError:
                holder.close()
                continue
            lock = Path(f"/tmp/.X{n}-lock")
            if cls._lock(lock) and cls._socket_free(Path(f"/tmp/.X11-unix/X{n}")):
                return cls(n, holder, lock)
            holder.close()
        raise DesktopError(f"no free X display number in :{first}..:{last}")

    @staticmethod
    def _lock(lock: Path) -> bool:
        for _ in range(2):
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o444)
            except FileExistsError:
                try:
                    pid = int(lock.read_text().strip())
                except (OSError, ValueError):
                    return False  # being written right now, or not ours to judge
                if pid_alive(pid):
                    return False
                lock.unlink(missing_ok=True)  # stale: its server is gone
                continue
            with os.fdopen(fd, "w") as f:
                f.write(f"{os.getpid():10d}\n")
            return True
        return False

    @staticmethod
    def _socket_free(path: Path) -> bool:
        if not path.exists() and not path.is_symlink():
            return True
        if _socket_answers(path):
            return False
        path.unlink(missing_ok=True)  # a stale socket of a server killed with SIGKILL
        return True

    def claim_for(self, pid: int) -> None:
        """Record the X server's pid in the lock file (what other servers check)."""
        tmp = self.lock.with_name(f"{self.lock.name}.{os.getpid()}")
        tmp.write_text(f"{pid:10d}\n")
        tmp.chmod(0o444)
        tmp.replace(self.lock)

    def release(self) -> None:
        with contextlib.suppress(OSError):
            Path(f"/tmp/.X11-unix/X{self.number}").unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.lock.unlink(missing_ok=True)
        self.holder.close()


class _State:
    """Everything a desktop must clean up (kept apart so the finalizer does not hold it)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.procs: list[subprocess.Popen[bytes]] = []
        self.apps: list[App] = []
        self.reservation: _Reservation | None = None

    def cleanup(self) -> None:
        """Kill everything the desktop started (newest first) and release the display."""
        for app in reversed(self.apps):
            with contextlib.suppress(Exception):
                app.kill()
        self.apps.clear()
        for popen in reversed(self.procs):
            _kill_group(popen)
        self.procs.clear()
        if self.reservation is not None:
            self.reservation.release()
            self.reservation = None


def _finalize(state: _State) -> None:
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
        self._state = _State(Path(tempfile.mkdtemp(prefix="realcli-desktop-")))
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
                self._start_xvfb()
                if self.window_manager:
                    self._start_openbox()
            except BaseException:
                self._state.cleanup()
                raise
        return self

    def _log_tail(self, name: str) -> str:
        try:
            text = (self.home / f"{name}.log").read_bytes().decode("utf-8", "replace")
        except OSError:
            return ""
        return text.strip()[-2000:]

    def _start_xvfb(self) -> None:
        deadline = time.monotonic() + self.start_timeout_s
        reservation = self._state.reservation = _Reservation.take()
        read_fd, write_fd = os.pipe()
        try:
            with (self.home / "xvfb.log").open("ab") as log:
                popen = subprocess.Popen(
                    [
                        "Xvfb",
                        f":{reservation.number}",
                        "-displayfd",  # written once the server accepts connections
                        str(write_fd),
                        "-nolock",  # the lock file is the reservation's (see _Reservation)
                        "-screen",
                        "0",
                        f"{self.width}x{self.height}x{self.depth}",
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
                    env={"PATH": HOST_PATH, "HOME": str(self.home)},
                )
            self._state.procs.append(popen)
            reservation.claim_for(popen.pid)
            os.close(write_fd)
            write_fd = -1
            data = b""
            while not data.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DesktopError(
                        f"Xvfb did not come up within {self.start_timeout_s}s: "
                        f"{self._log_tail('xvfb')}"
                    )
                ready, _, _ = select.select([read_fd], [], [], left)
                if ready:
                    chunk = os.read(read_fd, 64)
                    if not chunk:
                        with contextlib.suppress(subprocess.TimeoutExpired):
                            popen.wait(2)
                        raise DesktopError(
                            f"Xvfb exited ({popen.returncode}) before the display came up: "
                            f"{self._log_tail('xvfb')}"
                        )
                    data += chunk
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
        if data.strip() != str(reservation.number).encode():
            raise DesktopError(f"Xvfb reported display {data!r}, asked for :{reservation.number}")
        while not _socket_answers(self.socket_path):
            if time.monotonic() > deadline or popen.poll() is not None:
                raise DesktopError(
                    f"display {self.display} does not answer on {self.socket_path}: "
                    f"{self._log_tail('xvfb')}"
                )
            time.sleep(0.01)

    def _start_openbox(self) -> None:
        deadline = time.monotonic() + self.start_timeout_s
        ready = self.home / "openbox.ready"
        ready.unlink(missing_ok=True)
        # Openbox re-reads its Compose table on every keymap change (~0.1 s for the UTF-8
        # one; GuiDriver.type changes the keymap per non-ASCII character), and a click on
        # a window waits for openbox meanwhile (its click-to-focus grab freezes the
        # pointer). A window manager composes nothing: give it an empty table.
        compose = self.home / "openbox.compose"
        compose.write_bytes(b"")
        with (self.home / "openbox.log").open("ab") as log:
            popen = subprocess.Popen(
                # --startup runs once openbox has set itself up and managed the windows
                # already there; before that a new window may stay unmanaged (unmapped).
                [
                    "openbox",
                    "--sm-disable",
                    "--config-file",  # executes nothing, no root menu (lockdown.py)
                    str(openbox_config(self.home / "openbox")),
                    "--startup",
                    f"touch {shlex.quote(str(ready))}",
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                env=self.env({"XCOMPOSEFILE": str(compose)}),
                cwd=self.home,
            )
        self._state.procs.append(popen)
        while not ready.exists():
            if popen.poll() is not None or time.monotonic() > deadline:
                raise DesktopError(
                    f"openbox did not start on {self.display}: {self._log_tail('openbox')}"
                )
            time.sleep(0.01)

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
