"""Sub-step 2: the shape registry."""

import importlib
import math
from dataclasses import dataclass

import pytest


def _shapes():
    return importlib.import_module("shapes")


def test_registry_module_exports():
    shapes = _shapes()
    registry = importlib.import_module("shapes.registry")
    for name in ("register", "unregister", "get_shape", "create", "available", "parse", "UnknownShapeError"):
        assert getattr(shapes, name) is getattr(registry, name)


def test_builtins_available():
    assert _shapes().available() == ["circle", "rectangle", "square", "triangle"]


def test_get_shape_by_name_and_alias():
    shapes = _shapes()
    assert shapes.get_shape("circle") is shapes.Circle
    assert shapes.get_shape("rectangle") is shapes.Rectangle
    assert shapes.get_shape("RECT") is shapes.Rectangle
    assert shapes.get_shape(" Square ") is shapes.Square
    assert shapes.get_shape("triangle") is shapes.Triangle


def test_unknown_kind():
    shapes = _shapes()
    assert issubclass(shapes.UnknownShapeError, ValueError)
    with pytest.raises(shapes.UnknownShapeError, match="unknown shape: blob"):
        shapes.get_shape("blob")
    with pytest.raises(shapes.UnknownShapeError):
        shapes.create("blob", 1)


def test_create():
    shapes = _shapes()
    assert shapes.create("rect", 2, 3) == shapes.Rectangle(2, 3)
    assert shapes.create("Circle", 1.5) == shapes.Circle(1.5)
    assert shapes.create("triangle", 3, 4, 5).area() == pytest.approx(6)


def test_create_checks_dimension_count_and_values():
    shapes = _shapes()
    with pytest.raises(ValueError, match="circle needs 1 dimension"):
        shapes.create("circle")
    with pytest.raises(ValueError, match="rectangle needs 2 dimensions"):
        shapes.create("rect", 1, 2, 3)
    with pytest.raises(ValueError, match="radius must be positive"):
        shapes.create("circle", -1)


def test_parse():
    shapes = _shapes()
    assert shapes.parse("circle 2.5") == shapes.Circle(2.5)
    assert shapes.parse("  Rect 2 3 ") == shapes.Rectangle(2.0, 3.0)
    for bad in ("", "   ", "circle x"):
        with pytest.raises(ValueError):
            shapes.parse(bad)
    with pytest.raises(shapes.UnknownShapeError):
        shapes.parse("blob 1")


def test_register_and_unregister_custom_shape():
    shapes = _shapes()

    @dataclass(frozen=True)
    class Hexagon(shapes.Shape):
        side: float

        def area(self):
            return 3 * math.sqrt(3) / 2 * self.side**2

        def perimeter(self):
            return 6 * self.side

    assert shapes.register("hexagon", "hex")(Hexagon) is Hexagon
    try:
        assert Hexagon.kind == "hexagon"
        assert shapes.get_shape("HEX") is Hexagon
        assert shapes.create("hex", 2) == Hexagon(2)
        assert shapes.parse("hexagon 1").describe() == "hexagon: area=2.60 perimeter=6.00"
        assert shapes.available() == ["circle", "hexagon", "rectangle", "square", "triangle"]
    finally:
        shapes.unregister("hexagon")
    assert shapes.available() == ["circle", "rectangle", "square", "triangle"]
    with pytest.raises(shapes.UnknownShapeError):
        shapes.get_shape("hex")


def test_duplicate_names_rejected():
    shapes = _shapes()

    @dataclass(frozen=True)
    class Blob(shapes.Shape):
        size: float

        def area(self):
            return self.size

        def perimeter(self):
            return self.size

    with pytest.raises(ValueError):
        shapes.register("circle")(Blob)
    with pytest.raises(ValueError):
        shapes.register("blob", "rect")(Blob)
    assert shapes.available() == ["circle", "rectangle", "square", "triangle"]
    assert shapes.get_shape("circle") is shapes.Circle
    assert shapes.get_shape("rect") is shapes.Rectangle
    with pytest.raises(shapes.UnknownShapeError):
        shapes.get_shape("blob")
