"""One registry type for realcli's extension points, filled by built-ins and by entry points
the same way.

Every extension point is one :class:`Registry`: harnesses (``realcli.harnesses``), sandbox
backends (``realcli.sandboxes``), gateway backends (``realcli.backends``), tool tables
(``realcli.toolsets``), judges, clause checkers, cheat detectors and figures
(``realcli.figures``); docs/extending.md. A registry maps a name to a component (a class, a
table or a module). Built-ins register with the :meth:`Registry.register` decorator when their
module is imported; a plugin package registers through the entry-point group the registry
names (``[project.entry-points."realcli.judges"] myjudge = "mypkg.judge:MyJudge"``). Config
names a component by its registry name, never by an import path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import import_module
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from realcli.util.errors import ConfigError
from realcli.util.validation import did_you_mean

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(Generic[T]):
    """Named components of one kind. ``builtins``: modules imported (once) before the first
    lookup, so registering is a side effect of importing them."""

    def __init__(
        self, kind: str, group: str, builtins: tuple[str, ...] = (), *, ordered: bool = False
    ) -> None:
        self.kind = kind
        self.group = group
        self._builtins = builtins
        self._items: dict[str, T] = {}
        self._loaded = False
        self._ordered = ordered
        """Iterate in order (built-ins in the order of their modules, then what registered
        otherwise as registered, plugins by entry-point name) instead of by name."""

    def register(self, name: str) -> Callable[[T], T]:
        def add(item: T) -> T:
            if name in self._items and self._items[name] is not item:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._items[name] = item
            return item

        return add

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        for module in self._builtins:
            import_module(module)
        for ep in sorted(entry_points(group=self.group), key=lambda e: e.name):
            if ep.name not in self._items:  # a built-in of that name wins
                self._items[ep.name] = ep.load()

    def names(self) -> list[str]:
        self._load()
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._items

    def __iter__(self) -> Iterator[tuple[str, T]]:
        self._load()
        items = list(self._items.items())
        return iter(sorted(items, key=self._rank) if self._ordered else sorted(items))

    def _rank(self, entry: tuple[str, T]) -> int:
        """Components of the ``builtins`` modules in those modules' order (not in import
        order, which depends on who imported what first); every other one after them, in
        registration order (the sort is stable)."""
        item = entry[1]
        module = getattr(item, "__module__", None) or getattr(item, "__name__", "")
        return self._builtins.index(module) if module in self._builtins else len(self._builtins)

    def __len__(self) -> int:
        self._load()
        return len(self._items)

    def __getitem__(self, name: str) -> T:
        return self.get(name)

    def values(self) -> list[T]:
        """The components, in iteration order."""
        return [item for _, item in self]

    def get(self, name: str, where: str = "config", field: str | None = None) -> T:
        """The component ``name``; a clear error naming ``where``/``field`` when unknown."""
        self._load()
        try:
            return self._items[name]
        except KeyError:
            known = self.names()
            raise ConfigError(
                where,
                field,
                f"no {self.kind} {name!r}",
                f"{did_you_mean(name, known)}use one of {', '.join(known)}",
            ) from None
