"""
correctly generate plurals, ordinals, indefinite articles;
convert numbers to words

Copyright (C) 2010 Paul Dyson

Based upon the Perl module Lingua::EN::Inflect by Damian Conway.

The original Perl module Lingua::EN::Inflect by Damian Conway is
available from http://search.cpan.org/~dconway/

This module can be downloaded at http://pypi.org/project/inflect

methods:
      classical inflect
      plural plural_noun plural_verb plural_adj singular_noun no num a an
      compare compare_nouns compare_verbs compare_adjs
      present_participle
      ordinal
      number_to_words
      join
      defnoun defverb defadj defa defan

INFLECTIONS:    classical inflect
      plural plural_noun plural_verb plural_adj singular_noun compare
      no num a an present_participle

PLURALS:   classical inflect
      plural plural_noun plural_verb plural_adj singular_noun no num
      compare compare_nouns compare_verbs compare_adjs

COMPARISONS:    classical
      compare compare_nouns compare_verbs compare_adjs

ARTICLES:   classical inflect num a an

NUMERICAL:      ordinal number_to_words

USER_DEFINED:   defnoun defverb defadj defa defan

Exceptions:
 UnknownClassicalModeError
 BadNumValueError
 BadChunkingOptionError
 NumOutOfRangeError
 BadUserDefinedPatternError
 BadRcFileError
 BadGenderError

"""

import importlib
import warnings

from inflect.core import engine
from inflect.exceptions import (
    InflectError,
    UnknownClassicalModeError,
    BadNumValueError,
    BadChunkingOptionError,
    NumOutOfRangeError,
    BadUserDefinedPatternError,
    BadRcFileError,
    BadGenderError,
)

__all__ = [
    "engine",
    "InflectError",
    "UnknownClassicalModeError",
    "BadNumValueError",
    "BadChunkingOptionError",
    "NumOutOfRangeError",
    "BadUserDefinedPatternError",
    "BadRcFileError",
    "BadGenderError",
]

# Modules that took over the names this module used to define itself. The old
# names keep working as deprecated attributes of the package.
_MOVED_TO = (
    "inflect.util",
    "inflect.nouns",
    "inflect.pronouns",
    "inflect.verbs",
    "inflect.adjectives",
    "inflect.articles",
    "inflect.numbers",
    "inflect.classical",
    "inflect.core",
)


def __getattr__(name: str):
    # Diagnostics used to be printed when the global STDOUT_ON flag was set;
    # they are now carried by the exceptions' messages.
    if name == "STDOUT_ON":
        warnings.warn(
            "inflect.STDOUT_ON is deprecated and has no effect; "
            "error details are in the exception messages.",
            DeprecationWarning,
            stacklevel=2,
        )
        return False
    if name == "print3":
        warnings.warn(
            "inflect.print3() is deprecated and does nothing.",
            DeprecationWarning,
            stacklevel=2,
        )
        return _print3
    if not name.startswith("_"):
        for module_name in _MOVED_TO:
            module = importlib.import_module(module_name)
            if name in module.__all__:
                warnings.warn(
                    f"inflect.{name} is deprecated; use {module_name}.{name} instead.",
                    DeprecationWarning,
                    stacklevel=2,
                )
                return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _print3(txt: str) -> None:
    """Deprecated no-op kept for backwards compatibility."""
