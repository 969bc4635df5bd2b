"""The processes a desktop starts and must clean up: the task's GUI applications
(:class:`App`, on the host or in a sandbox of their own), the X server and window manager
(process groups killed by :func:`kill_group`), and :class:`DesktopState`, which holds them all
with the display number and kills them newest first."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path

from realcli.gui.display_number import DisplayReservation
from realcli.sandbox import SandboxProcess

__all__ = ["MAX_APP_OUTPUT", "TERM_WAIT_S", "App", "DesktopState", "kill_group"]

MAX_APP_OUTPUT = 1024 * 1024
TERM_WAIT_S = 2.0
"""How long stop() waits after SIGTERM before SIGKILL."""


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
            kill_group(self._popen)


def kill_group(popen: subprocess.Popen[bytes], wait_s: float = TERM_WAIT_S) -> None:
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


class DesktopState:
    """Everything a desktop must clean up (kept apart so the finalizer does not hold it)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.procs: list[subprocess.Popen[bytes]] = []
        self.apps: list[App] = []
        self.reservation: DisplayReservation | None = None

    def cleanup(self) -> None:
        """Kill everything the desktop started (newest first) and release the display."""
        for app in reversed(self.apps):
            with contextlib.suppress(Exception):
                app.kill()
        self.apps.clear()
        for popen in reversed(self.procs):
            kill_group(popen)
        self.procs.clear()
        if self.reservation is not None:
            self.reservation.release()
            self.reservation = None
