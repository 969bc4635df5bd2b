"""Content hashes: canonical JSON digests and directory tree digests."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

__all__ = ["canonical_json", "sha256_bytes", "sha256_json", "sha256_tree"]


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_json(obj: Any) -> str:
    return sha256_bytes(canonical_json(obj).encode())


def sha256_tree(root: Path, *, exclude: tuple[str, ...] = ("__pycache__", ".pytest_cache")) -> str:
    """Digest of every file's relative path, mode bit x and content under ``root`` (sorted).

    A symlink (to a file or a folder) counts as a link: its target string is hashed, it is
    never followed. A FIFO, socket or device raises :class:`ValueError` naming it (its content
    is never read, so hashing never blocks)."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        dirnames[:] = sorted(d for d in dirnames if d not in exclude and d not in links)
        for name in sorted([*filenames, *links]):
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            h.update(rel.encode() + b"\0")
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                h.update(b"L" + os.readlink(path).encode())
            elif stat.S_ISREG(st.st_mode):
                h.update(b"X" if os.access(path, os.X_OK) else b"F")
                h.update(path.read_bytes())
            else:
                raise ValueError(f"{path} is not a regular file, folder or link")
            h.update(b"\0")
    return h.hexdigest()
