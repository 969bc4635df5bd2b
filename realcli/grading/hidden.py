"""Keep hidden files hidden in what the agent is told: scrub their text out of messages.

Feedback after a round (``protocol=self_correct``) carries, for each failing test, the
assertion message that the guard extracted. That message is built by code the agent wrote (an
exception's text, a value's ``repr``), so it could carry the hidden tests or the reference
solution out. :class:`HiddenText` indexes those files and replaces every stretch of a message
that also occurs in them (``WINDOW`` characters or more, whitespace-insensitive) with ``[…]``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["WINDOW", "HiddenText"]

WINDOW = 20
"""The shortest run of characters (whitespace collapsed) that counts as a copy."""
_MAX_FILE_BYTES = 2 * 1024 * 1024
_MAX_TOTAL_BYTES = 32 * 1024 * 1024
_MARK = "[…]"


def _normalize(text: str) -> str:
    return " ".join(text.split())


class HiddenText:
    """An index of the hidden files' text (every ``WINDOW``-character window's hash)."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._windows: set[int] = set()
        for text in texts:
            flat = _normalize(text)
            self._windows.update(
                hash(flat[i : i + WINDOW]) for i in range(max(0, len(flat) - WINDOW + 1))
            )

    def extended(self, texts: Iterable[str]) -> HiddenText:
        """A copy that also hides ``texts`` (e.g. the canary tests planted in one round)."""
        more = HiddenText(texts)
        more._windows |= self._windows
        return more

    @classmethod
    def from_dirs(cls, *roots: Path) -> HiddenText:
        """Every regular text file under ``roots`` (links are not followed)."""
        texts: list[str] = []
        total = 0
        for root in roots:
            if not root.is_dir():
                continue
            for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
                dirnames.sort()
                for name in sorted(filenames):
                    path = Path(dirpath) / name
                    try:
                        if path.is_symlink() or not path.is_file():
                            continue
                        size = path.stat().st_size
                        if size > _MAX_FILE_BYTES or total + size > _MAX_TOTAL_BYTES:
                            continue
                        data = path.read_bytes()
                    except OSError:
                        continue
                    if b"\0" in data[:4096]:
                        continue  # binary
                    total += size
                    texts.append(data.decode("utf-8", errors="replace"))
        return cls(texts)

    def scrub_lines(self, text: str) -> str:
        """:meth:`scrub` line by line (the line breaks of an output kept)."""
        return "\n".join(self.scrub(line) for line in text.splitlines())

    def scrub(self, message: str) -> str:
        """``message`` with whitespace collapsed and every copied stretch replaced by ``[…]``."""
        flat = _normalize(message)
        if len(flat) < WINDOW or not self._windows:
            return flat
        covered = [False] * len(flat)
        for i in range(len(flat) - WINDOW + 1):
            if hash(flat[i : i + WINDOW]) in self._windows:
                for j in range(i, i + WINDOW):
                    covered[j] = True
        out: list[str] = []
        i = 0
        while i < len(flat):
            if covered[i]:
                while i < len(flat) and covered[i]:
                    i += 1
                out.append(_MARK)
            else:
                out.append(flat[i])
                i += 1
        return "".join(out)
