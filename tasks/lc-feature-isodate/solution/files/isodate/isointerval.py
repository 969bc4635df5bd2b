"""
ISO 8601 time intervals.

A time interval is written in one of three forms::

    <start>/<end>           2007-03-01T13:00:00Z/2008-05-11T15:30:00Z
    <start>/<duration>      2007-03-01T13:00:00Z/P1Y2M10DT2H30M
    <duration>/<end>        P1Y2M10DT2H30M/2008-05-11T15:30:00Z

This module provides the :class:`Interval` class, :func:`parse_interval` to read
the notation and :func:`interval_isoformat` to write it.
"""

from datetime import date, datetime, timedelta

from isodate.duration import Duration

FORMS = ("start/end", "start/duration", "duration/end")


def _is_aware(value):
    return value.tzinfo is not None and value.tzinfo.utcoffset(value) is not None


def _check_point(name, value):
    if not isinstance(value, date):
        raise TypeError(
            "interval %s must be a date or datetime, not %s" % (name, type(value).__name__)
        )


class Interval:
    """
    A time interval given by two of: a start, an end and a duration.

    ``start`` and ``end`` are ``date`` or ``datetime`` instances (both of the same
    kind), ``duration`` is a ``timedelta`` or a :class:`~isodate.Duration`. The
    missing component is computed, so :attr:`start`, :attr:`end` and
    :attr:`duration` are always available; :attr:`form` tells which two were given.
    """

    __slots__ = ("_start", "_end", "_duration", "_form")

    def __init__(self, start=None, end=None, duration=None):
        given = sum(x is not None for x in (start, end, duration))
        if given != 2:
            raise ValueError(
                "an interval needs exactly two of start, end and duration (%d given)" % given
            )
        if start is not None:
            _check_point("start", start)
        if end is not None:
            _check_point("end", end)
        if duration is not None and not isinstance(duration, (timedelta, Duration)):
            raise TypeError(
                "interval duration must be a timedelta or Duration, not %s"
                % type(duration).__name__
            )
        if duration is None:
            form = "start/end"
            if isinstance(start, datetime) != isinstance(end, datetime):
                raise ValueError("interval start and end must both be dates or both datetimes")
            if isinstance(start, datetime) and _is_aware(start) != _is_aware(end):
                raise ValueError(
                    "interval start and end must both be timezone-aware or both naive"
                )
            duration = end - start
        elif end is None:
            form = "start/duration"
            end = start + duration
        else:
            form = "duration/end"
            start = end - duration
        if end < start:
            raise ValueError("interval end %s is before its start %s" % (end, start))
        self._start = start
        self._end = end
        self._duration = duration
        self._form = form

    @property
    def start(self):
        """The first time point of the interval."""
        return self._start

    @property
    def end(self):
        """The last time point of the interval."""
        return self._end

    @property
    def duration(self):
        """The given duration, or ``end - start`` for the start/end form."""
        return self._duration

    @property
    def form(self):
        """The form the interval was created with: one of :data:`FORMS`."""
        return self._form

    def __eq__(self, other):
        if not isinstance(other, Interval):
            return NotImplemented
        return (
            isinstance(self._start, datetime) == isinstance(other._start, datetime)
            and self._start == other._start
            and self._end == other._end
        )

    def __ne__(self, other):
        result = self.__eq__(other)
        if result is NotImplemented:
            return result
        return not result

    def __hash__(self):
        return hash((self._start, self._end))

    def __repr__(self):
        if self._form == "start/end":
            args = "start=%r, end=%r" % (self._start, self._end)
        elif self._form == "start/duration":
            args = "start=%r, duration=%r" % (self._start, self._duration)
        else:
            args = "duration=%r, end=%r" % (self._duration, self._end)
        return "%s.%s(%s)" % (self.__class__.__module__, self.__class__.__name__, args)
