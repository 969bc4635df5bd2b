"""``warning`` events for entries realcli left out of a read or copy of an agent's tree."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from realcli.schema.events import WarningEvent, WarningType
from realcli.util.safe_fs import Skipped

__all__ = ["MAX_LISTED", "warn_skipped"]

MAX_LISTED = 50
"""At most this many entries are listed in one event (the message has the total)."""


def warn_skipped(
    emit: Callable[[WarningEvent], object], skipped: Sequence[Skipped], where: str
) -> None:
    """Emit one ``warning`` per kind of entry left out (links, special files); none if none."""
    links = [s for s in skipped if s.kind == "symlink"]
    special = [s for s in skipped if s.kind not in ("symlink", "too_large")]
    for warning_type, entries, what in (
        (WarningType.skipped_link, links, "symlink(s) not followed"),
        (
            WarningType.skipped_special_file,
            special,
            "special file(s) (FIFO, socket, device) left out",
        ),
    ):
        if not entries:
            continue
        emit(
            WarningEvent(
                seq=0,
                warning_type=warning_type,
                where=where,
                message=f"{where}: {len(entries)} {what}",
                paths=tuple(str(s) for s in entries[:MAX_LISTED]),
            )
        )
