"""Process lifetime of a bubblewrap run: rlimits, killing the whole namespace, waiting for it.

bwrap runs as the leader of a new process group and, with ``--unshare-pid``, its child is
the init of the sandbox's pid namespace. SIGKILL to that init makes the kernel kill every
process in the namespace, including ones that ``setsid``/daemonize; when the command exits
normally, init exits too and takes any leftover daemons with it.

The whole tree also lives in one cgroup (:mod:`realcli.sandbox.cgroup`) that bounds its
processes and memory together; it is removed, with anything still in it, when the run ends.
A spawned process is watched: when the tree reaches its process, memory or workspace-disk
limit, the watcher kills it and :attr:`BwrapProcess.limit_hit` says which limit.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from realcli.sandbox.base import SandboxOptions, SandboxProcess
from realcli.sandbox.cgroup import RunCgroup
from realcli.sandbox.disk import WALK_EVERY_S, disk_limit_hit

__all__ = ["BwrapProcess", "BwrapRun", "rlimits"]

KILL_WAIT_S = 5.0
WATCH_S = 0.2
"""How often a spawned sandbox's limits are checked."""


class BwrapProcess(SandboxProcess):
    def __init__(self, run: BwrapRun, stderr_path: Path, options: SandboxOptions) -> None:
        self._run = run
        self._stderr_path = stderr_path
        self._watcher = threading.Thread(
            target=self._watch, args=(options,), name="sandbox-limits", daemon=True
        )
        self._watcher.start()

    def _watch(self, o: SandboxOptions) -> None:
        """Until the process ends: stop the tree at its first limit hit."""
        walk = o.disk_mb is not None and not os.path.ismount(os.path.realpath(o.workspace))
        walked = 0.0
        while self._run.popen.poll() is None:
            hit = self._run.cgroup.limit_hit() if self._run.cgroup is not None else None
            if hit is None and o.disk_mb is not None:
                now = time.monotonic()
                due = not walk or now - walked >= WALK_EVERY_S
                if due:
                    walked = now
                    hit = disk_limit_hit(o.workspace, o.disk_mb, walk=walk)
            if hit is not None:
                self._run.stop_at(hit)
                return
            time.sleep(WATCH_S)

    @property
    def limit_hit(self) -> str | None:
        return self._run.limit

    @property
    def pid(self) -> int:
        return self._run.popen.pid

    @property
    def stdout(self) -> Iterator[str]:
        assert self._run.popen.stdout is not None
        return iter(self._run.popen.stdout)

    def poll(self) -> int | None:
        return self._run.popen.poll()

    def wait(self, timeout: float | None = None) -> int:
        try:
            code = self._run.popen.wait(timeout)
        except subprocess.TimeoutExpired as exc:
            raise TimeoutError(
                f"sandbox process {self.pid} still running after {timeout}s"
            ) from exc
        self._run.finish()
        return code

    def kill_tree(self) -> None:
        self._run.kill()
        self._run.finish()

    def stderr_text(self) -> str:
        try:
            return self._stderr_path.read_bytes().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def close(self) -> None:
        self.kill_tree()
        if self._run.popen.stdout is not None:
            self._run.popen.stdout.close()
        self._stderr_path.unlink(missing_ok=True)


def rlimits(o: SandboxOptions, cgroup: RunCgroup | None = None) -> Callable[[], None]:
    """A ``preexec_fn`` that applies the options' resource limits (setrlimit only) and
    moves the child into ``cgroup`` (raw writes only)."""
    mb = 1024 * 1024
    limits = (
        (resource.RLIMIT_AS if o.limit_address_space else resource.RLIMIT_DATA, o.memory_mb * mb),
        (resource.RLIMIT_CPU, o.cpu_seconds),
        (resource.RLIMIT_FSIZE, o.max_file_mb * mb),
    )

    join = cgroup.joiner() if cgroup is not None else None

    def apply() -> None:  # runs in the forked child before exec: no locks taken
        for which, value in limits:
            resource.setrlimit(which, (value, value))
        if join is not None:
            join()

    return apply


def _children(pid: int) -> list[int]:
    """Child pids of ``pid`` (bwrap before it reported its init on --info-fd)."""
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []


def _gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


class BwrapRun:
    """One bwrap run: its Popen and the host pid of its pid-namespace init.

    bwrap reports the init's pid on ``--info-fd``. bwrap itself exits as soon as the command
    does, slightly before the init has torn the namespace down; :meth:`finish` waits for
    that, so when exec()/wait() return nothing started inside is still running.
    """

    def __init__(
        self,
        popen: subprocess.Popen[str],
        info_fd: int,
        staging: Path | None = None,
        cgroup: RunCgroup | None = None,
    ) -> None:
        self.popen = popen
        self._staging = staging
        """Host folder of the run's staged binds, removed once the namespace is gone."""
        self.cgroup = cgroup
        self.limit: str | None = None
        """The limit the tree reached (set by the watcher or read at the end)."""
        self._info_fd: int | None = info_fd
        self._info = b""
        self._init: int | None = None
        self._lock = threading.RLock()  # kill/finish may race from two threads

    def init_pid(self) -> int | None:
        if self._init is None and self._info_fd is not None:
            with contextlib.suppress(BlockingIOError, OSError):
                while chunk := os.read(self._info_fd, 4096):
                    self._info += chunk
            with contextlib.suppress(ValueError):
                pid = json.loads(self._info).get("child-pid")
                self._init = pid if isinstance(pid, int) and pid > 1 else None
        return self._init

    def stop_at(self, limit: str) -> None:
        """The tree reached ``limit``: record it and kill everything."""
        with self._lock:
            if self.limit is None:
                self.limit = limit
            self._kill()

    def kill(self) -> None:
        """SIGKILL the namespace init (the kernel then kills everything inside) and bwrap."""
        with self._lock:
            self._kill()

    def _kill(self) -> None:
        if self.popen.poll() is not None:  # reaped already: its pid (and group) may be reused
            return
        # Not reaped yet, so the pid cannot have been reused even if bwrap just exited.
        init = self.init_pid()
        for pid in [init] if init is not None else _children(self.popen.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def finish(self) -> None:
        """After bwrap exited: wait (briefly) until the namespace init is gone, kill it if not."""
        with self._lock:
            self._finish()

    def _finish(self) -> None:
        if self.popen.poll() is None:
            return
        init = self.init_pid()
        if init is not None:
            deadline = time.monotonic() + KILL_WAIT_S
            while not _gone(init) and time.monotonic() < deadline:
                time.sleep(0.002)
            if not _gone(init):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(init, signal.SIGKILL)
        if self._info_fd is not None:
            os.close(self._info_fd)
            self._info_fd = None
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)
            self._staging = None
        if self.cgroup is not None:  # leftovers (none, normally) die with it
            if self.limit is None:
                self.limit = self.cgroup.limit_hit()
            self.cgroup.remove()
            self.cgroup = None
