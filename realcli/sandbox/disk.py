"""A hard cap on a run's workspace: the workspace lives on its own fixed-size filesystem.

:meth:`CappedWorkspace.mount` makes a sparse image file of ``disk_mb`` (ext4 without a
journal, ``mkfs.ext4``), loop-mounts it (``nosuid,nodev``) on the workspace directory, and
removes ext4's ``lost+found`` so the agent sees an ordinary directory. Every write beyond the
cap fails with ``ENOSPC`` in the kernel, whoever makes it; :func:`disk_limit_hit` tells the
sandbox's watcher that the cap was reached so the run is stopped. :meth:`CappedWorkspace.release`
copies the contents back to a plain directory at the same path (``cp -a``: links, modes and
special files as they are), unmounts and deletes the image, so graders, regrade and ingest
see a normal folder. A run killed mid-way leaves a mount; :func:`unmount_stale` (called
before an interrupted run folder is removed) detaches it.

Where loop mounts are impossible (not root, no ``mkfs.ext4``), :class:`DiskCapUnavailable`
says why in one line; the documented fallback is a watcher that sums the workspace's blocks
every :data:`WALK_EVERY_S` seconds and stops the run past the cap (a soft limit).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CappedWorkspace",
    "DiskCapUnavailable",
    "disk_limit_hit",
    "image_path",
    "unmount_stale",
    "workspace_bytes",
]

MB = 1024 * 1024
WALK_EVERY_S = 2.0
"""How often the fallback watcher sums a workspace that has no filesystem of its own."""
_TOOL_TIMEOUT_S = 60.0


class DiskCapUnavailable(RuntimeError):
    """The workspace cannot get a filesystem of its own here (the message says why)."""


def image_path(workspace: Path) -> Path:
    """Where the image of ``workspace`` lives: a hidden sibling file."""
    return workspace.with_name(f".{workspace.name}.img")


def _run(argv: list[str]) -> None:
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=_TOOL_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DiskCapUnavailable(f"{argv[0]}: {exc}") from None
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise DiskCapUnavailable(f"{' '.join(argv[:2])} failed: {detail[-1] if detail else ''}")


@dataclass
class CappedWorkspace:
    """A workspace directory mounted on its own ``size_mb`` filesystem."""

    path: Path
    size_mb: int
    mounted: bool = True

    @classmethod
    def mount(cls, path: Path, size_mb: int) -> CappedWorkspace:
        """Create ``path`` (it must not exist) as the mount point of a fresh filesystem.

        Raises:
            DiskCapUnavailable: the image cannot be made or mounted (not root, no loop
                devices, no ``mkfs.ext4``); nothing is left behind.
        """
        if os.geteuid() != 0:
            raise DiskCapUnavailable("loop-mounting a workspace needs root")
        mkfs = shutil.which("mkfs.ext4") or "/usr/sbin/mkfs.ext4"
        if not Path(mkfs).exists():
            raise DiskCapUnavailable("mkfs.ext4 not found (apt-get install e2fsprogs)")
        image = image_path(path)
        path.mkdir()
        try:
            with image.open("wb") as f:
                f.truncate(size_mb * MB)  # sparse: only what is written takes disk space
            _run(
                [
                    mkfs,
                    "-q",
                    "-F",
                    "-m",
                    "0",  # no blocks reserved for root: the agent is root inside
                    "-O",
                    "^has_journal",
                    "-i",
                    "8192",  # one inode per 8 KiB: small files (node_modules) fit
                    "-E",
                    "lazy_itable_init=1,nodiscard",
                    str(image),
                ]
            )
            _run(["mount", "-t", "ext4", "-o", "loop,nosuid,nodev", str(image), str(path)])
        except BaseException:
            image.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                path.rmdir()
            raise
        with contextlib.suppress(OSError):
            (path / "lost+found").rmdir()
        return cls(path, size_mb)

    def release(self) -> None:
        """Copy the contents to a plain directory at :attr:`path`, unmount, delete the image.
        Idempotent. A copy that fails (the host disk full) leaves the mount in place and
        raises :class:`DiskCapUnavailable`."""
        if not self.mounted:
            return
        plain = self.path.with_name(f".{self.path.name}.plain")
        if plain.exists():
            shutil.rmtree(plain)
        plain.mkdir()
        try:
            _run(["cp", "-a", "--", f"{self.path}/.", str(plain)])
        except DiskCapUnavailable:
            shutil.rmtree(plain, ignore_errors=True)
            raise
        shutil.copystat(self.path, plain)
        _run(["umount", str(self.path)])
        self.mounted = False
        self.path.rmdir()
        plain.rename(self.path)
        image_path(self.path).unlink(missing_ok=True)


def unmount_stale(workspace: Path) -> None:
    """Detach a capped workspace a killed run left mounted, and delete its image."""
    if os.path.ismount(workspace):
        subprocess.run(["umount", "-l", str(workspace)], capture_output=True, check=False)
    image_path(workspace).unlink(missing_ok=True)


def workspace_bytes(root: Path) -> int:
    """Disk blocks used under ``root`` (links not followed), in bytes."""
    total = 0
    stack = [str(root)]
    while stack:
        with contextlib.suppress(OSError), os.scandir(stack.pop()) as it:
            for entry in it:
                with contextlib.suppress(OSError):
                    st = entry.stat(follow_symlinks=False)
                    total += st.st_blocks * 512
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
    return total


def disk_limit_hit(workspace: Path, disk_mb: int, *, walk: bool) -> str | None:
    """One line when ``workspace`` has reached its cap, else None.

    A workspace on its own filesystem is full when no block (or no inode) is left; one
    without (``walk=True``, the fallback) when its blocks reach ``disk_mb``.
    """
    # the run folder's ``workspace`` is realcli's own link to the staged folder (the mount
    # point); ``ismount`` does not follow links, so resolve it first
    workspace = Path(os.path.realpath(workspace))
    if os.path.ismount(workspace):
        try:
            st = os.statvfs(workspace)
        except OSError:
            return None
        if st.f_bavail * st.f_frsize < MB or st.f_favail == 0:
            return f"disk limit reached: disk_mb={disk_mb} (the workspace's filesystem is full)"
        return None
    if walk and workspace_bytes(workspace) >= disk_mb * MB:
        return f"disk limit reached: disk_mb={disk_mb} (the workspace holds {disk_mb} MB)"
    return None
