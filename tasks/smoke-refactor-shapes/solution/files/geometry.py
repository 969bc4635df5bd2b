"""Area and perimeter of simple shapes (compatibility layer).

The implementation lives in the :mod:`shapes` package; this module keeps the original
function-based API working. Shapes are identified by a kind and their dimensions::

    circle RADIUS
    rectangle WIDTH HEIGHT      (alias: rect)
    square SIDE
    triangle A B C              (the three side lengths)

Any shape registered with :func:`shapes.register` is accepted as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from shapes import Circle, Rectangle, Square, Triangle, create
from shapes.registry import split_spec

__version__ = "1.2.0"


def circle_area(radius: float) -> float:
    return Circle(radius).area()


def circle_perimeter(radius: float) -> float:
    return Circle(radius).perimeter()


def rectangle_area(width: float, height: float) -> float:
    return Rectangle(width, height).area()


def rectangle_perimeter(width: float, height: float) -> float:
    return Rectangle(width, height).perimeter()


def square_area(side: float) -> float:
    return Square(side).area()


def square_perimeter(side: float) -> float:
    return Square(side).perimeter()


def triangle_area(a: float, b: float, c: float) -> float:
    return Triangle(a, b, c).area()


def triangle_perimeter(a: float, b: float, c: float) -> float:
    return Triangle(a, b, c).perimeter()


def area(kind: str, *dims: float) -> float:
    """Area of the shape ``kind`` with dimensions ``dims``."""
    return create(kind, *dims).area()


def perimeter(kind: str, *dims: float) -> float:
    """Perimeter of the shape ``kind`` with dimensions ``dims``."""
    return create(kind, *dims).perimeter()


def describe(kind: str, *dims: float) -> str:
    """One-line summary, e.g. ``'square: area=4.00 perimeter=8.00'``."""
    return create(kind, *dims).describe()


def parse_spec(text: str) -> tuple[str, tuple[float, ...]]:
    """Split ``'rect 2 3'`` into ``('rect', (2.0, 3.0))``."""
    return split_spec(text)


def total_area(specs: Iterable[str | Sequence[object]]) -> float:
    """Sum of the areas of ``specs``: strings like ``'circle 1'`` or tuples ``('square', 2)``."""
    total = 0.0
    for spec in specs:
        if isinstance(spec, str):
            kind, dims = split_spec(spec)
        else:
            kind, *rest = spec
            dims = tuple(float(d) for d in rest)  # type: ignore[arg-type]
        total += area(str(kind), *dims)
    return total
