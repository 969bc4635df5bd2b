"""Host paths the sandbox must not show: the venv that runs realcli (it lives in the repo), and
small read-only binds (a task's tests, its setup script, GUI apps: they live in the tasks dir).

A bind mount's line in ``/proc/self/mountinfo`` names the source's path on its filesystem (the
"root" field), whatever the mount point is called. So a path is hidden only by binding from
somewhere else:

- the venv is staged once per host as a *mirror* under ``~/.cache/realcli/sandbox-venv/<key>``:
  ``lib/`` hard links to the venv's files (no copy of the bytes), ``bin/`` with ``python``
  links to the base interpreter and console scripts whose shebang names the mirror's mount
  point, and a ``pyvenv.cfg`` without the ``command =`` line (it names the venv's path).
  Files that only name the source tree (editable-install finders and their ``.pth``,
  ``direct_url.json``) are left out. It is mounted at :data:`VENV_MOUNT`. The key covers
  the venv's path and its ``site-packages`` listing, so installing a package makes a new one;
- a small read-only bind (at most :data:`STAGE_MAX_FILES` entries and :data:`STAGE_MAX_BYTES`)
  is copied into a per-command temp folder (:func:`stage_small`), removed when the command ends.

A venv on another filesystem than the cache (no hard links) is mounted from its own path.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from realcli.util.safe_fs import copy_tree

__all__ = [
    "STAGE_MAX_BYTES",
    "STAGE_MAX_FILES",
    "SYSTEM_PATH",
    "VENV_MOUNT",
    "sandbox_environment",
    "sandbox_python",
    "stage_small",
    "venv_mirror",
]

VENV_MOUNT = "/run/realcli/venv"
STAGE_MAX_FILES = 2000
STAGE_MAX_BYTES = 64 * 1024 * 1024
_SKIP_NAMES = ("direct_url.json",)
_SKIP_PREFIXES = ("__editable__",)
_mirror: Path | None = None


def _in_venv() -> bool:
    return sys.prefix != sys.base_prefix


def sandbox_python() -> str:
    """The path of realcli's Python interpreter as commands inside the sandbox see it."""
    if _in_venv() and venv_mirror() is not None:
        return f"{VENV_MOUNT}/bin/python"
    return sys.executable


def _key(venv: Path) -> str:
    site = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    names = sorted(os.listdir(site / "site-packages")) if (site / "site-packages").is_dir() else []
    h = hashlib.sha256(str(venv.resolve()).encode())
    h.update("\0".join(names).encode())
    return h.hexdigest()[:20]


def _link_tree(src: Path, dest: Path) -> None:
    """``dest`` mirrors ``src`` with hard links (links stay links; source-tree pointers out)."""
    dest.mkdir()
    for entry in os.scandir(src):
        if entry.name in _SKIP_NAMES or entry.name.startswith(_SKIP_PREFIXES):
            continue
        target = dest / entry.name
        if entry.is_symlink():
            os.symlink(os.readlink(entry.path), target)
        elif entry.is_dir(follow_symlinks=False):
            _link_tree(Path(entry.path), target)
        elif entry.is_file(follow_symlinks=False):
            os.link(entry.path, target)


def _bin(venv: Path, dest: Path) -> None:
    """Interpreter links to the base Python, console scripts pointed at the mirror."""
    dest.mkdir()
    real = os.path.realpath(sys.executable)
    minor = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for name in ("python", "python3", minor):
        os.symlink(real, dest / name)
    shebang = f"#!{venv}/bin/python".encode()
    for entry in os.scandir(venv / "bin"):
        if entry.name.startswith("python") or not entry.is_file(follow_symlinks=False):
            continue
        with open(entry.path, "rb") as f:
            head = f.read(len(shebang) + 2)
            if not head.startswith(shebang):
                continue
            body = f.read()
        rest = head[len(shebang) :]
        script = dest / entry.name
        script.write_bytes(f"#!{VENV_MOUNT}/bin/python".encode() + rest + body)
        script.chmod(0o755)


def _pyvenv_cfg(venv: Path) -> str:
    lines = (venv / "pyvenv.cfg").read_text(encoding="utf-8").splitlines()
    return "".join(line + "\n" for line in lines if not line.strip().startswith("command"))


def venv_mirror() -> Path | None:
    """The host folder to mount at :data:`VENV_MOUNT` (built on first use), or None when
    realcli does not run in a venv or the mirror cannot be built (e.g. another filesystem)."""
    global _mirror
    if not _in_venv():
        return None
    venv = Path(sys.prefix)
    key = _key(venv)
    if _mirror is not None and _mirror.name == key:
        return _mirror
    base = Path.home() / ".cache" / "realcli" / "sandbox-venv"
    mirror = base / key
    if not (mirror / "pyvenv.cfg").is_file():
        base.mkdir(parents=True, exist_ok=True)
        build = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=base))
        try:
            for sub in ("lib", "include"):
                if (venv / sub).is_dir():
                    _link_tree(venv / sub, build / sub)
            if (venv / "lib64").is_symlink():
                os.symlink(os.readlink(venv / "lib64"), build / "lib64")
            _bin(venv, build / "bin")
            (build / "pyvenv.cfg").write_text(_pyvenv_cfg(venv), encoding="utf-8")
            build.chmod(0o755)
            try:
                build.rename(mirror)
            except OSError:  # another realcli built it meanwhile
                shutil.rmtree(build, ignore_errors=True)
        except OSError:
            shutil.rmtree(build, ignore_errors=True)
            return None
    _mirror = mirror
    return mirror


def _small(path: Path) -> bool:
    """At most :data:`STAGE_MAX_FILES` entries and :data:`STAGE_MAX_BYTES` (links not followed)."""
    files = size = 0
    for root, dirs, names in os.walk(path):
        files += len(dirs) + len(names)
        if files > STAGE_MAX_FILES:
            return False
        for name in names:
            with contextlib.suppress(OSError):
                size += os.lstat(os.path.join(root, name)).st_size
        if size > STAGE_MAX_BYTES:
            return False
    return True


def stage_small(host: Path, staging: Path, n: int) -> Path:
    """``host`` copied into ``staging`` when it is small (a file, or a folder within the
    limits), so its mount does not show ``host``'s path; else ``host`` itself."""
    try:
        if host.is_dir() and _small(host):
            dest = staging / f"{n}"
            copy_tree(host, dest)
            return dest
        if host.is_file() and host.stat().st_size <= STAGE_MAX_BYTES:
            (staging / f"{n}").mkdir()
            dest = staging / f"{n}" / host.name
            shutil.copy2(host, dest)
            return dest
    except OSError:
        pass
    return host


SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def sandbox_environment(
    gateway_url: str | None, env: Mapping[str, str], extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The complete environment of a command inside any sandbox (nothing inherited from the
    host): realcli's Python first on PATH, a private HOME, the gateway's URL when there is one,
    then the options' ``env`` and the command's ``extra``."""
    out = {
        "PATH": f"{Path(sandbox_python()).parent}:{SYSTEM_PATH}",
        "HOME": "/tmp/home",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "USER": "root",
    }
    if gateway_url is not None:
        out["REALCLI_GATEWAY_URL"] = gateway_url
    out.update(env)
    out.update(extra or {})
    return out
