"""Shared pydantic base classes: frozen, strict about unknown keys."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen", "Open"]


class Frozen(BaseModel):
    """Immutable record that rejects unknown keys (a typo is an error, never a silent None)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Open(BaseModel):
    """Mutable record that rejects unknown keys."""

    model_config = ConfigDict(extra="forbid")
