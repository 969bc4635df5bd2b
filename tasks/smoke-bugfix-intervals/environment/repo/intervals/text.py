"""Reading and writing intervals as text, e.g. ``"[1, 5)"``."""

from __future__ import annotations

import re

from intervals.core import Interval

_INTERVAL = re.compile(r"\[\s*(\d+)\s*,\s*(\d+)\s*\)")


def parse_interval(text: str) -> Interval:
    """Parse ``"[start, end)"``; surrounding whitespace is ignored.

    Raises ``ValueError`` if the text is malformed or ``end < start``.
    """
    match = _INTERVAL.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"not an interval: {text!r}")
    return Interval(int(match.group(1)), int(match.group(2)))


def format_interval(interval: Interval) -> str:
    """The inverse of :func:`parse_interval`."""
    return f"[{interval.start}, {interval.end})"


def parse_list(text: str) -> list[Interval]:
    """Parse ``;``-separated intervals, in the order given. A blank string is ``[]``."""
    return [parse_interval(part) for part in text.split(";")]
