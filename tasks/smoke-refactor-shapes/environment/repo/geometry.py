"""Area and perimeter of simple shapes.

Shapes are identified by a kind and their dimensions::

    circle RADIUS
    rectangle WIDTH HEIGHT      (alias: rect)
    square SIDE
    triangle A B C              (the three side lengths)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__version__ = "1.2.0"


def circle_area(radius: float) -> float:
    if radius <= 0:
        raise ValueError("radius must be positive")
    return math.pi * radius**2


def circle_perimeter(radius: float) -> float:
    if radius <= 0:
        raise ValueError("radius must be positive")
    return 2 * math.pi * radius


def rectangle_area(width: float, height: float) -> float:
    if width <= 0:
        raise ValueError("width must be positive")
    if height <= 0:
        raise ValueError("height must be positive")
    return width * height


def rectangle_perimeter(width: float, height: float) -> float:
    if width <= 0:
        raise ValueError("width must be positive")
    if height <= 0:
        raise ValueError("height must be positive")
    return 2 * (width + height)


def square_area(side: float) -> float:
    if side <= 0:
        raise ValueError("side must be positive")
    return side * side


def square_perimeter(side: float) -> float:
    if side <= 0:
        raise ValueError("side must be positive")
    return 4 * side


def triangle_area(a: float, b: float, c: float) -> float:
    for name, value in (("a", a), ("b", b), ("c", c)):
        if value <= 0:
            raise ValueError(f"side {name} must be positive")
    if a + b <= c or a + c <= b or b + c <= a:
        raise ValueError("sides do not form a triangle")
    s = (a + b + c) / 2
    return math.sqrt(s * (s - a) * (s - b) * (s - c))


def triangle_perimeter(a: float, b: float, c: float) -> float:
    for name, value in (("a", a), ("b", b), ("c", c)):
        if value <= 0:
            raise ValueError(f"side {name} must be positive")
    if a + b <= c or a + c <= b or b + c <= a:
        raise ValueError("sides do not form a triangle")
    return a + b + c


def _canonical(kind: str) -> str:
    kind = kind.strip().lower()
    if kind == "rect":
        return "rectangle"
    return kind


def area(kind: str, *dims: float) -> float:
    """Area of the shape ``kind`` with dimensions ``dims``."""
    kind = _canonical(kind)
    if kind == "circle":
        if len(dims) != 1:
            raise ValueError("circle needs 1 dimension")
        return circle_area(*dims)
    elif kind == "rectangle":
        if len(dims) != 2:
            raise ValueError("rectangle needs 2 dimensions")
        return rectangle_area(*dims)
    elif kind == "square":
        if len(dims) != 1:
            raise ValueError("square needs 1 dimension")
        return square_area(*dims)
    elif kind == "triangle":
        if len(dims) != 3:
            raise ValueError("triangle needs 3 dimensions")
        return triangle_area(*dims)
    else:
        raise ValueError(f"unknown shape: {kind}")


def perimeter(kind: str, *dims: float) -> float:
    """Perimeter of the shape ``kind`` with dimensions ``dims``."""
    kind = _canonical(kind)
    if kind == "circle":
        if len(dims) != 1:
            raise ValueError("circle needs 1 dimension")
        return circle_perimeter(*dims)
    elif kind == "rectangle":
        if len(dims) != 2:
            raise ValueError("rectangle needs 2 dimensions")
        return rectangle_perimeter(*dims)
    elif kind == "square":
        if len(dims) != 1:
            raise ValueError("square needs 1 dimension")
        return square_perimeter(*dims)
    elif kind == "triangle":
        if len(dims) != 3:
            raise ValueError("triangle needs 3 dimensions")
        return triangle_perimeter(*dims)
    else:
        raise ValueError(f"unknown shape: {kind}")


def describe(kind: str, *dims: float) -> str:
    """One-line summary, e.g. ``'square: area=4.00 perimeter=8.00'``."""
    name = _canonical(kind)
    return f"{name}: area={area(kind, *dims):.2f} perimeter={perimeter(kind, *dims):.2f}"


def parse_spec(text: str) -> tuple[str, tuple[float, ...]]:
    """Split ``'rect 2 3'`` into ``('rect', (2.0, 3.0))``."""
    parts = text.split()
    if not parts:
        raise ValueError("empty shape spec")
    try:
        dims = tuple(float(p) for p in parts[1:])
    except ValueError:
        raise ValueError(f"bad dimension in {text!r}") from None
    return parts[0].lower(), dims


def total_area(specs: Iterable[str | Sequence[object]]) -> float:
    """Sum of the areas of ``specs``: strings like ``'circle 1'`` or tuples ``('square', 2)``."""
    total = 0.0
    for spec in specs:
        if isinstance(spec, str):
            kind, dims = parse_spec(spec)
        else:
            kind, *rest = spec
            dims = tuple(float(d) for d in rest)  # type: ignore[arg-type]
        total += area(str(kind), *dims)
    return total
