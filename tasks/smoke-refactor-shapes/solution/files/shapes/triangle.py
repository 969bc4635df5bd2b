"""Triangles given by their three side lengths."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from shapes.base import Shape, require_positive


@dataclass(frozen=True)
class Triangle(Shape):
    kind: ClassVar[str] = "triangle"

    a: float
    b: float
    c: float

    def __post_init__(self) -> None:
        require_positive("side a", self.a)
        require_positive("side b", self.b)
        require_positive("side c", self.c)
        a, b, c = self.a, self.b, self.c
        if a + b <= c or a + c <= b or b + c <= a:
            raise ValueError("sides do not form a triangle")

    def area(self) -> float:
        # Heron's formula
        s = (self.a + self.b + self.c) / 2
        return math.sqrt(s * (s - self.a) * (s - self.b) * (s - self.c))

    def perimeter(self) -> float:
        return self.a + self.b + self.c
