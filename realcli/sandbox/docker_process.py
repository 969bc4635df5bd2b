"""Lifetime of one docker sandbox command: the container, its output, killing it.

Each command runs in a container of its own, created stopped, attached (stdin when given,
stdout, stderr: Docker's multiplexed stream, read by :func:`docker.utils.socket.frames_iter`),
then started. ``docker-init`` (tini) is the container's pid 1; when the command exits, pid 1
exits and the kernel kills everything left in the container's pid namespace, daemons
included. :meth:`DockerRun.kill` SIGKILLs pid 1 from outside (``docker kill``), with the same
effect. :meth:`DockerRun.finish` waits until no host process is left in that namespace (the
container's processes are host processes: they show in the host's /proc) and removes the
container, so nothing of a finished command remains.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import docker.errors
from docker.utils.socket import STDERR, STDOUT, frames_iter

from realcli.sandbox.base import SandboxOptions, SandboxProcess
from realcli.sandbox.disk import WALK_EVERY_S, disk_limit_hit

__all__ = ["DockerProcess", "DockerRun"]

KILL_WAIT_S = 5.0
WATCH_S = 0.2
_CGROUP_PIDS = (
    "/sys/fs/cgroup/pids/docker/{id}/pids.events",
    "/sys/fs/cgroup/system.slice/docker-{id}.scope/pids.events",
    "/sys/fs/cgroup/docker/{id}/pids.events",
)


def _pid_ns(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def _in_namespace(ns: str) -> list[int]:
    """Live host pids in pid namespace ``ns`` (zombies are gone for good: not counted)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry.name}/ns/pid") != ns:
                continue
            state = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


class DockerRun:
    """One started container: its output pumped by a thread, its exit awaited by another.

    ``stdout_sink``/``stderr_sink`` receive the command's bytes (a pipe's write end, a file,
    or an in-memory buffer); the stdout sink is closed when the stream ends.
    """

    def __init__(
        self,
        api: docker.DockerClient,
        container_id: str,
        options: SandboxOptions,
        *,
        stdin: bytes | None,
        stdout_sink: io.RawIOBase | io.BufferedIOBase,
        stderr_sink: io.RawIOBase | io.BufferedIOBase,
        staging: Path | None,
    ) -> None:
        self.api = api
        self.id = container_id
        self.options = options
        self.limit: str | None = None
        self._staging = staging
        self._stdout = stdout_sink
        self._stderr = stderr_sink
        self._lock = threading.RLock()
        self._exited = threading.Event()
        self.returncode: int | None = None
        self._finished = False
        params = {"stdout": 1, "stderr": 1, "stream": 1, "stdin": 1 if stdin is not None else 0}
        self._socket: Any = api.api.attach_socket(container_id, params=params)
        raw = getattr(self._socket, "_sock", self._socket)
        raw.settimeout(None)  # an agent may be silent for longer than the client's timeout
        api.api.start(container_id)
        state = api.api.inspect_container(container_id)["State"]
        self.pid: int = int(state.get("Pid") or 0)
        self.namespace = _pid_ns(self.pid) if self.pid else None
        if stdin is not None:
            threading.Thread(target=self._feed, args=(raw, stdin), daemon=True).start()
        self._reader = threading.Thread(target=self._pump, name="docker-output", daemon=True)
        self._reader.start()
        threading.Thread(target=self._wait, name="docker-wait", daemon=True).start()

    # ----------------------------------------------------------------- threads
    @staticmethod
    def _feed(raw: socket.socket, data: bytes) -> None:
        with contextlib.suppress(OSError):
            raw.sendall(data)
            raw.shutdown(socket.SHUT_WR)  # the container's stdin ends (StdinOnce)

    def _pump(self) -> None:
        sinks = {STDOUT: self._stdout, STDERR: self._stderr}
        try:
            for stream, data in frames_iter(self._socket, False):
                sink = sinks.get(stream)
                if sink is not None and data:
                    with contextlib.suppress(OSError, ValueError):
                        sink.write(data)
                        sink.flush()
        except (OSError, ValueError):
            pass
        finally:
            for sink in (self._stdout, self._stderr):
                with contextlib.suppress(OSError, ValueError):
                    sink.close()
            with contextlib.suppress(OSError):
                self._socket.close()

    def _wait(self) -> None:
        try:
            code = int(self.api.api.wait(self.id, timeout=None)["StatusCode"])
        except (docker.errors.DockerException, OSError, KeyError, ValueError):
            code = 128 + signal.SIGKILL
        self.returncode = code
        self._exited.set()

    # ----------------------------------------------------------------- control
    def exited(self, timeout: float | None = None) -> bool:
        return self._exited.wait(timeout)

    def output_done(self, timeout: float | None = None) -> None:
        self._reader.join(timeout)

    def pids_refused(self) -> int:
        for pattern in _CGROUP_PIDS:
            with contextlib.suppress(OSError, ValueError, IndexError):
                text = Path(pattern.format(id=self.id)).read_text()
                return int(text.split()[1])
        return 0

    def stop_at(self, limit: str) -> None:
        with self._lock:
            if self.limit is None:
                self.limit = limit
        self.kill()

    def kill(self) -> None:
        """SIGKILL the container's pid 1: the kernel then kills everything inside."""
        with self._lock:
            if self._exited.is_set():
                return
            with contextlib.suppress(docker.errors.DockerException):
                self.api.api.kill(self.id)
            if self.pid:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    if _pid_ns(self.pid) == self.namespace:
                        os.kill(self.pid, signal.SIGKILL)
            self._exited.wait(KILL_WAIT_S * 2)

    def finish(self) -> None:
        """After the container exited: no process left of it, its output read, and the
        container (with its staged binds) removed. Idempotent."""
        with self._lock:
            if self._finished or not self._exited.is_set():
                return
            self._finished = True
            if self.namespace is not None:
                deadline = time.monotonic() + KILL_WAIT_S
                while (left := _in_namespace(self.namespace)) and time.monotonic() < deadline:
                    for pid in left:
                        with contextlib.suppress(ProcessLookupError, PermissionError):
                            os.kill(pid, signal.SIGKILL)
                    time.sleep(0.01)
            self._reader.join(KILL_WAIT_S)
            if self.limit is None:
                self.limit = self._final_limit()
            with contextlib.suppress(docker.errors.NotFound):
                try:
                    self.api.api.remove_container(self.id, force=True)
                except docker.errors.APIError as exc:
                    if exc.status_code != 409:  # already being removed
                        raise
            if self._staging is not None:
                shutil.rmtree(self._staging, ignore_errors=True)
                self._staging = None

    def _final_limit(self) -> str | None:
        with contextlib.suppress(docker.errors.DockerException):
            state = self.api.api.inspect_container(self.id)["State"]
            if state.get("OOMKilled"):
                return f"memory limit reached: memory_mb={self.options.memory_mb}"
        return None


class DockerProcess(SandboxProcess):
    """A spawned command in its container; stdout through a pipe, stderr to a temp file."""

    def __init__(self, run: DockerRun, stdout: io.TextIOWrapper, stderr_path: Path) -> None:
        self._run = run
        self._stdout = stdout
        self._stderr_path = stderr_path
        self._watcher = threading.Thread(target=self._watch, name="sandbox-limits", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        """Until the container exits: stop it at its first limit hit."""
        o = self._run.options
        walk = o.disk_mb is not None and not os.path.ismount(os.path.realpath(o.workspace))
        walked = 0.0
        while not self._run.exited(WATCH_S):
            hit = None
            refused = self._run.pids_refused()
            if refused:
                hit = (
                    f"process limit reached: max_processes={o.max_processes} "
                    f"(the kernel refused {refused} fork(s))"
                )
            elif o.disk_mb is not None:
                now = time.monotonic()
                if not walk or now - walked >= WALK_EVERY_S:
                    walked = now
                    hit = disk_limit_hit(o.workspace, o.disk_mb, walk=walk)
            if hit is not None:
                self._run.stop_at(hit)
                return

    @property
    def limit_hit(self) -> str | None:
        return self._run.limit

    @property
    def pid(self) -> int:
        return self._run.pid

    @property
    def stdout(self) -> Iterator[str]:
        return iter(self._stdout)

    def poll(self) -> int | None:
        return self._run.returncode if self._run.exited(0) else None

    def wait(self, timeout: float | None = None) -> int:
        if not self._run.exited(timeout):
            raise TimeoutError(
                f"sandbox container {self._run.id[:12]} still running after {timeout}s"
            )
        self._run.finish()
        assert self._run.returncode is not None
        return self._run.returncode

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
        with contextlib.suppress(OSError):
            self._stdout.close()
        self._stderr_path.unlink(missing_ok=True)
