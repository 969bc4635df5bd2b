"""One thing wrong with a run folder, as ingest reports it and stores it (``ingest_problems``).

``str(problem)`` is the one line ``realcli ingest`` prints: the file, the field or line, what is
wrong, what ingest did about it, and the fix.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SKIPPED", "Problem"]

SKIPPED = "folder skipped"
"""The ``outcome`` of a problem that kept the whole folder out of the warehouse."""


@dataclass(frozen=True)
class Problem:
    file: str
    """The file (or the run folder itself) that is wrong."""
    location: str | None
    """The field (``spec.seed``), the ledger line (``line 7``) or None for the whole file."""
    problem: str
    fix: str
    outcome: str
    """What ingest did: :data:`SKIPPED`, ``loaded as incomplete``, ..."""

    @property
    def skipped(self) -> bool:
        return self.outcome == SKIPPED

    def __str__(self) -> str:
        at = f"{self.file}: {self.location}: " if self.location else f"{self.file}: "
        return f"{at}{self.problem}; {self.outcome} (fix: {self.fix})"
