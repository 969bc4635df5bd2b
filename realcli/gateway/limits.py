"""How the gateway stays bounded under a flood: the default caps on a request body and on
the POSTs read and handled at once, the slots that enforce them, and glibc's mmap threshold
so a freed body's memory goes back to the OS (``tests/security/test_gateway_flood.py``)."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import threading
import time

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_CONCURRENT",
    "MAX_INFLIGHT_BYTES",
    "QUEUE_TIMEOUT_S",
    "Slots",
    "return_big_buffers",
]

MAX_BODY_BYTES = 32 * 1024 * 1024
"""Default cap on a request body (the largest request Anthropic's API itself accepts)."""
MAX_CONCURRENT = 4
"""Default number of POSTs read and handled at once."""
MAX_INFLIGHT_BYTES = 64 * 1024 * 1024
"""Default total of the bodies read and handled at once."""
QUEUE_TIMEOUT_S = 120.0
"""Default wait of a request for a free slot before 503."""
_M_MMAP_THRESHOLD = -3  # mallopt(3)
_MMAP_FROM_BYTES = 1024 * 1024


def return_big_buffers() -> None:
    """Allocate buffers of 1 MiB and more with mmap (glibc; elsewhere a no-op), so freed
    request bodies leave the process instead of growing each thread's malloc arena."""
    name = ctypes.util.find_library("c")
    if name is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(name).mallopt(_M_MMAP_THRESHOLD, _MMAP_FROM_BYTES)


class Slots:
    """At most ``count`` requests and ``budget`` body bytes at once; a request alone always
    fits. :meth:`acquire` waits (bounded) for room."""

    def __init__(self, count: int, budget: int) -> None:
        self._cond = threading.Condition()
        self._free = count
        self._budget = self._room = budget

    def acquire(self, nbytes: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (self._free > 0 and (nbytes <= self._room or self._room == self._budget)):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            self._free -= 1
            self._room -= nbytes
            return True

    def release(self, nbytes: int) -> None:
        with self._cond:
            self._free += 1
            self._room += nbytes
            self._cond.notify_all()
