"""Sandbox extension point: where an untrusted agent (and later, the grader) runs commands.

A :class:`Sandbox` is built from :class:`SandboxOptions` and runs commands with the
workspace mounted read-write at ``options.workdir``, nothing else of the host writable,
no network but loopback, a clean environment and resource limits. Each implementation
documents the same contract, which ``tests/sandbox/sandbox_contract.py`` checks.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Self

from realcli.registry import Registry

__all__ = [
    "GATEWAY_MOUNT",
    "LAUNCH_FAILED_EXIT",
    "LAUNCH_FAILED_MARK",
    "SANDBOXES",
    "ExecResult",
    "Sandbox",
    "SandboxError",
    "SandboxOptions",
    "SandboxProcess",
]

GATEWAY_MOUNT = "/run/realcli/gw"
"""Where the directory of the gateway's Unix socket appears inside a sandbox (read-only)."""


LAUNCH_FAILED_EXIT = 127
LAUNCH_FAILED_MARK = "realcli launcher: cannot run"
"""The launcher inside a sandbox (``inside.py``) exits :data:`LAUNCH_FAILED_EXIT` and writes
this to stderr when it cannot start the command (missing binary, not executable)."""


class SandboxError(RuntimeError):
    """The sandbox itself failed (cannot start, bad mount, missing runtime): an infra error,
    never the agent's fault."""


@dataclass(frozen=True)
class SandboxOptions:
    """Everything a sandbox needs to know, independent of the isolation backend."""

    workspace: Path
    """Host directory, bind-mounted read-write at :attr:`workdir`."""
    workdir: str = "/app"
    memory_mb: int = 4096
    """Memory of the whole sandbox, every process together (its cgroup's memory limit), and
    of each process (RLIMIT_AS, or RLIMIT_DATA when :attr:`limit_address_space` is False:
    runtimes such as V8, Bun and Go reserve far more address space than they use)."""
    limit_address_space: bool = True
    cpu_seconds: int = 3600
    """CPU-time limit per process (RLIMIT_CPU)."""
    max_file_mb: int = 1024
    """Largest file a process may write (RLIMIT_FSIZE)."""
    max_processes: int = 1024
    """Processes and threads of the whole sandbox together (its cgroup's ``pids.max``)."""
    disk_mb: int | None = None
    """The workspace's disk cap, when the runner gave it a filesystem of that size
    (:mod:`realcli.sandbox.disk`); a spawned process is stopped when it is full. None: no cap."""
    enforce_limits: bool = True
    """True: a host without usable cgroups is a :class:`SandboxError`. False: run with the
    per-process rlimits only (a documented fallback, no whole-sandbox limit)."""
    ro_binds: tuple[tuple[Path, str], ...] = ()
    """Extra read-only ``(host path, sandbox path)`` binds, e.g. the tests for grading."""
    stage_ro_binds: bool = True
    """Copy small read-only binds (a task's tests, a script) into a temp folder for the
    command's lifetime, so ``/proc/self/mountinfo`` does not show their host paths. False
    when a bind must show later changes (a GUI app's live view of the workspace)."""
    rw_binds: tuple[tuple[Path, str], ...] = ()
    """Extra read-write ``(host directory, sandbox path)`` binds, e.g. an agent's per-run home."""
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Extra environment variables; the sandbox env is otherwise clean (no host env leaks)."""
    gateway_socket: Path | None = None
    """Host Unix socket of the model gateway; reachable inside at ``127.0.0.1:gateway_port``.
    Its whole directory is mounted read-only: keep nothing else in it."""
    gateway_port: int = 8765
    image: str | None = None
    """The container image of an image-based backend (``docker``): the task's image, built
    by the runner. None: realcli's base image. Backends on the host's root (``local``)
    ignore it."""

    def __post_init__(self) -> None:
        if not self.workdir.startswith("/"):
            raise ValueError(f"workdir must be an absolute path, got {self.workdir!r}")
        for what, binds in (("ro_binds", self.ro_binds), ("rw_binds", self.rw_binds)):
            for host, dest in binds:
                if not str(dest).startswith("/"):
                    raise ValueError(
                        f"{what} destination must be absolute, got {dest!r} for {host}"
                    )
        if self.max_processes < 1:
            raise ValueError(f"max_processes must be positive, got {self.max_processes}")
        if not 1 <= self.gateway_port <= 65535:
            raise ValueError(f"gateway_port out of range: {self.gateway_port}")
        # Freeze the env mapping so options stay hashable-in-spirit and immutable.
        object.__setattr__(self, "env", MappingProxyType(dict(self.env)))

    @property
    def gateway_url(self) -> str | None:
        """Base URL of the gateway as seen from inside the sandbox (OpenAI style, ends in /v1)."""
        if self.gateway_socket is None:
            return None
        return f"http://127.0.0.1:{self.gateway_port}/v1"


@dataclass(frozen=True)
class ExecResult:
    returncode: int
    """Exit status; negative (or 128+N) when killed by signal N, e.g. on timeout."""
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool
    limit: str | None = None
    """The whole-sandbox limit the command ran into (processes, memory), in one line."""

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


class SandboxProcess(ABC):
    """A long-running command started with :meth:`Sandbox.spawn` (e.g. an agent)."""

    @property
    @abstractmethod
    def pid(self) -> int:
        """Host pid of the process that owns the sandbox (killing it kills everything)."""

    @property
    @abstractmethod
    def stdout(self) -> Iterator[str]:
        """The command's stdout, line by line (text, line-buffered); ends when it closes."""

    @abstractmethod
    def poll(self) -> int | None:
        """The exit status if the process has finished, else None. Never raises."""

    @abstractmethod
    def wait(self, timeout: float | None = None) -> int:
        """Wait for the process to exit and return its status.

        Raises:
            TimeoutError: it is still running after ``timeout`` seconds (it keeps running).
        """

    @abstractmethod
    def kill_tree(self) -> None:
        """Kill every process started inside the sandbox, daemons included, and wait for the
        sandbox to be gone. Idempotent; never raises for an already finished process."""

    @property
    def limit_hit(self) -> str | None:
        """One line naming the whole-sandbox limit (processes, memory, workspace disk) that
        stopped the process, once it did; None otherwise. The sandbox kills the tree when a
        limit is reached."""
        return None

    @abstractmethod
    def stderr_text(self) -> str:
        """Everything the command wrote to stderr so far (undecodable bytes replaced)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release host resources (temp files). Kills the tree first if still running."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill_tree()
        self.close()


class Sandbox(ABC):
    """Base class of isolation backends, registered by name in :data:`SANDBOXES`."""

    name: str = "abstract"

    def __init__(self, options: SandboxOptions) -> None:
        self.options = options

    def with_options(self, **changes: Any) -> Self:
        """A sandbox of the same kind with some options replaced (e.g. extra ``ro_binds``)."""
        return type(self)(dataclasses.replace(self.options, **changes))

    def with_ro_binds(self, *binds: tuple[Path, str]) -> Self:
        """A sandbox of the same kind with extra read-only binds appended."""
        return self.with_options(ro_binds=self.options.ro_binds + tuple(binds))

    def with_rw_binds(self, *binds: tuple[Path, str]) -> Self:
        """A sandbox of the same kind with extra read-write binds appended."""
        return self.with_options(rw_binds=self.options.rw_binds + tuple(binds))

    def command_path(self) -> str | None:
        """The ``PATH`` an agent's own commands keep first (the one that finds the task's
        interpreter), or None when the system ``PATH`` does (a container image's tools).
        For adapters that must set ``PATH`` themselves (e.g. to append their runtime)."""
        return None

    @abstractmethod
    def exec(
        self,
        argv: Sequence[str],
        *,
        timeout_s: float,
        cwd: str | None = None,
        stdin: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> ExecResult:
        """Run ``argv`` inside the sandbox and wait for it (and everything it started).

        ``cwd`` defaults to the workdir; ``env`` adds to the sandbox environment. When the
        wall clock ``timeout_s`` passes, the whole process tree is killed and the result has
        ``timed_out=True``. Output is decoded as UTF-8 with replacement characters.

        Raises:
            ValueError: empty ``argv``, non-positive ``timeout_s`` or a relative ``cwd``.
            SandboxError: the sandbox could not be started (runtime or workspace missing).
        """

    @abstractmethod
    def spawn(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> SandboxProcess:
        """Start ``argv`` inside the sandbox without waiting (stdin is /dev/null).

        The caller must eventually call :meth:`SandboxProcess.kill_tree` (or use it as a
        context manager); the sandbox enforces no wall clock on spawned processes.

        Raises:
            ValueError: empty ``argv`` or a relative ``cwd``.
            SandboxError: the sandbox could not be started (runtime or workspace missing).
        """


def check_argv(argv: Sequence[str], cwd: str | None) -> list[str]:
    """Shared argument validation for implementations."""
    if isinstance(argv, str):
        raise ValueError("argv must be a sequence of strings, not one string")
    args = [str(a) for a in argv]
    if not args:
        raise ValueError("argv is empty")
    if cwd is not None and not cwd.startswith("/"):
        raise ValueError(f"cwd must be an absolute path inside the sandbox, got {cwd!r}")
    return args


SANDBOXES: Registry[type[Sandbox]] = Registry(
    "sandbox backend",
    "realcli.sandboxes",
    ("realcli.sandbox.local", "realcli.sandbox.docker"),
    ordered=True,
)
"""Sandbox backends by name (``sandbox.kind``): built-ins register with
``@SANDBOXES.register(name)`` where they are defined; plugins through the ``realcli.sandboxes``
entry-point group. A backend is built from its :class:`SandboxOptions` alone."""
