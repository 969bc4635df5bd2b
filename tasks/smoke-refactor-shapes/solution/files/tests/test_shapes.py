import math
from dataclasses import dataclass

import pytest

import geometry
import shapes


def test_classes():
    assert shapes.Circle(1).area() == pytest.approx(math.pi)
    assert shapes.Rectangle(2, 3).perimeter() == 10
    assert shapes.Square(2).describe() == "square: area=4.00 perimeter=8.00"
    with pytest.raises(ValueError, match="sides do not form a triangle"):
        shapes.Triangle(1, 2, 3)


def test_registry():
    assert shapes.available() == ["circle", "rectangle", "square", "triangle"]
    assert shapes.create("rect", 2, 3) == shapes.Rectangle(2, 3)
    assert shapes.parse("circle 2") == shapes.Circle(2.0)
    with pytest.raises(shapes.UnknownShapeError):
        shapes.get_shape("blob")


def test_custom_shape_through_geometry():
    @dataclass(frozen=True)
    class Kite(shapes.Shape):
        d1: float
        d2: float
        side1: float
        side2: float

        def area(self):
            return self.d1 * self.d2 / 2

        def perimeter(self):
            return 2 * (self.side1 + self.side2)

    shapes.register("kite")(Kite)
    try:
        assert geometry.describe("kite", 4, 2, 2, 3) == "kite: area=4.00 perimeter=10.00"
    finally:
        shapes.unregister("kite")
