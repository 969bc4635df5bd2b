"""Operations on collections of intervals."""

from __future__ import annotations

from collections.abc import Iterable

from intervals.core import Interval


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Return the union of ``intervals`` as sorted, disjoint, non-touching intervals.

    The input may be in any order. Overlapping and touching intervals are combined
    and empty intervals are dropped.
    """
    items = [iv for iv in intervals if not iv.is_empty()]
    merged = [items[0]]
    for iv in items[1:]:
        last = merged[-1]
        if iv.touches(last):
            merged[-1] = Interval(last.start, iv.end)
        else:
            merged.append(iv)
    return merged


def total_length(intervals: Iterable[Interval]) -> int:
    """Number of points covered by at least one of ``intervals``."""
    return sum(iv.length for iv in intervals)


def intersection(a: Iterable[Interval], b: Iterable[Interval]) -> list[Interval]:
    """Points covered by both ``a`` and ``b``, as a merged list."""
    xs, ys = merge(a), merge(b)
    out: list[Interval] = []
    i = j = 0
    while i < len(xs) and j < len(ys):
        piece = xs[i].intersect(ys[j])
        if piece is not None:
            out.append(piece)
        # move past whichever interval ends first
        if xs[i].end < ys[j].end:
            j += 1
        else:
            i += 1
    return out


def gaps(intervals: Iterable[Interval], within: Interval) -> list[Interval]:
    """Parts of ``within`` not covered by any of ``intervals``, in order."""
    out: list[Interval] = []
    cursor = within.start
    for iv in merge(intervals):
        if iv.end <= within.start or iv.start >= within.end:
            continue
        if iv.start > cursor:
            out.append(Interval(cursor, iv.start))
        cursor = max(cursor, iv.end)
    return out
