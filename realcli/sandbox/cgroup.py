"""Per-sandbox control groups: one process-count and one memory limit for a whole process tree.

Rlimits are per process (and ``RLIMIT_NPROC`` counts per real uid host-wide, useless for root),
so a sandbox's tree gets its own cgroup: ``pids.max`` bounds its processes and threads, and the
memory limit (``memory.limit_in_bytes`` on cgroup v1, ``memory.max`` on v2) bounds the memory
of all of them together. The cgroup is created under the caller's own cgroup (so it nests in
whatever limits the caller already has), the sandbox's first process joins it before it
execs bwrap (so nothing forks outside it), and :meth:`RunCgroup.remove` kills what is left
and removes it. Cgroups left behind by a realcli killed with SIGKILL are removed by the next
:meth:`RunCgroup.create` once their creator's pid is gone.

Layouts tried, in order: cgroup v1 with the ``pids`` and ``memory`` controllers mounted under
``/sys/fs/cgroup/{pids,memory}``, then cgroup v2 (``/sys/fs/cgroup`` or
``/sys/fs/cgroup/unified``) whose caller's cgroup may enable ``pids`` and ``memory`` for its
children. :class:`CgroupUnavailable` says in one line why neither works.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from realcli.util.processes import pid_alive

__all__ = ["CGROUP_ROOT", "CgroupUnavailable", "RunCgroup"]

CGROUP_ROOT = Path("/sys/fs/cgroup")
PREFIX = "realcli-"
REMOVE_WAIT_S = 5.0


class CgroupUnavailable(RuntimeError):
    """Neither cgroup v1 (pids + memory) nor a delegated cgroup v2 is writable here."""


def _own_paths(proc_cgroup: str) -> tuple[dict[str, str], str | None]:
    """``({v1 controller: path}, v2 path)`` of the calling process, from /proc/self/cgroup."""
    v1: dict[str, str] = {}
    v2: str | None = None
    for line in proc_cgroup.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            v2 = path
        for name in controllers.split(","):
            v1[name] = path
    return v1, v2


def _int_field(path: Path, key: str) -> int:
    """``key N`` from a flat keyed cgroup file (``pids.events``, ``memory.events``...); 0 if
    absent or unreadable."""
    with contextlib.suppress(OSError, ValueError):
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    return 0


def _kill_all(directory: Path) -> None:
    """SIGKILL every process of the cgroup ``directory`` until it is empty (or time is up)."""
    deadline = time.monotonic() + REMOVE_WAIT_S
    while time.monotonic() < deadline:
        try:
            pids = [int(p) for p in (directory / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def _rmdir(directory: Path) -> None:
    deadline = time.monotonic() + REMOVE_WAIT_S
    while True:
        try:
            directory.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:  # EBUSY while the last killed processes are being reaped
            if time.monotonic() >= deadline:
                return
            _kill_all(directory)
            time.sleep(0.01)


def _sweep_stale(parent: Path) -> None:
    """Remove ``realcli-<pid>-*`` cgroups under ``parent`` whose creating process is gone."""
    with contextlib.suppress(OSError):
        for child in parent.iterdir():
            name = child.name
            if not (name.startswith(PREFIX) and child.is_dir()):
                continue
            creator = name[len(PREFIX) :].split("-", 1)[0]
            if creator.isdigit() and not pid_alive(int(creator)):
                _kill_all(child)
                _rmdir(child)


@dataclass(frozen=True)
class RunCgroup:
    """One sandbox's cgroup: the directories to join and to read its counters from."""

    version: int
    """1 or 2."""
    join_files: tuple[Path, ...]
    """``cgroup.procs`` files a process writes ``0`` to, to join (one per v1 hierarchy)."""
    pids_dir: Path
    memory_dir: Path
    max_processes: int
    memory_bytes: int

    # ----------------------------------------------------------------- life cycle
    @classmethod
    def create(
        cls,
        *,
        max_processes: int,
        memory_bytes: int,
        root: Path = CGROUP_ROOT,
        proc_cgroup: str | None = None,
    ) -> RunCgroup:
        """A fresh cgroup with these limits, under the caller's own cgroup.

        Raises:
            CgroupUnavailable: no usable cgroup layout (the message says what is missing).
        """
        if proc_cgroup is None:
            try:
                proc_cgroup = Path("/proc/self/cgroup").read_text()
            except OSError as exc:
                raise CgroupUnavailable(f"cannot read /proc/self/cgroup: {exc}") from None
        v1, v2 = _own_paths(proc_cgroup)
        name = f"{PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
        problems: list[str] = []
        if "pids" in v1 and "memory" in v1:
            try:
                return cls._create_v1(root, v1, name, max_processes, memory_bytes)
            except OSError as exc:
                problems.append(f"cgroup v1: {exc}")
        else:
            problems.append("cgroup v1: no pids and memory hierarchies in /proc/self/cgroup")
        if v2 is not None:
            try:
                return cls._create_v2(root, v2, name, max_processes, memory_bytes)
            except OSError as exc:
                problems.append(f"cgroup v2: {exc}")
        else:
            problems.append("cgroup v2: not mounted")
        raise CgroupUnavailable("; ".join(problems))

    @classmethod
    def _create_v1(
        cls, root: Path, own: dict[str, str], name: str, max_processes: int, memory_bytes: int
    ) -> RunCgroup:
        dirs: dict[str, Path] = {}
        try:
            for ctl in ("pids", "memory"):
                parent = root / ctl / own[ctl].lstrip("/")
                _sweep_stale(parent)
                (parent / name).mkdir()
                dirs[ctl] = parent / name
            (dirs["pids"] / "pids.max").write_text(str(max_processes))
            (dirs["memory"] / "memory.limit_in_bytes").write_text(str(memory_bytes))
            memsw = dirs["memory"] / "memory.memsw.limit_in_bytes"
            if memsw.exists():  # swap counts too, when the kernel accounts it
                memsw.write_text(str(memory_bytes))
        except OSError:
            for d in dirs.values():
                _rmdir(d)
            raise
        return cls(
            version=1,
            join_files=tuple(d / "cgroup.procs" for d in dirs.values()),
            pids_dir=dirs["pids"],
            memory_dir=dirs["memory"],
            max_processes=max_processes,
            memory_bytes=memory_bytes,
        )

    @classmethod
    def _create_v2(
        cls, root: Path, own: str, name: str, max_processes: int, memory_bytes: int
    ) -> RunCgroup:
        base = root if (root / "cgroup.controllers").exists() else root / "unified"
        parent = base / own.lstrip("/")
        available = (parent / "cgroup.controllers").read_text().split()
        missing = [c for c in ("pids", "memory") if c not in available]
        if missing:
            raise OSError(f"{parent} cannot delegate {' and '.join(missing)}")
        enabled = (parent / "cgroup.subtree_control").read_text().split()
        if "pids" not in enabled or "memory" not in enabled:
            (parent / "cgroup.subtree_control").write_text("+pids +memory")
        _sweep_stale(parent)
        directory = parent / name
        directory.mkdir()
        try:
            (directory / "pids.max").write_text(str(max_processes))
            (directory / "memory.max").write_text(str(memory_bytes))
            with contextlib.suppress(FileNotFoundError):
                (directory / "memory.swap.max").write_text("0")
        except OSError:
            _rmdir(directory)
            raise
        return cls(
            version=2,
            join_files=(directory / "cgroup.procs",),
            pids_dir=directory,
            memory_dir=directory,
            max_processes=max_processes,
            memory_bytes=memory_bytes,
        )

    def joiner(self) -> Callable[[], None]:
        """A ``preexec_fn`` step: the forked child moves itself into the cgroup (raw writes
        only, no locks), so everything it starts is inside from its first fork."""
        files = [str(f) for f in self.join_files]

        def join() -> None:
            for path in files:
                fd = os.open(path, os.O_WRONLY)
                try:
                    os.write(fd, b"0")
                finally:
                    os.close(fd)

        return join

    def remove(self) -> None:
        """Kill every process still in the cgroup and remove it. Idempotent, never raises."""
        for directory in dict.fromkeys((self.pids_dir, self.memory_dir)):
            _kill_all(directory)
            _rmdir(directory)

    # ----------------------------------------------------------------- counters
    def processes(self) -> int:
        """Processes and threads in the cgroup now."""
        with contextlib.suppress(OSError, ValueError):
            return int((self.pids_dir / "pids.current").read_text())
        return 0

    def pids_refused(self) -> int:
        """How many forks (or thread creations) the process limit refused."""
        return _int_field(self.pids_dir / "pids.events", "max")

    def oom_kills(self) -> int:
        """How many processes the kernel killed at the memory limit."""
        if self.version == 1:
            return _int_field(self.memory_dir / "memory.oom_control", "oom_kill")
        return _int_field(self.memory_dir / "memory.events", "oom_kill")

    def limit_hit(self) -> str | None:
        """One line naming the limit the tree ran into, or None."""
        refused = self.pids_refused()
        if refused:
            return (
                f"process limit reached: max_processes={self.max_processes} "
                f"(the kernel refused {refused} fork(s))"
            )
        kills = self.oom_kills()
        if kills:
            mb = self.memory_bytes // (1024 * 1024)
            return f"memory limit reached: memory_mb={mb} ({kills} process(es) killed)"
        return None
