"""Exceptions raised by inflect.

Every exception derives from :class:`InflectError`, so callers can catch all of
inflect's errors at once.
"""

__all__ = [
    "InflectError",
    "UnknownClassicalModeError",
    "BadNumValueError",
    "BadChunkingOptionError",
    "NumOutOfRangeError",
    "BadUserDefinedPatternError",
    "BadRcFileError",
    "BadGenderError",
]


class InflectError(Exception):
    """Base class of all inflect exceptions."""


class UnknownClassicalModeError(InflectError):
    """An unknown classical mode was passed to ``engine.classical()``."""


class BadNumValueError(InflectError):
    """``engine.num()`` was given a count that is not an integer."""


class BadChunkingOptionError(InflectError):
    """``engine.number_to_words()`` was given a ``group`` other than 0-3."""


class NumOutOfRangeError(InflectError):
    """A number is too large to be turned into words."""


class BadUserDefinedPatternError(InflectError):
    """A user-defined pattern is not a valid regular expression."""


class BadRcFileError(InflectError):
    """Kept for backwards compatibility; no longer raised."""


class BadGenderError(InflectError):
    """An unknown gender was given for singular pronouns."""
