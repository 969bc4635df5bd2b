"""The :class:`Interval` value type."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Interval:
    """The half-open integer interval ``[start, end)``.

    ``start`` is included and ``end`` is excluded; ``Interval(3, 3)`` is empty.
    """

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"interval end {self.end} is before its start {self.start}")

    def __str__(self) -> str:
        return f"[{self.start}, {self.end})"

    @property
    def length(self) -> int:
        """Number of integer points in the interval."""
        return self.end - self.start

    def is_empty(self) -> bool:
        return self.start == self.end

    def __contains__(self, point: int) -> bool:
        return self.start <= point <= self.end

    def overlaps(self, other: Interval) -> bool:
        """True if the two intervals share at least one point."""
        return self.start <= other.end and other.start <= self.end

    def touches(self, other: Interval) -> bool:
        """True if the intervals overlap or one ends exactly where the other starts."""
        return self.start <= other.end and other.start <= self.end

    def intersect(self, other: Interval) -> Interval | None:
        """The common part of both intervals, or ``None`` if they do not overlap."""
        if not self.overlaps(other):
            return None
        return Interval(max(self.start, other.start), min(self.end, other.end))
