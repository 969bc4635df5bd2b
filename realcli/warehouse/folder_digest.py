"""The ingest digest of a run folder: what ``realcli ingest`` compares to skip a folder it
loaded before. Reads only; never follows a link or opens anything but a regular file."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Any

from realcli.ledger.layout import LEDGER, PROGRESS, SPEC, VERDICT
from realcli.util.bounded import MIB, describe_mode
from realcli.warehouse.judgement_files import hash_judgements

__all__ = ["RUN_FILES", "folder_digest"]

RUN_FILES = (SPEC, LEDGER, VERDICT, PROGRESS)
"""The files ingest reads; their bytes (or absence) make the folder's ingest digest."""


def folder_digest(run_dir: Path) -> str:
    """sha256 over the name and bytes of each of :data:`RUN_FILES` (absent files count too),
    then of each ``judgements/*.json`` (a run without ``judgements/`` adds nothing).

    Never follows a link (a link counts as its target string) and never opens anything but a
    regular file (a directory, FIFO... counts as its type), so a damaged folder still has a
    digest and never blocks; regular files are hashed in chunks, whatever their size.
    """
    h = hashlib.sha256()
    for name in RUN_FILES:
        path = run_dir / name
        h.update(name.encode() + b"\0")
        try:
            st = path.lstat()
        except FileNotFoundError:
            h.update(b"-")
        except OSError as exc:
            h.update(b"E" + str(exc.errno).encode())
        else:
            if stat.S_ISLNK(st.st_mode):
                h.update(b"L" + os.fsencode(os.readlink(path)))
            elif stat.S_ISREG(st.st_mode):
                h.update(b"F")
                _hash_file(h, path)
            else:
                h.update(b"S" + describe_mode(st.st_mode).encode())
        h.update(b"\0")
    hash_judgements(h, run_dir)
    return h.hexdigest()


def _hash_file(h: Any, path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        h.update(b"E" + str(exc.errno).encode())
        return
    try:
        while chunk := os.read(fd, MIB):
            h.update(chunk)
    except OSError as exc:
        h.update(b"E" + str(exc.errno).encode())
    finally:
        os.close(fd)
