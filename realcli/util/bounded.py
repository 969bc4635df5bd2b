"""Bounded reads of the files realcli wrote earlier (run folders, ledgers, verdicts).

A file read back may have been damaged (a killed process, a full disk, a hand edit) or replaced
by something that is not a file. These helpers never follow a symbolic link, never open a FIFO,
socket or device (opening a FIFO would block), never read more than a cap, and parse JSON with
a nesting cap (pydantic-core's Rust parser stops at 200 levels with a ``ValueError``; deeper
documents get :func:`json.loads`, whose ``RecursionError`` at about 1,000 levels is caught
here, not left to escape) and with every integer
inside the signed 64-bit range the warehouse stores (a larger one is named by its field path).
Every failure is a :class:`BadFile` whose message is one line.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

import pydantic_core

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "MIB",
    "BadFile",
    "check_ints",
    "describe_mode",
    "load_json",
    "read_bounded",
    "read_json_file",
]

MIB = 1024 * 1024
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


class BadFile(ValueError):
    """A file that can't be used as it is; ``str()`` is one line saying what is wrong.

    ``field``: the dotted path of the offending value, when one is to blame (``problem`` is
    then the message without it)."""

    def __init__(self, problem: str, field: str | None = None) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)


def describe_mode(mode: int) -> str:
    """'a directory', 'a FIFO', ... for an ``st_mode`` that is not a regular file."""
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_bounded(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path``, without following a link at its last component.

    Raises :class:`FileNotFoundError` when it is absent and :class:`BadFile` when it is a link,
    a directory or another special file, larger than ``max_bytes``, or unreadable.
    """
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise BadFile("is a symbolic link (not followed)") from exc
        if exc.errno == errno.ENXIO:  # a FIFO without writer or a socket, opened non-blocking
            raise BadFile(f"is {_mode_of(path)}, not a regular file") from exc
        raise BadFile(f"cannot be read ({exc.strerror})") from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadFile(f"is {describe_mode(st.st_mode)}, not a regular file")
        if st.st_size > max_bytes:
            raise BadFile(f"is {st.st_size} bytes, more than the {_size(max_bytes)} cap")
        chunks: list[bytes] = []
        total = 0
        while True:
            try:
                chunk = os.read(fd, min(MIB, max_bytes + 1 - total))
            except OSError as exc:
                raise BadFile(f"cannot be read ({exc.strerror})") from exc
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:  # grew while being read
                raise BadFile(f"is more than the {_size(max_bytes)} cap")
        return b"".join(chunks)
    finally:
        os.close(fd)


def load_json(data: bytes | str, *, ints: bool = True) -> Any:
    """Parse JSON with a nesting cap and (``ints``) int64-bounded integers; :class:`BadFile`
    otherwise.

    pydantic-core parses first (fast, 200 levels); a document deeper than that is parsed again by
    :func:`json.loads`, whose C scanner guards its own recursion (``RecursionError`` at about
    1,000 levels, caught here), so what the standard parser accepted stays readable.
    """
    try:
        value = pydantic_core.from_json(data)
    except ValueError as exc:
        if "recursion limit exceeded" not in str(exc):
            raise BadFile(f"not valid JSON ({_first_line(exc)})") from exc
        try:
            value = json.loads(data)
        except RecursionError:
            raise BadFile(f"not valid JSON ({_first_line(exc)})") from exc
        except ValueError as again:
            raise BadFile(f"not valid JSON ({_first_line(again)})") from again
    if ints:
        check_ints(value)
    return value


def check_ints(value: Any) -> None:
    """Raise :class:`BadFile` naming the first integer outside int64 (by its field path)."""
    if _ints_ok(value):
        return
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((f"{where}.{i}" if where else str(i), v) for i, v in enumerate(item))
        elif isinstance(item, int) and not INT64_MIN <= item <= INT64_MAX:
            raise BadFile(
                f"integer of {item.bit_length()} bits is outside the signed 64-bit range",
                where or None,
            )


def _ints_ok(value: Any) -> bool:
    """True when no integer in ``value`` leaves int64: the fast scan (no field paths are
    built); :func:`check_ints` walks again to name the culprit only when this is False."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int) and not INT64_MIN <= item <= INT64_MAX:
            return False
    return True


def read_json_file(path: Path, max_bytes: int) -> Any:
    """:func:`read_bounded` then :func:`load_json`."""
    return load_json(read_bounded(path, max_bytes))


def _mode_of(path: Path) -> str:
    try:
        return describe_mode(path.lstat().st_mode)
    except OSError:
        return "not a regular file"


def _size(n: int) -> str:
    return f"{n // MIB} MiB" if n >= MIB else f"{n} bytes"


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
