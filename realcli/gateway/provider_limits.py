"""Per-provider concurrency limits: at most ``model.upstream.max_concurrent`` requests to one
provider at once, across every thread, process and (on a shared folder) machine.

A file-based counting semaphore: the provider (its ``base_url``, normalised) has a folder of
``max_concurrent`` slots under the limits folder (``<runs_dir>/.locks/providers/`` for runs:
shared by every node that shares the runs dir; a node-local folder otherwise); a request holds
one slot, a :class:`~realcli.util.file_lease.FileLease`, for the length of one HTTP attempt.
A process that dies frees its slots at once on its host (elsewhere once their heartbeat is
stale). Runs that name the same provider with different ``max_concurrent`` values each keep to
their own number of slots, so the total stays at most the largest value.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from realcli.util.file_lease import FileLease, LeaseHeld

__all__ = ["ProviderLimit", "default_limits_dir", "provider_id"]

POLL_MIN_S = 0.02
POLL_MAX_S = 0.5


def default_limits_dir() -> Path:
    """The node-local limits folder (``$REALCLI_PROVIDER_LIMITS_DIR`` when set)."""
    env = os.environ.get("REALCLI_PROVIDER_LIMITS_DIR")
    return Path(env) if env else Path(tempfile.gettempdir()) / "realcli-provider-limits"


def provider_id(base_url: str) -> str:
    """The folder name of a provider: its host and a digest of its normalised base URL
    (scheme, lower-case host, port, path without a trailing slash)."""
    parts = urllib.parse.urlsplit(base_url.strip())
    host = (parts.hostname or "provider").lower()
    port = parts.port or (443 if parts.scheme == "https" else 80)
    canonical = f"{parts.scheme.lower()}://{host}:{port}{parts.path.rstrip('/')}"
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:10]
    return f"{re.sub(r'[^A-Za-z0-9.-]', '_', host)}-{digest}"


class ProviderLimit:
    """``with limit.slot(): ...`` holds one of ``max_concurrent`` slots of ``base_url``,
    waiting (polling, with backoff) up to ``wait_s``; raises :class:`TimeoutError` then."""

    def __init__(
        self,
        base_url: str,
        max_concurrent: int,
        limits_dir: Path | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if max_concurrent < 1:
            raise ValueError("max_concurrent must be at least 1")
        self.max_concurrent = max_concurrent
        self.folder = (limits_dir or default_limits_dir()) / provider_id(base_url)
        self._sleep = sleep

    def _try(self) -> FileLease | None:
        for i in range(self.max_concurrent):
            lease = FileLease(self.folder / f"slot-{i}")
            try:
                lease.acquire()
            except LeaseHeld:
                continue
            return lease
        return None

    def acquire(self, wait_s: float) -> FileLease:
        """A free slot (release it with ``.release()``), waiting up to ``wait_s``."""
        start = time.monotonic()
        delay = POLL_MIN_S
        while (lease := self._try()) is None:
            waited = time.monotonic() - start
            if waited >= wait_s:
                raise TimeoutError(
                    f"all {self.max_concurrent} slots of {self.folder} were busy for "
                    f"{waited:.0f}s (model.upstream.max_concurrent)"
                )
            self._sleep(min(delay, max(wait_s - waited, 0.0)))
            delay = min(delay * 2, POLL_MAX_S)
        return lease

    @contextmanager
    def slot(self, wait_s: float) -> Iterator[None]:
        """Hold a slot for the ``with`` block (see :meth:`acquire`)."""
        lease = self.acquire(wait_s)
        try:
            yield
        finally:
            lease.release()
