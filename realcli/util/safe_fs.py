"""Read, copy and write agent-controlled trees without following a link out of their root.

An agent controls every entry under its workspace and its CLI's home: it can plant a
symlink to a host file (the hidden tests, the reference solution, the ledger,
``/proc/self/environ``), swap a file for a link between a check and an open, or leave a
FIFO that blocks a reader forever. Every host-side read, copy or write of such a tree goes
through this module:

- the root is trusted (realcli made it); every component below it is opened relative to
  its parent's directory fd with ``O_NOFOLLOW`` (``O_DIRECTORY`` for folders), so a link
  anywhere on the path fails the open instead of being followed, and a swap between a
  check and the open cannot redirect it (there is no separate check);
- a regular file is opened ``O_NONBLOCK`` and ``fstat``-ed after the open: a FIFO, socket
  or device never blocks the reader and is never read;
- :func:`copy_tree` copies symlinks *as* symlinks (never dereferenced) and skips special
  files (FIFOs, sockets, devices); every skipped entry is returned as a :class:`Skipped`
  so the caller can write a ledger warning.

Linux only (``O_NOFOLLOW``, ``O_DIRECTORY``, ``dir_fd``), like the sandbox.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

__all__ = [
    "NotARegularFile",
    "SkipKind",
    "Skipped",
    "copy_tree",
    "kind_of",
    "lstat_under",
    "read_bytes_under",
    "remove_links",
    "special_files",
    "write_bytes_under",
]

SkipKind = Literal["symlink", "fifo", "socket", "char_device", "block_device", "other", "too_large"]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Skipped:
    """An entry left out: its path relative to the root (POSIX) and what it is."""

    path: str
    kind: SkipKind

    def __str__(self) -> str:
        return f"{self.path} ({self.kind.replace('_', ' ')})"


class NotARegularFile(OSError):
    """The path (or a folder on the way) is a symlink, a special file or too large."""

    def __init__(self, path: str, kind: SkipKind) -> None:
        super().__init__(f"{path}: not read ({kind.replace('_', ' ')})")
        self.skipped = Skipped(path, kind)


def kind_of(mode: int) -> str:
    """What an ``lstat`` mode is, in :data:`SkipKind` words (``file``/``dir`` for the rest)."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "char_device"
    if stat.S_ISBLK(mode):
        return "block_device"
    return "other"


def _skip_kind(mode: int) -> SkipKind:
    """The :data:`SkipKind` of an entry that is not what was asked for."""
    kinds: dict[str, SkipKind] = {
        "symlink": "symlink",
        "fifo": "fifo",
        "socket": "socket",
        "char_device": "char_device",
        "block_device": "block_device",
    }
    return kinds.get(kind_of(mode), "other")


def _parts(rel: str | os.PathLike[str]) -> tuple[str, ...]:
    parts = PurePosixPath(os.fspath(rel)).parts
    if not parts or parts[0] == "/" or any(p in ("..", ".") for p in parts):
        raise ValueError(f"{os.fspath(rel)!r} is not a plain relative path")
    return parts


@contextlib.contextmanager
def _dir_fd(root: Path, parts: tuple[str, ...], *, create: bool = False) -> Iterator[int]:
    """An fd of ``root/<parts...>``; no component below ``root`` may be a link."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for i, part in enumerate(parts):
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:  # ELOOP / ENOTDIR: a link or a file on the way
                st = _lstat_or_none(part, fd)
                if st is not None and not stat.S_ISDIR(st.st_mode):
                    raise NotARegularFile("/".join(parts[: i + 1]), _skip_kind(st.st_mode)) from exc
                raise
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


def _lstat_or_none(name: str, dir_fd: int) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return None


def _open_file(name: str, dir_fd: int, shown: str) -> tuple[int, os.stat_result]:
    """An fd of the regular file ``name`` in ``dir_fd`` (never a link, FIFO or device)."""
    st = _lstat_or_none(name, dir_fd)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise NotARegularFile(shown, _skip_kind(st.st_mode))
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # swapped for a link after the lstat
            raise NotARegularFile(shown, "symlink") from exc
        raise
    after = os.fstat(fd)
    if not stat.S_ISREG(after.st_mode):  # swapped for a FIFO/socket after the lstat
        os.close(fd)
        raise NotARegularFile(shown, _skip_kind(after.st_mode))
    return fd, after


def _read_fd(fd: int, limit: int | None, shown: str) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if limit is not None and total > limit:
            raise NotARegularFile(shown, "too_large")
        chunks.append(chunk)


def read_bytes_under(
    root: Path, rel: str | os.PathLike[str], *, max_bytes: int | None = None
) -> bytes:
    """The bytes of the regular file ``root/rel``, following no link below ``root``.

    Raises:
        NotARegularFile: ``rel`` or a folder on the way is a symlink or a special file, or
            the file is larger than ``max_bytes``.
        FileNotFoundError: it does not exist.
        ValueError: ``rel`` is absolute or has ``..``.
    """
    parts = _parts(rel)
    shown = "/".join(parts)
    with _dir_fd(root, parts[:-1]) as parent:
        fd, st = _open_file(parts[-1], parent, shown)
    try:
        if max_bytes is not None and st.st_size > max_bytes:
            raise NotARegularFile(shown, "too_large")
        return _read_fd(fd, max_bytes, shown)
    finally:
        os.close(fd)


def lstat_under(root: Path, rel: str | os.PathLike[str]) -> os.stat_result | None:
    """``lstat`` of ``root/rel`` (the entry itself, a link is not followed), or None when it
    does not exist or a folder on the way is a link or not a folder."""
    try:
        parts = _parts(rel)
        with _dir_fd(root, parts[:-1]) as parent:
            return os.stat(parts[-1], dir_fd=parent, follow_symlinks=False)
    except (OSError, ValueError):
        return None


def write_bytes_under(root: Path, rel: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``root/rel`` (folders created), following no link below ``root``:
    the bytes go to a fresh file renamed into place, so an existing link at ``rel`` is
    replaced, never written through.

    Raises:
        NotARegularFile: a folder on the way is a symlink or not a folder.
        IsADirectoryError: ``rel`` is a folder.
        ValueError: ``rel`` is absolute or has ``..``.
    """
    parts = _parts(rel)
    with _dir_fd(root, parts[:-1], create=True) as parent:
        tmp = f".{parts[-1]}.realcli-{os.getpid()}-{os.urandom(4).hex()}"
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644,
            dir_fd=parent,
        )  # fmt: skip
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, parts[-1], src_dir_fd=parent, dst_dir_fd=parent)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=parent)
            raise


def _walk(fd: int, prefix: str) -> Iterator[tuple[int, str, str, os.stat_result]]:
    """``(dir fd, name, relative path, lstat)`` of every entry under ``fd``, depth first,
    descending only into real folders (opened ``O_NOFOLLOW`` relative to their parent)."""
    with os.scandir(fd) as it:
        names = sorted(e.name for e in it)
    for name in names:
        rel = f"{prefix}{name}"
        st = _lstat_or_none(name, fd)
        if st is None:
            continue  # vanished meanwhile
        yield fd, name, rel, st
        if stat.S_ISDIR(st.st_mode):
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError:
                continue  # swapped for a link (ELOOP) or removed: not descended
            try:
                yield from _walk(child, rel + "/")
            finally:
                os.close(child)


def special_files(root: Path) -> list[Skipped]:
    """Every FIFO, socket and device under ``root`` (links are not followed)."""
    out: list[Skipped] = []
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for _, _, rel, st in _walk(fd, ""):
            if kind_of(st.st_mode) not in ("file", "dir", "symlink"):
                out.append(Skipped(rel, _skip_kind(st.st_mode)))
    finally:
        os.close(fd)
    return out


def remove_links(root: Path) -> list[Skipped]:
    """Delete every symlink and special file under ``root`` (a tree the host is about to
    read or write with ordinary path calls, and nothing else runs on); what was removed."""
    out: list[Skipped] = []
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for parent, name, rel, st in _walk(fd, ""):
            if kind_of(st.st_mode) in ("file", "dir"):
                continue
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=parent)
            out.append(Skipped(rel, _skip_kind(st.st_mode)))
    finally:
        os.close(fd)
    return out


def copy_tree(
    src: Path, dest: Path, *, symlinks: Literal["copy", "skip"] = "copy"
) -> list[Skipped]:
    """Copy the tree ``src`` to the new folder ``dest``: regular files (bytes, mode bits and
    mtime) and folders; symlinks as symlinks with the same target, never followed
    (``symlinks="skip"`` leaves them out); FIFOs, sockets and devices left out. The entries
    left out, in walk order."""
    skipped: list[Skipped] = []
    dest.mkdir()
    fd = os.open(src, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    dirs: list[tuple[Path, os.stat_result]] = []
    try:
        for parent, name, rel, st in _walk(fd, ""):
            target = dest / rel
            kind = kind_of(st.st_mode)
            if kind == "dir":
                target.mkdir()
                dirs.append((target, st))
            elif kind == "file":
                _copy_file(parent, name, rel, target, skipped)
            elif kind == "symlink" and symlinks == "copy":
                try:
                    os.symlink(os.readlink(name, dir_fd=parent), target)
                except OSError:
                    continue  # removed meanwhile
            else:
                skipped.append(Skipped(rel, _skip_kind(st.st_mode)))
    finally:
        os.close(fd)
    for folder, st in reversed(dirs):  # after their contents: mtimes and read-only modes stick
        os.chmod(folder, stat.S_IMODE(st.st_mode) | stat.S_IRWXU)
        os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns))
    return skipped


def _copy_file(parent: int, name: str, rel: str, target: Path, skipped: list[Skipped]) -> None:
    try:
        fd, st = _open_file(name, parent, rel)
    except NotARegularFile as exc:  # swapped for a link or a FIFO after the walk saw it
        skipped.append(exc.skipped)
        return
    except FileNotFoundError:
        return
    try:
        out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(out, "wb") as writer, os.fdopen(os.dup(fd), "rb") as reader:
            shutil.copyfileobj(reader, writer, _CHUNK)
            writer.flush()
            os.fchmod(out, stat.S_IMODE(st.st_mode) & 0o777)
            os.utime(out, ns=(st.st_atime_ns, st.st_mtime_ns))
    finally:
        os.close(fd)
