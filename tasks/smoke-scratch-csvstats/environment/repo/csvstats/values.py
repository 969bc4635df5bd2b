"""Parsing of individual CSV cell values."""

from __future__ import annotations

import math

#: Cell texts (compared case-insensitively, after stripping) that mean "no value".
MISSING = frozenset({"", "na", "n/a", "nan", "null", "none", "-"})


def is_missing(text: str) -> bool:
    """True if ``text`` is a missing-value marker such as ``""``, ``"NA"`` or ``"null"``."""
    return text.strip().lower() in MISSING


def parse_number(text: str) -> float | None:
    """Parse a numeric cell.

    Returns ``None`` for missing values (see :data:`MISSING`) and a ``float`` for
    numbers such as ``"12"``, ``" 3.5 "``, ``"-0.25"`` or ``"1e3"``. Anything else,
    including infinities, raises ``ValueError``.
    """
    if is_missing(text):
        return None
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueError(f"not a number: {text!r}") from None
    if math.isinf(value) or math.isnan(value):
        raise ValueError(f"not a finite number: {text!r}")
    return value
