"""Half-open integer intervals: ``Interval(start, end)`` is ``[start, end)``."""

from intervals.core import Interval
from intervals.ops import gaps, intersection, merge, total_length
from intervals.text import format_interval, parse_interval, parse_list

__all__ = [
    "Interval",
    "format_interval",
    "gaps",
    "intersection",
    "merge",
    "parse_interval",
    "parse_list",
    "total_length",
]

__version__ = "0.3.1"
