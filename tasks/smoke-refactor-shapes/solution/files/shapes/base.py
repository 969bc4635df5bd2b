"""The :class:`Shape` base class and shared validation helpers."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import fields
from typing import ClassVar


def require_positive(name: str, value: float) -> None:
    """Raise ``ValueError("<name> must be positive")`` unless ``value > 0``."""
    if value <= 0:
        raise ValueError(f"{name} must be positive")


class Shape(ABC):
    """Base class of all shapes.

    Concrete shapes are frozen dataclasses whose fields are their dimensions, in
    order. ``kind`` is the canonical name (set by :func:`shapes.register`).
    """

    kind: ClassVar[str] = ""

    @abstractmethod
    def area(self) -> float: ...

    @abstractmethod
    def perimeter(self) -> float: ...

    @property
    def dimensions(self) -> tuple[float, ...]:
        """The dimensions in field order, e.g. ``(width, height)``."""
        return tuple(getattr(self, f.name) for f in fields(self))  # type: ignore[arg-type]

    def describe(self) -> str:
        """One-line summary, e.g. ``'square: area=4.00 perimeter=8.00'``."""
        return f"{self.kind}: area={self.area():.2f} perimeter={self.perimeter():.2f}"
