"""A task bundle holds only what is inside it: no link that leaves it, no special file.

Checked before anything in the bundle is read (parsed, hashed, copied, mounted), so a link
from ``tests/`` to another task's tests, an ``instruction.md`` pointing at a host file, or a
FIFO that would block the digest is an error naming the file, never followed and never read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from realcli.util.errors import TaskError

__all__ = ["check_confined", "special_kind"]

_EXCLUDED = ("__pycache__", ".pytest_cache")
"""Folders the digest skips (bytecode caches); they are still checked."""


def special_kind(mode: int) -> str | None:
    """``'a FIFO'``, ``'a socket'``, ``'a device'``, or None for files, folders and links."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return None


def _link_escapes(link: Path, root: Path) -> str | None:
    """Where ``link`` leads when that is outside ``root`` (resolved, every hop), else None."""
    target = os.readlink(link)
    if os.path.isabs(target):
        return target
    resolved = Path(os.path.realpath(link))
    return None if resolved.is_relative_to(root) else target


def check_confined(root: Path) -> None:
    """Raise :class:`TaskError` naming the first link under ``root`` that leads outside it and
    the first FIFO, socket or device file. Links are never followed (a linked folder is not
    walked: its target is inside the bundle, so it is walked there)."""
    real_root = Path(os.path.realpath(root))
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            raise TaskError(
                str(folder), None, f"cannot be read ({exc.strerror})", "fix its permissions"
            ) from exc
        for entry in entries:
            path = Path(entry.path)
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                target = _link_escapes(path, real_root)
                if target is not None:
                    raise TaskError(
                        str(path),
                        None,
                        f"is a symlink to {target}, outside the bundle",
                        "replace the link by a copy of the file, or point it inside the bundle "
                        "with a relative path",
                    )
            elif stat.S_ISDIR(st.st_mode):
                stack.append(path)
            elif (kind := special_kind(st.st_mode)) is not None:
                raise TaskError(
                    str(path),
                    None,
                    f"is {kind}",
                    "remove it: a bundle holds only regular files, folders and links inside it",
                )
