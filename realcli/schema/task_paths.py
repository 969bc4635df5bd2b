"""The path rules of a task bundle: relative paths that stay inside their folder, test
selectors, the workdir root and where a test set may be mounted."""

from __future__ import annotations

import posixpath
import re

from pydantic_core import PydanticCustomError

__all__ = ["WORKDIR_ROOT", "bundle_relative", "checked_selector", "path_error", "tests_mount_point"]

WORKDIR_ROOT = "/app"
"""Every task's workdir is this folder or one below it: the sandbox mounts realcli's own
files elsewhere (/run/realcli, /tmp, /usr...), and a workdir there would shadow them."""


def path_error(problem: str, fix: str) -> PydanticCustomError:
    """A validation error whose ``fix`` the one-line message uses (see util.validation)."""
    return PydanticCustomError("bundle_path", "{problem}", {"problem": problem, "fix": fix})


def bundle_relative(value: str, what: str, fix: str) -> str:
    """``value`` as a plain relative path that stays inside the folder it is relative to: not
    empty, not absolute, no ``..`` part, no ``.``/empty part, no backslash or NUL."""
    parts = value.split("/")
    if not value or value.startswith("/"):
        raise path_error(f"{what} {value!r} must be a relative path", fix)
    if "\\" in value or "\0" in value or any(p in ("", ".", "..") for p in parts):
        raise path_error(f"{what} {value!r} must stay inside (no '..', '.', '//')", fix)
    return value


def checked_selector(value: str, what: str) -> str:
    """A pytest selector (``f2p/test_x.py::test_y``) whose file part stays inside tests/."""
    file_part = value.split("::", 1)[0]
    bundle_relative(file_part, what, "use a path under tests/f2p/, e.g. 'f2p/test_x.py::test_y'")
    return value


_RESERVED_MOUNTS = ("/run/realcli", "/proc", "/dev", "/sys", "/usr", "/bin", "/lib", "/etc", "/tmp")


def tests_mount_point(value: str) -> str:
    """A test set's ``tests_mount``: a normalised absolute folder of its own (not a system
    folder, not in the workspace)."""
    fix = "use a folder of its own such as '/tests'"
    if not re.fullmatch(r"/[A-Za-z0-9_./-]+", value) or posixpath.normpath(value) != value:
        raise path_error(f"tests_mount {value!r} is not a normalised absolute path", fix)
    if value == "/" or any(value == r or value.startswith(r + "/") for r in _RESERVED_MOUNTS):
        raise path_error(f"tests_mount {value!r} would shadow a system folder", fix)
    if value == WORKDIR_ROOT or value.startswith(WORKDIR_ROOT + "/"):
        raise path_error(f"tests_mount {value!r} is inside {WORKDIR_ROOT}, the workspace", fix)
    return value
