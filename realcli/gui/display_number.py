"""A free X display number, held for one desktop.

The display number is reserved here, not by ``Xvfb -displayfd``: ``-displayfd`` finds a
free number by failing to bind the abstract socket of a busy one, so with ``-nolisten local``
two servers started at once both take ``:0`` (the second unlinks the first one's socket;
checked). :class:`DisplayReservation` holds the number the way both kinds of X server respect, so
concurrent runs never collide; ``-displayfd`` still tells when the server is ready.
"""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path

from realcli.gui.errors import DesktopError
from realcli.util.processes import pid_alive

__all__ = ["DisplayReservation", "socket_answers"]


def socket_answers(path: Path) -> bool:
    """Whether something accepts connections on the Unix socket ``path``."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(1.0)
        try:
            s.connect(str(path))
        except OSError:
            return False
    return True


class DisplayReservation:
    """A display number held for one desktop, the way X servers and -displayfd agree on:

    - the abstract socket ``@/tmp/.X11-unix/X<n>`` is bound (never listened on) by this
      process, so an ``Xvfb -displayfd`` elsewhere skips ``n`` (it finds ``n`` busy when it
      cannot bind that name; with ``-nolisten local`` Xvfb itself binds no abstract socket
      and would take, and unlink, a display in use: hence the number is chosen here);
    - the lock file ``/tmp/.X<n>-lock`` (created exclusively, holding the server's pid) makes
      an X server started with an explicit ``:n`` refuse it.
    """

    def __init__(self, number: int, holder: socket.socket, lock: Path) -> None:
        self.number = number
        self.holder = holder
        self.lock = lock

    @classmethod
    def take(cls, first: int = 0, last: int = 999) -> DisplayReservation:
        for n in range(first, last + 1):
            holder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                holder.bind(f"\0/tmp/.X11-unix/X{n}")
            except OSError:
                holder.close()
                continue
            lock = Path(f"/tmp/.X{n}-lock")
            if cls._lock(lock) and cls._socket_free(Path(f"/tmp/.X11-unix/X{n}")):
                return cls(n, holder, lock)
            holder.close()
        raise DesktopError(f"no free X display number in :{first}..:{last}")

    @staticmethod
    def _lock(lock: Path) -> bool:
        for _ in range(2):
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o444)
            except FileExistsError:
                try:
                    pid = int(lock.read_text().strip())
                except (OSError, ValueError):
                    return False  # being written right now, or not ours to judge
                if pid_alive(pid):
                    return False
                lock.unlink(missing_ok=True)  # stale: its server is gone
                continue
            with os.fdopen(fd, "w") as f:
                f.write(f"{os.getpid():10d}\n")
            return True
        return False

    @staticmethod
    def _socket_free(path: Path) -> bool:
        if not path.exists() and not path.is_symlink():
            return True
        if socket_answers(path):
            return False
        path.unlink(missing_ok=True)  # a stale socket of a server killed with SIGKILL
        return True

    def claim_for(self, pid: int) -> None:
        """Record the X server's pid in the lock file (what other servers check)."""
        tmp = self.lock.with_name(f"{self.lock.name}.{os.getpid()}")
        tmp.write_text(f"{pid:10d}\n")
        tmp.chmod(0o444)
        tmp.replace(self.lock)

    def release(self) -> None:
        with contextlib.suppress(OSError):
            Path(f"/tmp/.X11-unix/X{self.number}").unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.lock.unlink(missing_ok=True)
        self.holder.close()
