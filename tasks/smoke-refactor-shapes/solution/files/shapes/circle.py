"""Circles."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from shapes.base import Shape, require_positive


@dataclass(frozen=True)
class Circle(Shape):
    kind: ClassVar[str] = "circle"

    radius: float

    def __post_init__(self) -> None:
        require_positive("radius", self.radius)

    def area(self) -> float:
        return math.pi * self.radius**2

    def perimeter(self) -> float:
        return 2 * math.pi * self.radius
