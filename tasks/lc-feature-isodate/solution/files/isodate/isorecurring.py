"""
ISO 8601 recurring time intervals.

A recurring interval is written ``Rn/<interval>`` (n repetitions) or
``R/<interval>`` (unbounded), e.g. ``R5/2008-03-01T13:00:00Z/P1Y2M10DT2H30M``.
"""

from isodate.isointerval import Interval


class RecurringInterval:
    """
    An :class:`~isodate.Interval` repeated ``repetitions`` times (forever when
    ``repetitions`` is None).

    Iterating yields the occurrences as :class:`~isodate.Interval` objects: forward
    from the start for the start/end and start/duration forms, backwards from the
    end (latest first) for the duration/end form. The k-th occurrence is computed
    from the original start (or end) and ``k`` times the duration, so calendar
    durations do not drift.
    """

    __slots__ = ("_interval", "_repetitions")

    def __init__(self, interval, repetitions=None):
        if not isinstance(interval, Interval):
            raise TypeError(
                "recurring interval needs an Interval, not %s" % type(interval).__name__
            )
        if repetitions is not None:
            if isinstance(repetitions, bool) or not isinstance(repetitions, int):
                raise TypeError(
                    "repetitions must be an int or None, not %s" % type(repetitions).__name__
                )
            if repetitions < 0:
                raise ValueError("repetitions must not be negative, got %d" % repetitions)
        self._interval = interval
        self._repetitions = repetitions

    @property
    def interval(self):
        """The repeated :class:`~isodate.Interval`."""
        return self._interval

    @property
    def repetitions(self):
        """Number of occurrences, or None when unbounded."""
        return self._repetitions

    def __iter__(self):
        base = self._interval
        step = base.duration
        k = 0
        while self._repetitions is None or k < self._repetitions:
            if base.form == "duration/end":
                yield Interval(start=base.end - step * (k + 1), end=base.end - step * k)
            else:
                yield Interval(start=base.start + step * k, end=base.start + step * (k + 1))
            k += 1

    def __eq__(self, other):
        if not isinstance(other, RecurringInterval):
            return NotImplemented
        return self._interval == other._interval and self._repetitions == other._repetitions

    def __ne__(self, other):
        result = self.__eq__(other)
        if result is NotImplemented:
            return result
        return not result

    def __hash__(self):
        return hash((self._interval, self._repetitions))

    def __repr__(self):
        return "%s.%s(%r, repetitions=%r)" % (
            self.__class__.__module__,
            self.__class__.__name__,
            self._interval,
            self._repetitions,
        )
