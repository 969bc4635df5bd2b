"""Account names and the account tree (docs/REQUIREMENTS.md, section 6)."""

from __future__ import annotations

from typing import Iterable, Mapping

from ledgerlite.amount import MixedAmount

__all__ = [
    "ancestors",
    "clip",
    "clip_balances",
    "components",
    "depth",
    "expand",
    "leaf",
    "parent",
    "rollup",
    "sort_accounts",
]


def components(name: str) -> list[str]:
    return name.split(":")


def depth(name: str) -> int:
    return len(components(name))


def leaf(name: str) -> str:
    return components(name)[-1]


def parent(name: str) -> str | None:
    parts = components(name)
    return ":".join(parts[:-1]) if len(parts) > 1 else None


def ancestors(name: str) -> list[str]:
    parts = components(name)
    return [":".join(parts[:i]) for i in range(1, len(parts))]


def clip(name: str, max_depth: int) -> str:
    if max_depth < 1:
        raise ValueError("depth must be at least 1")
    return ":".join(components(name)[:max_depth])


def sort_accounts(names: Iterable[str]) -> list[str]:
    return sorted(set(names), key=components)


def expand(names: Iterable[str]) -> list[str]:
    out: set[str] = set()
    for n in names:
        out.add(n)
        out.update(ancestors(n))
    return sort_accounts(out)


def clip_balances(balances: Mapping[str, MixedAmount], max_depth: int) -> dict[str, MixedAmount]:
    out: dict[str, MixedAmount] = {}
    for name in sort_accounts(balances):
        key = clip(name, max_depth)
        out[key] = out.get(key, MixedAmount()) + balances[name]
    return {k: out[k] for k in sort_accounts(out)}


def rollup(balances: Mapping[str, MixedAmount]) -> dict[str, MixedAmount]:
    out = {name: MixedAmount() for name in expand(balances)}
    for name, bal in balances.items():
        for target in [*ancestors(name), name]:
            out[target] = out[target] + bal
    return out
