"""Rectangles and squares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from shapes.base import Shape, require_positive


@dataclass(frozen=True)
class Rectangle(Shape):
    kind: ClassVar[str] = "rectangle"

    width: float
    height: float

    def __post_init__(self) -> None:
        require_positive("width", self.width)
        require_positive("height", self.height)

    def area(self) -> float:
        return self.width * self.height

    def perimeter(self) -> float:
        return 2 * (self.width + self.height)


@dataclass(frozen=True)
class Square(Shape):
    kind: ClassVar[str] = "square"

    side: float

    def __post_init__(self) -> None:
        require_positive("side", self.side)

    def area(self) -> float:
        return self.side * self.side

    def perimeter(self) -> float:
        return 4 * self.side
