"""Exclusive leases in a folder that several processes and machines share.

A lease on ``BASE`` is two files beside each other:

* ``BASE.lock``: an ``flock`` taken first, where the file system supports it (a local disk;
  NFS with lockd or NFSv4). It serialises contenders on one node at once and is released by
  the kernel when its holder dies. Where ``flock`` is refused (``ENOLCK``, ``EOPNOTSUPP``:
  NFS mounted ``nolock``, FUSE file systems without locks) the lease alone decides.
* ``BASE.lease``: the lease itself, created with ``O_CREAT | O_EXCL`` (atomic on a local disk
  and on NFSv3/v4), holding the holder's host, boot id, pid, process start time and a random
  token. Its holder touches it (``utime`` with its own clock) every ``heartbeat_s`` seconds.

A lease that exists is held unless it is **stale**: its holder ran on this host (same host name
and boot id) and that process is gone (pid dead or reused: known at once), or it ran elsewhere
and its heartbeat is older than ``stale_after_s`` (so the machines' clocks must agree to well
within that, which NTP gives; and ``stale_after_s`` must exceed the NFS attribute cache time plus
``heartbeat_s``: the defaults are 120 s and 10 s). A stale lease is taken over by renaming it to
a private name (only one contender's ``rename`` finds it), checking that what was renamed is the
stale lease seen (else it is put back with ``link``, which never overwrites) and creating a new
one with ``O_EXCL``. ``flock`` alone is not enough: on a ``nolock`` NFS mount it succeeds on every
node without excluding any; the ``O_EXCL`` lease alone is: ``flock`` only makes it faster.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

__all__ = ["FileLease", "LeaseHeld", "LeaseHolder", "read_holder"]

HEARTBEAT_S = 10.0
STALE_AFTER_S = 120.0
_NO_FLOCK = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL})
_MAX_LEASE_BYTES = 4096


@dataclass(frozen=True)
class LeaseHolder:
    """Who holds a lease (the content of ``BASE.lease``)."""

    host: str
    boot_id: str
    pid: int
    started: str  # the process's start time in clock ticks since boot (/proc/PID/stat)
    token: str
    acquired_at: float

    def describe(self) -> str:
        since = time.strftime("%H:%M:%S", time.localtime(self.acquired_at))
        return f"pid {self.pid} on {self.host} since {since}"


class LeaseHeld(Exception):
    """Another live process holds the lease."""

    def __init__(self, base: Path, holder: LeaseHolder | None) -> None:
        who = holder.describe() if holder is not None else "another process"
        super().__init__(f"{base}: held by {who}")
        self.base = base
        self.holder = holder


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _started(pid: int) -> str:
    """The start time of ``pid`` (field 22 of /proc/PID/stat), '' when it does not exist."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[-1].split()[19]


def read_holder(lease: Path) -> tuple[LeaseHolder | None, float | None]:
    """The holder written in ``lease`` and the lease's age in seconds (from its mtime, read
    through a fresh open so NFS revalidates it); ``(None, None)`` when it is gone, ``(None,
    age)`` when its content is not (yet) readable."""
    try:
        fd = os.open(lease, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, None
    except OSError:
        return None, 0.0
    try:
        age = time.time() - os.fstat(fd).st_mtime
        raw = os.read(fd, _MAX_LEASE_BYTES)
    finally:
        os.close(fd)
    try:
        data: Any = json.loads(raw)
        return LeaseHolder(**{k: data[k] for k in LeaseHolder.__dataclass_fields__}), age
    except (ValueError, TypeError, KeyError):
        return None, age


class FileLease:
    """An exclusive, non-blocking lease on ``base`` (see the module docstring).

    ``acquire`` raises :class:`LeaseHeld`; ``release`` drops the lease (only if it is still
    ours). A lease that was taken over while held (its holder stopped heartbeating for longer
    than ``stale_after_s``, e.g. a suspended process) sets :attr:`lost` and calls ``on_lost``.
    """

    def __init__(
        self,
        base: Path,
        *,
        heartbeat_s: float = HEARTBEAT_S,
        stale_after_s: float = STALE_AFTER_S,
        on_lost: Callable[[str], None] | None = None,
        use_flock: bool = True,
    ) -> None:
        self.base = base
        self.lease = base.with_name(base.name + ".lease")
        self.lock = base.with_name(base.name + ".lock")
        self.heartbeat_s = heartbeat_s
        self.stale_after_s = stale_after_s
        self.on_lost = on_lost
        self.use_flock = use_flock  # False: the lease alone (as on a file system without locks)
        self.lost = False
        self.flock_supported: bool | None = None
        self._fd: int | None = None
        self._token: str | None = None
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None

    # ------------------------------------------------------------------ acquire / release
    def acquire(self) -> None:
        self.base.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            try:
                if self.use_flock:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.flock_supported = self.use_flock
            except BlockingIOError:
                raise LeaseHeld(self.base, read_holder(self.lease)[0]) from None
            except OSError as exc:
                if exc.errno not in _NO_FLOCK:
                    raise
                self.flock_supported = False  # the lease alone decides
            self._take_lease()
        except BaseException:
            os.close(self._fd)
            self._fd = None
            raise
        self._stop.clear()
        self._beat = threading.Thread(target=self._heartbeat, name="realcli-lease", daemon=True)
        self._beat.start()

    def _me(self) -> LeaseHolder:
        pid = os.getpid()
        return LeaseHolder(
            host=socket.gethostname(),
            boot_id=_boot_id(),
            pid=pid,
            started=_started(pid),
            token=secrets.token_hex(8),
            acquired_at=time.time(),
        )

    def _create(self, me: LeaseHolder) -> bool:
        try:
            fd = os.open(self.lease, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            return False
        try:
            os.write(fd, json.dumps(asdict(me)).encode())
            os.fsync(fd)
            os.utime(fd, (me.acquired_at, me.acquired_at))  # our clock, not the server's
        finally:
            os.close(fd)
        self._token = me.token
        return True

    def _take_lease(self) -> None:
        me = self._me()
        if self._create(me):
            return
        holder, age = read_holder(self.lease)
        if age is None:  # released in between
            if self._create(me):
                return
            raise LeaseHeld(self.base, read_holder(self.lease)[0])
        if not self._is_stale(holder, age):
            raise LeaseHeld(self.base, holder)
        aside = self.lease.with_name(f"{self.lease.name}.stale-{me.token}")
        try:
            os.rename(self.lease, aside)
        except FileNotFoundError:  # another contender took it over first
            raise LeaseHeld(self.base, read_holder(self.lease)[0]) from None
        moved, _ = read_holder(aside)
        if holder is not None and (moved is None or moved.token != holder.token):
            # not the stale lease we judged but a new holder's: put it back, never overwrite
            with contextlib.suppress(OSError):
                os.link(aside, self.lease)
            os.unlink(aside)
            raise LeaseHeld(self.base, moved)
        os.unlink(aside)
        if not self._create(me):
            raise LeaseHeld(self.base, read_holder(self.lease)[0])

    def _is_stale(self, holder: LeaseHolder | None, age: float) -> bool:
        if holder is None:  # unreadable: being written, or garbage left by a crash
            return age > self.stale_after_s
        if holder.host == socket.gethostname() and holder.boot_id == _boot_id():
            return _started(holder.pid) != holder.started  # dead, or the pid was reused
        return age > self.stale_after_s

    def release(self) -> None:
        self._stop.set()
        if self._beat is not None and self._beat is not threading.current_thread():
            self._beat.join()
        self._beat = None
        try:
            holder, _ = read_holder(self.lease)
            if holder is not None and holder.token == self._token:
                os.unlink(self.lease)
        finally:
            self._token = None
            if self._fd is not None:
                os.close(self._fd)  # releases the flock
                self._fd = None

    def _heartbeat(self) -> None:
        while not self._stop.wait(self.heartbeat_s):
            holder, _ = read_holder(self.lease)
            if holder is None or holder.token != self._token:
                if not self.lost:
                    self.lost = True
                    if self.on_lost is not None:
                        who = holder.describe() if holder else "nobody"
                        self.on_lost(f"{self.lease}: lease lost (now held by {who})")
                continue
            now = time.time()
            try:
                os.utime(self.lease, (now, now))
            except OSError:
                continue

    def __enter__(self) -> FileLease:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
