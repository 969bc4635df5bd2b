"""The task record and its JSON representation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def normalize_tags(tags: list[str] | tuple[str, ...]) -> list[str]:
    """Lower-case tags, strip a leading ``#``, drop blanks and duplicates (keeping order)."""
    out: list[str] = []
    for raw in tags:
        tag = raw.strip().lstrip("#").lower()
        if tag and tag not in out:
            out.append(tag)
    return out


@dataclass
class Task:
    id: int
    title: str
    done: bool = False
    tags: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "done": self.done, "tags": list(self.tags)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Task:
        return cls(
            id=int(data["id"]),
            title=str(data["title"]),
            done=bool(data.get("done", False)),
            tags=normalize_tags(data.get("tags", [])),
        )
