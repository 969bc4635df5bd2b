"""LedgerWriter: thread-safe, append-only, one flushed line per event, secrets redacted."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from realcli.schema.events import Event, HeaderEvent
from realcli.util.redact import Redactor

__all__ = ["LedgerWriter"]

E = TypeVar("E", bound=Any)


class LedgerWriter:
    """Writes ``ledger.jsonl``. Create with :meth:`create` (header first); events get ``seq``."""

    def __init__(self, path: Path, redactor: Redactor, next_seq: int = 1) -> None:
        self.path = path
        self._redactor = redactor
        self._lock = threading.Lock()
        self._seq = next_seq
        self._fh = path.open("a", encoding="utf-8")
        self._listeners: list[Callable[[Any], None]] = []

    def add_listener(self, listener: Callable[[Any], None]) -> None:
        """Call ``listener(event)`` after each event is written (outside the writer's lock, on
        the emitting thread; it may emit events itself)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[Any], None]) -> None:
        self._listeners.remove(listener)

    @classmethod
    def create(cls, path: Path, header: HeaderEvent, redactor: Redactor) -> LedgerWriter:
        if path.exists():
            raise FileExistsError(f"{path}: a ledger is append-only and already exists")
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = cls(path, redactor, next_seq=0)
        writer.emit(header)
        return writer

    def emit(self, event: Event) -> Event:
        """Append ``event`` with the next sequence number; returns the event as written."""
        with self._lock:
            stamped = event.model_copy(update={"seq": self._seq})
            data = self._redactor.obj(stamped.model_dump(mode="json"))
            self._fh.write(json.dumps(data, ensure_ascii=False) + "\n")
            # flushed to the kernel per event: a killed process loses nothing it emitted
            # (no fsync: that guards against power loss, at a cost on every event)
            self._fh.flush()
            self._seq += 1
        for listener in list(self._listeners):
            listener(stamped)
        return stamped

    def close(self) -> None:
        with self._lock:
            if not self._fh.closed:
                self._fh.close()

    def __enter__(self) -> LedgerWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
