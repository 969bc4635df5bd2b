"""DockerSandbox: each command in a fresh container of the task's image (``sandbox=docker``).

The same contract as ``local`` (:mod:`realcli.sandbox.local`), with the image's root
filesystem in place of the host's ``/usr`` and curated ``/etc``:

- the image's root, read-only (``read_only``); the workspace read-write at the workdir; a
  private ``/tmp`` (tmpfs capped at ``max_file_mb``) with ``HOME=/tmp/home``; the extra
  ``ro_binds``/``rw_binds`` (small read-only ones copied first, so no host path shows in
  ``/proc/self/mountinfo``, see :mod:`.neutral`); nothing else of the host;
- realcli's Python, read-only: the venv mirror at :data:`VENV_MOUNT` and the interpreter it
  links to (``sys.base_prefix``, at its own path), first on ``PATH`` as in ``local``, so
  ``python -m pytest`` and :func:`sandbox_python` work in any image;
- ``network_mode="none"``: only ``lo``; the gateway's socket folder at :data:`GATEWAY_MOUNT`
  with the same forwarder (``inside.py``) as ``local``, so ``http://127.0.0.1:PORT/v1`` works;
- a clean environment; root inside (uid 0, as in ``local``) with every capability dropped
  and ``no-new-privileges``;
- limits: the container's cgroup bounds memory (``mem_limit`` = ``memswap_limit``: no swap)
  and processes (``pids_limit``); the per-process rlimits (address space or data, CPU
  seconds, file size) are set by the launcher inside (:mod:`.docker_inside`);
- the GUI channel is the display socket bound read-only (``Desktop.sandbox``) plus ``DISPLAY``.

Containers are named ``realcli-<hex>``, labelled with their owner process and removed when
the command ends; leftovers of a crashed run are removed by the next one
(:mod:`.docker_client`). Lifetime and killing: :mod:`.docker_process`.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import docker.errors
from docker.types import Mount

from realcli.sandbox.base import (
    GATEWAY_MOUNT,
    SANDBOXES,
    ExecResult,
    Sandbox,
    SandboxError,
    SandboxProcess,
    check_argv,
)
from realcli.sandbox.docker_client import client, container_name, owner_labels
from realcli.sandbox.docker_process import DockerProcess, DockerRun
from realcli.sandbox.neutral import (
    VENV_MOUNT,
    sandbox_environment,
    stage_small,
    venv_mirror,
)

__all__ = ["DockerSandbox", "default_image"]

_START_ATTEMPTS = 3
_TRANSIENT_START = re.compile(r"error running hook|failed to create shim task")

INSIDE_SCRIPT = Path(__file__).with_name("inside.py")
LAUNCHER_SCRIPT = Path(__file__).with_name("docker_inside.py")
INSIDE_MOUNT = "/run/realcli/inside.py"
LAUNCHER_MOUNT = "/run/realcli/launch.py"
_DEFAULT_IMAGE: str | None = None


def default_image() -> str:
    """The base image (built from Debian packages on first use: :mod:`.docker_base`)."""
    global _DEFAULT_IMAGE
    if _DEFAULT_IMAGE is None:
        from realcli.sandbox.docker_base import ensure_base_image

        _DEFAULT_IMAGE = ensure_base_image()
    return _DEFAULT_IMAGE


def _python_roots(hide_venv: bool) -> list[str]:
    roots: list[str] = []
    for prefix in (sys.base_prefix,) if hide_venv else (sys.base_prefix, sys.prefix):
        for p in dict.fromkeys((prefix, os.path.realpath(prefix))):
            if p not in roots:
                roots.append(p)
    return roots


def _bind(source: Path | str, target: str, *, read_only: bool) -> Mount:
    return Mount(target, str(source), type="bind", read_only=read_only)


@SANDBOXES.register("docker")
class DockerSandbox(Sandbox):
    """Docker sandbox. See the module docstring for what is (not) visible inside."""

    name = "docker"

    @property
    def image(self) -> str:
        return self.options.image or default_image()

    # ----------------------------------------------------------------- configuration
    def mounts(self, staging: Path | None = None) -> list[Mount]:
        """The container's bind mounts (tmpfs mounts are in :meth:`host_config`)."""
        o = self.options
        mounts = [_bind(o.workspace, o.workdir, read_only=False)]
        mirror = venv_mirror()
        for root in _python_roots(hide_venv=mirror is not None):
            mounts.append(_bind(root, root, read_only=True))
        if mirror is not None:
            mounts.append(_bind(mirror, VENV_MOUNT, read_only=True))
        ro_binds = [(LAUNCHER_SCRIPT, LAUNCHER_MOUNT), *o.ro_binds]
        if o.gateway_socket is not None:
            ro_binds.append((INSIDE_SCRIPT, INSIDE_MOUNT))
        for n, (host_path, dest) in enumerate(ro_binds):
            own = host_path in (INSIDE_SCRIPT, LAUNCHER_SCRIPT)
            stage = staging is not None and (o.stage_ro_binds or own)
            source = stage_small(Path(host_path), staging, n) if stage and staging else host_path
            mounts.append(_bind(source, dest, read_only=True))
        for host_path, dest in o.rw_binds:
            mounts.append(_bind(host_path, dest, read_only=False))
        if o.gateway_socket is not None:
            mounts.append(_bind(o.gateway_socket.parent, GATEWAY_MOUNT, read_only=True))
        return mounts

    def host_config(self) -> dict[str, Any]:
        """Keyword arguments of the container's host config: isolation and limits."""
        o = self.options
        memory = o.memory_mb * 1024 * 1024
        tmp = f"rw,exec,nosuid,nodev,size={o.max_file_mb * 1024 * 1024},mode=1777"
        return {
            "network_mode": "none",
            "init": True,  # docker-init (tini) is pid 1: it reaps, and its exit ends the tree
            "read_only": True,
            "cap_drop": ["ALL"],
            "security_opt": ["no-new-privileges"],
            "mem_limit": memory,
            "memswap_limit": memory,
            "pids_limit": o.max_processes,
            "tmpfs": {"/tmp": tmp, "/tmp/home": "rw,exec,nosuid,nodev,mode=755"},
            "ipc_mode": "private",
        }

    def environment(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The complete environment of a command inside (nothing inherited from the host)."""
        return sandbox_environment(self.options.gateway_url, self.options.env, extra)

    def command(self, argv: Sequence[str]) -> list[str]:
        """``argv`` behind the launcher (rlimits) and, with a gateway, its forwarder."""
        o = self.options
        mb = 1024 * 1024
        args = [os.path.realpath(sys.executable), "-I", "-S", LAUNCHER_MOUNT]
        args += ["--as", str(o.memory_mb * mb), "--cpu", str(o.cpu_seconds)]
        args += ["--fsize", str(o.max_file_mb * mb)]
        if not o.limit_address_space:
            args.append("--data")
        if o.gateway_socket is not None:
            sock = f"{GATEWAY_MOUNT}/{o.gateway_socket.name}"
            args += ["--forwarder", INSIDE_MOUNT, "--socket", sock]
            args += ["--port", str(o.gateway_port)]
        return [*args, "--", *argv]

    # ----------------------------------------------------------------- processes
    def _check(self) -> None:
        o = self.options
        if not o.workspace.is_dir():
            raise SandboxError(f"workspace {o.workspace} is not a directory")
        if o.gateway_socket is not None and not o.gateway_socket.exists():
            raise SandboxError(f"gateway socket {o.gateway_socket} does not exist")
        for host_path, _ in o.ro_binds:
            if not Path(host_path).exists():
                raise SandboxError(f"read-only bind source {host_path} does not exist")
        for host_path, _ in o.rw_binds:
            if not Path(host_path).is_dir():
                raise SandboxError(f"read-write bind source {host_path} is not a directory")

    def _start(
        self,
        argv: Sequence[str],
        cwd: str | None,
        env: Mapping[str, str] | None,
        *,
        stdin: bytes | None,
        stdout: io.RawIOBase | io.BufferedIOBase,
        stderr: io.RawIOBase | io.BufferedIOBase,
    ) -> DockerRun:
        """Create and start the command's container. dockerd 20.10 now and then fails a
        start in its own prestart hook under load ("error running hook #0 ... no such file
        or directory"); nothing of the command ran then, so the start is tried again."""
        for attempt in range(_START_ATTEMPTS):
            try:
                return self._start_once(argv, cwd, env, stdin=stdin, stdout=stdout, stderr=stderr)
            except SandboxError as exc:
                if attempt + 1 == _START_ATTEMPTS or not _TRANSIENT_START.search(str(exc)):
                    raise
                time.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    def _start_once(
        self,
        argv: Sequence[str],
        cwd: str | None,
        env: Mapping[str, str] | None,
        *,
        stdin: bytes | None,
        stdout: io.RawIOBase | io.BufferedIOBase,
        stderr: io.RawIOBase | io.BufferedIOBase,
    ) -> DockerRun:
        args = check_argv(argv, cwd)
        self._check()
        api = client()
        image = self.image
        staging = Path(tempfile.mkdtemp(prefix="realcli-sb-"))
        try:
            environment = self.environment(env)
            if any("\0" in k or "\0" in v for k, v in environment.items()):
                raise ValueError("sandbox environment values cannot contain NUL")
            host_config = api.api.create_host_config(
                mounts=self.mounts(staging), **self.host_config()
            )
            created = api.api.create_container(
                image,
                self.command(args),
                name=container_name(),
                labels=owner_labels(),
                hostname="sandbox",
                user="0:0",
                environment=environment,
                working_dir=cwd or self.options.workdir,
                stdin_open=stdin is not None,
                detach=False,  # attach stdout/stderr (and stdin once) before it starts
                entrypoint=[],
                host_config=host_config,
            )
        except docker.errors.ImageNotFound as exc:
            _cleanup(staging)
            raise SandboxError(
                f"docker image {image!r} is not on this host ({exc.explanation}); nothing is "
                "pulled here: build it (the task's environment.dockerfile, or "
                "`sandbox.docker.base_image`) first"
            ) from None
        except docker.errors.DockerException as exc:
            _cleanup(staging)
            raise SandboxError(f"cannot create the sandbox container: {exc}") from None
        except BaseException:
            _cleanup(staging)
            raise
        try:
            return DockerRun(
                api,
                created["Id"],
                self.options,
                stdin=stdin,
                stdout_sink=stdout,
                stderr_sink=stderr,
                staging=staging,
            )
        except docker.errors.DockerException as exc:
            with contextlib.suppress(docker.errors.DockerException):
                api.api.remove_container(created["Id"], force=True)
            _cleanup(staging)
            raise SandboxError(f"cannot start the sandbox container: {exc}") from None

    def exec(
        self,
        argv: Sequence[str],
        *,
        timeout_s: float,
        cwd: str | None = None,
        stdin: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> ExecResult:
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be positive, got {timeout_s}")
        started = time.monotonic()
        out, err = _Buffer(), _Buffer()
        data = None if stdin is None else stdin.encode("utf-8")
        run = self._start(argv, cwd, env, stdin=data, stdout=out, stderr=err)
        timed_out = False
        try:
            left = timeout_s - (time.monotonic() - started)
            if not run.exited(max(left, 0.0)):
                timed_out = True
                run.kill()
            run.output_done(5.0)
        except BaseException:
            run.kill()
            raise
        finally:
            run.finish()
        return ExecResult(
            returncode=run.returncode if run.returncode is not None else -9,
            stdout=out.text(),
            stderr=err.text(),
            duration_s=time.monotonic() - started,
            timed_out=timed_out,
            limit=run.limit,
        )

    def spawn(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> SandboxProcess:
        err_fd, err_path = tempfile.mkstemp(prefix="realcli-stderr-")
        read_fd, write_fd = os.pipe()
        reader = open(read_fd, encoding="utf-8", errors="replace", newline=None)  # noqa: SIM115
        writer = open(write_fd, "wb", buffering=0)  # noqa: SIM115
        errors = open(err_fd, "wb", buffering=0)  # noqa: SIM115
        try:
            run = self._start(argv, cwd, env, stdin=None, stdout=writer, stderr=errors)
        except BaseException:
            for f in (reader, writer, errors):
                f.close()
            os.unlink(err_path)
            raise
        return DockerProcess(run, reader, Path(err_path))


class _Buffer(io.RawIOBase):
    """An in-memory sink that ignores close() (its bytes are read afterwards)."""

    def __init__(self) -> None:
        self._chunks: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self._chunks.append(bytes(data))
        return len(data)

    def close(self) -> None:
        pass

    def text(self) -> str:
        return b"".join(self._chunks).decode("utf-8", errors="replace")


def _cleanup(staging: Path) -> None:
    shutil.rmtree(staging, ignore_errors=True)
