"""The minisql error classes (docs/REQUIREMENTS.md, section 3.5)."""

from __future__ import annotations

__all__ = ["SQLError", "SQLNameError", "SQLSyntaxError", "SQLTypeError"]


class SQLError(Exception):
    """Any error raised while tokenizing, parsing or executing SQL."""


class SQLSyntaxError(SQLError):
    """Invalid SQL text; `pos` is the 0-based offset of the offending character or token."""

    def __init__(self, message: str, pos: int) -> None:
        self.message = message
        self.pos = pos
        super().__init__(f"{message} at position {pos}")


class SQLNameError(SQLError):
    """An unknown or ambiguous table, column or function name."""


class SQLTypeError(SQLError):
    """A value of the wrong type for an operation."""
