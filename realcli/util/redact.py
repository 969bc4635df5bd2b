"""Secret redaction: API keys never appear in any file realcli writes.

A :class:`Redactor` knows the secret values present in the environment (any variable whose
name looks like a credential) plus well-known key shapes, and replaces them with a marker.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["REDACTED", "Redactor", "is_secret_name", "scrub_env"]

REDACTED = "[REDACTED]"
_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)", re.IGNORECASE)
_KEY_SHAPES = re.compile(
    r"(sk-ant-[A-Za-z0-9_-]{16,}|sk-(?:proj-)?[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}"
    r"|ghp_[A-Za-z0-9]{30,}|xox[abp]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,})"
)
_MIN_SECRET_LEN = 8


def is_secret_name(name: str) -> bool:
    return bool(_SECRET_NAME.search(name))


def scrub_env(env: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``env`` without credential-looking variables (for processes we start)."""
    return {k: v for k, v in env.items() if not is_secret_name(k)}


class Redactor:
    def __init__(self, env: Mapping[str, str] | None = None, extra: tuple[str, ...] = ()) -> None:
        source = os.environ if env is None else env
        values = {v for k, v in source.items() if is_secret_name(k) and len(v) >= _MIN_SECRET_LEN}
        values.update(s for s in extra if len(s) >= _MIN_SECRET_LEN)
        self._values = sorted(values, key=len, reverse=True)

    def add(self, secret: str) -> None:
        """Mask ``secret`` too from now on (e.g. an API key read from a file)."""
        if len(secret) >= _MIN_SECRET_LEN and secret not in self._values:
            # a new list, swapped in whole: threads redacting meanwhile see the old or new one
            self._values = sorted([*self._values, secret], key=len, reverse=True)

    def text(self, s: str) -> str:
        for v in self._values:
            if v in s:
                s = s.replace(v, REDACTED)
        return _KEY_SHAPES.sub(REDACTED, s)

    def obj(self, o: Any) -> Any:
        """Redact every string inside a JSON-like structure."""
        if isinstance(o, str):
            return self.text(o)
        if isinstance(o, dict):
            return {self.text(str(k)): self.obj(v) for k, v in o.items()}
        if isinstance(o, list | tuple):
            return [self.obj(v) for v in o]
        return o
