"""Look up shape classes by name: ``create("rect", 2, 3)`` or ``parse("rect 2 3")``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass

from shapes.base import Shape

__all__ = [
    "UnknownShapeError",
    "available",
    "create",
    "get_shape",
    "parse",
    "register",
    "split_spec",
    "unregister",
]

_BY_NAME: dict[str, type[Shape]] = {}  # canonical names and aliases
_ALIASES: dict[str, tuple[str, ...]] = {}  # canonical name -> its aliases


class UnknownShapeError(ValueError):
    """No shape is registered under the requested name."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"unknown shape: {kind}")
        self.kind = kind


def _key(name: str) -> str:
    return name.strip().lower()


def register(kind: str, *aliases: str) -> Callable[[type[Shape]], type[Shape]]:
    """Class decorator: register a Shape dataclass under ``kind`` and ``aliases``."""
    names = [_key(kind), *(_key(a) for a in aliases)]

    def decorator(cls: type[Shape]) -> type[Shape]:
        if not (isinstance(cls, type) and issubclass(cls, Shape) and is_dataclass(cls)):
            raise TypeError(f"{cls!r} is not a Shape dataclass")
        taken = [n for n in names if n in _BY_NAME]
        if taken or len(set(names)) != len(names):
            raise ValueError(f"shape name already registered: {', '.join(taken or names)}")
        for name in names:
            _BY_NAME[name] = cls
        _ALIASES[names[0]] = tuple(names[1:])
        cls.kind = names[0]
        return cls

    return decorator


def unregister(kind: str) -> None:
    """Remove a shape (given by its name or an alias) together with all its aliases."""
    canonical = get_shape(kind).kind
    for name in (canonical, *_ALIASES.pop(canonical)):
        del _BY_NAME[name]


def get_shape(kind: str) -> type[Shape]:
    """The class registered under ``kind`` (case-insensitive; aliases allowed)."""
    try:
        return _BY_NAME[_key(kind)]
    except KeyError:
        raise UnknownShapeError(_key(kind)) from None


def available() -> list[str]:
    """Sorted canonical names of all registered shapes (aliases not included)."""
    return sorted(_ALIASES)


def create(kind: str, *dims: float) -> Shape:
    """Instantiate the shape ``kind``, checking the number of dimensions first."""
    cls = get_shape(kind)
    expected = len(fields(cls))  # type: ignore[arg-type]
    if len(dims) != expected:
        plural = "" if expected == 1 else "s"
        raise ValueError(f"{cls.kind} needs {expected} dimension{plural}")
    return cls(*dims)


def split_spec(text: str) -> tuple[str, tuple[float, ...]]:
    """Split ``'Rect 2 3'`` into ``('rect', (2.0, 3.0))``."""
    parts = text.split()
    if not parts:
        raise ValueError("empty shape spec")
    try:
        dims = tuple(float(p) for p in parts[1:])
    except ValueError:
        raise ValueError(f"bad dimension in {text!r}") from None
    return parts[0].lower(), dims


def parse(text: str) -> Shape:
    """Build a shape from a spec such as ``'circle 2.5'``."""
    kind, dims = split_spec(text)
    return create(kind, *dims)
