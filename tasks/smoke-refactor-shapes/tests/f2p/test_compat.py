"""Sub-step 3: ``geometry`` becomes a thin layer over ``shapes``."""

import importlib
import math
from dataclasses import dataclass

import pytest

import geometry


def _shapes():
    return importlib.import_module("shapes")


def test_geometry_dispatches_through_the_registry():
    shapes = _shapes()

    @dataclass(frozen=True)
    class Equilateral(shapes.Shape):
        side: float

        def area(self):
            return math.sqrt(3) / 4 * self.side**2

        def perimeter(self):
            return 3 * self.side

    shapes.register("equilateral", "eq")(Equilateral)
    try:
        assert geometry.area("equilateral", 2) == pytest.approx(math.sqrt(3))
        assert geometry.perimeter("eq", 2) == 6
        assert geometry.describe("EQ", 2) == "equilateral: area=1.73 perimeter=6.00"
        total = geometry.total_area(["equilateral 2", ("circle", 1)])
        assert total == pytest.approx(math.sqrt(3) + math.pi)
        with pytest.raises(ValueError, match="equilateral needs 1 dimension"):
            geometry.area("equilateral", 1, 2)
    finally:
        shapes.unregister("equilateral")


@pytest.mark.parametrize("func", ["area", "perimeter", "describe"])
def test_unknown_kind_raises_unknown_shape_error(func):
    shapes = _shapes()
    with pytest.raises(shapes.UnknownShapeError, match="unknown shape: blob"):
        getattr(geometry, func)("blob", 1)


@pytest.mark.parametrize(
    ("func", "cls", "method", "args"),
    [
        ("circle_area", "Circle", "area", (1,)),
        ("circle_perimeter", "Circle", "perimeter", (1,)),
        ("rectangle_area", "Rectangle", "area", (2, 3)),
        ("rectangle_perimeter", "Rectangle", "perimeter", (2, 3)),
        ("square_area", "Square", "area", (2,)),
        ("square_perimeter", "Square", "perimeter", (2,)),
        ("triangle_area", "Triangle", "area", (3, 4, 5)),
        ("triangle_perimeter", "Triangle", "perimeter", (3, 4, 5)),
    ],
)
def test_formula_functions_delegate_to_shape_classes(monkeypatch, func, cls, method, args):
    shapes = _shapes()
    monkeypatch.setattr(getattr(shapes, cls), method, lambda self: 42.0)
    assert getattr(geometry, func)(*args) == 42.0
