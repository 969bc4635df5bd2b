"""Classical-mode settings."""

import dataclasses
from typing import Dict

__all__ = [
    "ClassicalOptions",
]


@dataclasses.dataclass(frozen=True)
class ClassicalOptions:
    """Which classical (Latin, Greek or archaic) inflections an engine uses.

    ``all`` chooses the classical alternative of nouns that have both (e.g.
    "formulae" rather than "formulas"); ``zero`` treats a count of zero as
    singular ("no error"); ``herd`` uses the uninflected plural of herd animals
    ("buffalo"); ``names`` leaves proper names ending in "s" unchanged;
    ``persons`` pluralizes "person" as "persons"; ``ancient`` uses archaic plurals.

    Instances are immutable: use :func:`dataclasses.replace` (or
    ``engine.classical(...)``) to derive new settings.
    """

    all: bool = False
    zero: bool = False
    herd: bool = False
    names: bool = True
    persons: bool = False
    ancient: bool = False

    @classmethod
    def enabled(cls) -> "ClassicalOptions":
        """Every classical mode turned on."""
        return cls(**{field.name: True for field in dataclasses.fields(cls)})

    @classmethod
    def disabled(cls) -> "ClassicalOptions":
        """Every classical mode turned off."""
        return cls(**{field.name: False for field in dataclasses.fields(cls)})

    @classmethod
    def mode_names(cls) -> tuple:
        """The names of the classical modes, in declaration order."""
        return tuple(field.name for field in dataclasses.fields(cls))

    def as_dict(self) -> Dict[str, bool]:
        """The settings as a ``{mode: bool}`` dict (the old ``classical_dict``)."""
        return dataclasses.asdict(self)
