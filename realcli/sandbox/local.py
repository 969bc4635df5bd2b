"""LocalSandbox: bubblewrap isolation on the host (the embedded default backend).

What the sandbox sees: ``/usr`` (read-only, with ``/bin``, ``/lib``... as on the host), a
curated read-only ``/etc`` (no ``shadow``, no ``ssl/private``), the Python installation that
runs realcli (``sys.base_prefix`` and the venv ``sys.prefix``, read-only, at their own paths,
so ``python``/``pytest`` work; only those folders, not their parents' contents), the workspace
read-write at the workdir, a private ``/tmp`` (``HOME=/tmp/home``), ``/dev`` and ``/proc`` of
its own pid namespace, and nothing else: no ``/root``, ``/work``, ``/home``, run folders.
The root itself is remounted read-only; only the workspace, ``/tmp`` and ``/dev`` are writable.
All namespaces are unshared, so only ``lo`` exists; the model gateway is reached through
its Unix socket (see ``inside.py``). bwrap's own options (host paths) are passed through a
memfd with ``--args``, so they do not show in ``/proc/1/cmdline`` inside.
Process lifetime (killing everything inside) is in :mod:`realcli.sandbox.local_process`.
Each command's whole tree runs in a fresh cgroup bounding its processes and memory together
(:mod:`realcli.sandbox.cgroup`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from realcli.sandbox.base import (
    GATEWAY_MOUNT,
    SANDBOXES,
    ExecResult,
    Sandbox,
    SandboxError,
    SandboxProcess,
    check_argv,
)
from realcli.sandbox.cgroup import CgroupUnavailable, RunCgroup
from realcli.sandbox.local_process import BwrapProcess, BwrapRun, rlimits
from realcli.sandbox.neutral import (
    VENV_MOUNT,
    sandbox_environment,
    stage_small,
    venv_mirror,
)

__all__ = ["ETC_ALLOWLIST", "LocalSandbox"]

INSIDE_SCRIPT = Path(__file__).with_name("inside.py")
INSIDE_MOUNT = "/run/realcli/inside.py"
INSIDE_PYTHON = "/usr/bin/python3"
SYSTEM_DIRS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
ETC_ALLOWLIST = (
    "passwd",
    "group",
    "hosts",
    "nsswitch.conf",
    "host.conf",
    "protocols",
    "services",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "ssl/certs",
    "ssl/openssl.cnf",
    "ca-certificates",
    "ca-certificates.conf",
    "alternatives",
    "localtime",
    "timezone",
    "mime.types",
    "python3",
    f"python3.{sys.version_info.minor}",
)
"""Files under /etc the sandbox may read. Never the whole /etc: it holds shadow, ssh keys..."""


def _bwrap() -> str:
    path = shutil.which("bwrap") or ("/usr/bin/bwrap" if Path("/usr/bin/bwrap").exists() else None)
    if path is None:
        raise SandboxError("bubblewrap (bwrap) is not installed; apt-get install bubblewrap")
    return path


def _python_roots(*, hide_venv: bool = False) -> list[str]:
    roots: list[str] = []
    prefixes = (sys.base_prefix,) if hide_venv else (sys.base_prefix, sys.prefix)
    for prefix in prefixes:
        real = os.path.realpath(prefix)
        for p in dict.fromkeys((prefix, real)):
            if p not in roots and not p.startswith("/usr/") and p != "/usr":
                roots.append(p)
    return roots


@SANDBOXES.register("local")
class LocalSandbox(Sandbox):
    """bubblewrap sandbox. See the module docstring for what is (not) visible inside."""

    name = "local"

    # ----------------------------------------------------------------- command line
    def bwrap_options(
        self,
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        staging: Path | None = None,
    ) -> list[str]:
        """The bwrap options (without the command) for one command in this sandbox.
        ``staging``: an empty host folder that outlives the command, where small read-only
        binds are copied so their mounts do not show their host paths (:mod:`.neutral`)."""
        o = self.options
        args = ["--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]
        args += ["--cap-drop", "ALL"]  # root inside owns its files but holds no capability
        tmp_bytes = str(o.max_file_mb * 1024 * 1024)  # /tmp is RAM: cap it like a file
        args += ["--hostname", "sandbox", "--size", tmp_bytes, "--tmpfs", "/tmp"]
        args += ["--dir", "/tmp/home"]
        args += ["--dev", "/dev", "--proc", "/proc", "--ro-bind", "/usr", "/usr"]
        for name in SYSTEM_DIRS:
            host = Path("/") / name
            if host.is_symlink():
                args += ["--symlink", os.readlink(host), f"/{name}"]
            elif host.is_dir():
                args += ["--ro-bind", str(host), f"/{name}"]
        for rel in ETC_ALLOWLIST:
            host = Path("/etc") / rel
            if host.exists():
                args += ["--ro-bind", str(host), str(host)]
        mirror = venv_mirror()
        for root in _python_roots(hide_venv=mirror is not None):
            args += ["--ro-bind", root, root]
        if mirror is not None:
            args += ["--ro-bind", str(mirror), VENV_MOUNT]
        args += ["--bind", str(o.workspace), o.workdir]
        ro_binds = [*o.ro_binds]
        if o.gateway_socket is not None:
            ro_binds.append((INSIDE_SCRIPT, INSIDE_MOUNT))
        for n, (host_path, dest) in enumerate(ro_binds):
            stage = staging is not None and (o.stage_ro_binds or host_path == INSIDE_SCRIPT)
            source = stage_small(Path(host_path), staging, n) if stage and staging else host_path
            args += ["--ro-bind", str(source), dest]
        for host_path, dest in o.rw_binds:
            args += ["--bind", str(host_path), dest]
        if o.gateway_socket is not None:
            args += ["--ro-bind", str(o.gateway_socket.parent), GATEWAY_MOUNT]
        args += ["--remount-ro", "/"]  # the root itself (/etc, /run, ...) is read-only too
        args += ["--chdir", cwd or o.workdir]
        for key, value in self.environment(env).items():
            args += ["--setenv", key, value]
        return args

    def environment(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The complete environment of a command inside (nothing inherited from the host)."""
        return sandbox_environment(self.options.gateway_url, self.options.env, extra)

    def command_path(self) -> str | None:
        return self.environment()["PATH"]  # realcli's Python first: the task's interpreter

    def command(self, argv: Sequence[str]) -> list[str]:
        """``argv`` wrapped by the gateway launcher when a gateway socket is configured."""
        o = self.options
        if o.gateway_socket is None:
            return list(argv)
        sock = f"{GATEWAY_MOUNT}/{o.gateway_socket.name}"
        return [
            INSIDE_PYTHON,
            "-I",
            "-S",
            INSIDE_MOUNT,
            "--socket",
            sock,
            "--port",
            str(o.gateway_port),
            "--",
            *argv,
        ]

    # ----------------------------------------------------------------- processes
    def _cgroup(self) -> RunCgroup | None:
        """A fresh cgroup with this sandbox's limits; None when unavailable and not enforced."""
        o = self.options
        try:
            return RunCgroup.create(
                max_processes=o.max_processes, memory_bytes=o.memory_mb * 1024 * 1024
            )
        except CgroupUnavailable as exc:
            if not o.enforce_limits:
                return None
            raise SandboxError(
                f"cannot limit the sandbox's processes and memory ({exc}); run as root on a "
                "host with cgroup v1 pids+memory or a delegated cgroup v2, or set "
                "sandbox.enforce_limits=false for per-process rlimits only"
            ) from None

    def _start(
        self,
        argv: Sequence[str],
        cwd: str | None,
        env: Mapping[str, str] | None,
        *,
        stdin: int,
        stderr: int,
    ) -> BwrapRun:
        args = check_argv(argv, cwd)
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
        cgroup = self._cgroup()
        staging = Path(tempfile.mkdtemp(prefix="realcli-sb-"))
        args_fd = os.memfd_create("realcli-bwrap-args")
        info_r, info_w = os.pipe()
        os.set_blocking(info_r, False)
        try:
            options = [
                "--info-fd",
                str(info_w),
                *self.bwrap_options(cwd=cwd, env=env, staging=staging),
            ]
            if any("\0" in opt for opt in options):
                raise ValueError("sandbox paths and environment values cannot contain NUL")
            os.write(args_fd, b"".join(a.encode() + b"\0" for a in options))
            os.lseek(args_fd, 0, os.SEEK_SET)
            popen = subprocess.Popen(
                [_bwrap(), "--args", str(args_fd), "--", *self.command(args)],
                stdin=stdin,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                env={"PATH": "/usr/bin:/bin"},  # bwrap itself gets no host secrets either
                pass_fds=(args_fd, info_w),
                start_new_session=True,
                preexec_fn=rlimits(o, cgroup),  # setrlimit + cgroup join: no locks taken
            )
        except (OSError, subprocess.SubprocessError) as exc:
            os.close(info_r)
            shutil.rmtree(staging, ignore_errors=True)
            if cgroup is not None:
                cgroup.remove()
            raise SandboxError(f"cannot start bubblewrap: {exc}") from exc
        except BaseException:
            os.close(info_r)
            shutil.rmtree(staging, ignore_errors=True)
            if cgroup is not None:
                cgroup.remove()
            raise
        finally:
            os.close(args_fd)
            os.close(info_w)
        return BwrapRun(popen, info_r, staging, cgroup)

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
        run = self._start(
            argv,
            cwd,
            env,
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        timed_out = False
        try:
            out, err = run.popen.communicate(input=stdin, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            run.kill()
            out, err = run.popen.communicate()
        except BaseException:
            run.kill()
            raise
        finally:
            run.finish()
        return ExecResult(
            returncode=run.popen.returncode,
            stdout=out or "",
            stderr=err or "",
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
        try:
            run = self._start(argv, cwd, env, stdin=subprocess.DEVNULL, stderr=err_fd)
        except BaseException:
            os.unlink(err_path)
            raise
        finally:
            os.close(err_fd)
        return BwrapProcess(run, Path(err_path), self.options)
