"""Sub-step 1: shape classes in the new ``shapes`` package."""

import importlib
import math

import pytest


def _shapes():
    return importlib.import_module("shapes")


def test_package_layout():
    shapes = _shapes()
    base = importlib.import_module("shapes.base")
    circle = importlib.import_module("shapes.circle")
    rectangle = importlib.import_module("shapes.rectangle")
    triangle = importlib.import_module("shapes.triangle")
    assert shapes.Shape is base.Shape
    assert shapes.Circle is circle.Circle
    assert shapes.Rectangle is rectangle.Rectangle
    assert shapes.Square is rectangle.Square
    assert shapes.Triangle is triangle.Triangle


def test_shape_is_abstract_base():
    shapes = _shapes()
    with pytest.raises(TypeError):
        shapes.Shape()
    for name in ("Circle", "Rectangle", "Square", "Triangle"):
        assert issubclass(getattr(shapes, name), shapes.Shape)


@pytest.mark.parametrize(
    ("cls", "dims", "area", "perimeter"),
    [
        ("Circle", (1,), math.pi, 2 * math.pi),
        ("Circle", (2.5,), math.pi * 6.25, 5 * math.pi),
        ("Rectangle", (2, 3), 6, 10),
        ("Square", (2,), 4, 8),
        ("Triangle", (3, 4, 5), 6, 12),
    ],
)
def test_area_and_perimeter(cls, dims, area, perimeter):
    shape = getattr(_shapes(), cls)(*dims)
    assert shape.area() == pytest.approx(area)
    assert shape.perimeter() == pytest.approx(perimeter)


def test_fields_and_dimensions():
    shapes = _shapes()
    rect = shapes.Rectangle(2, 3)
    assert (rect.width, rect.height) == (2, 3)
    assert rect.dimensions == (2, 3)
    assert shapes.Circle(1.5).radius == 1.5
    assert shapes.Square(4).side == 4
    tri = shapes.Triangle(3, 4, 5)
    assert (tri.a, tri.b, tri.c) == (3, 4, 5)
    assert tri.dimensions == (3, 4, 5)


def test_value_semantics():
    shapes = _shapes()
    assert shapes.Circle(1) == shapes.Circle(1)
    assert shapes.Circle(1) != shapes.Circle(2)
    assert hash(shapes.Square(2)) == hash(shapes.Square(2))
    assert len({shapes.Rectangle(1, 2), shapes.Rectangle(1, 2), shapes.Rectangle(2, 1)}) == 2
    circle = shapes.Circle(1)
    with pytest.raises(AttributeError):
        circle.radius = 3


@pytest.mark.parametrize(
    ("cls", "dims", "message"),
    [
        ("Circle", (0,), "radius must be positive"),
        ("Rectangle", (0, 1), "width must be positive"),
        ("Rectangle", (2, -1), "height must be positive"),
        ("Square", (-2,), "side must be positive"),
        ("Triangle", (1, 0, 1), "side b must be positive"),
        ("Triangle", (1, 2, 3), "sides do not form a triangle"),
    ],
)
def test_validation(cls, dims, message):
    with pytest.raises(ValueError, match=message):
        getattr(_shapes(), cls)(*dims)


def test_kind_and_describe():
    shapes = _shapes()
    assert [c.kind for c in (shapes.Circle, shapes.Rectangle, shapes.Square, shapes.Triangle)] == [
        "circle",
        "rectangle",
        "square",
        "triangle",
    ]
    assert shapes.Square(2).describe() == "square: area=4.00 perimeter=8.00"
    assert shapes.Rectangle(2, 3).describe() == "rectangle: area=6.00 perimeter=10.00"
    assert shapes.Circle(1).describe() == "circle: area=3.14 perimeter=6.28"
