"""User-facing errors: every message names the file, the field and the fix."""

from __future__ import annotations

__all__ = ["ConfigError", "LedgerError", "RealcliError", "TaskError"]


class RealcliError(Exception):
    """An error caused by input the user can fix. ``str(err)`` is one readable line."""

    def __init__(self, where: str, field: str | None, problem: str, fix: str) -> None:
        self.where = where
        self.field = field
        self.problem = problem
        self.fix = fix
        at = f"{where}: {field}: " if field else f"{where}: "
        super().__init__(f"{at}{problem} (fix: {fix})")


class ConfigError(RealcliError):
    """A bad Hydra config or command-line override."""


class TaskError(RealcliError):
    """A bad task bundle."""


class LedgerError(RealcliError):
    """A ledger that cannot be read."""
