"""Write an imported bundle's ``task.toml``: top-level keys, ``[timeouts]``, ``[resources]``,
``[tests.f2p]`` / ``[tests.p2p]`` (or ``p2p = false``), ``[environment]`` and the
``[[substeps]]``. Values are strings, numbers, booleans and lists of them (JSON string
escapes are valid TOML basic strings); the result is read back by :func:`load_task`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["TomlSubStep", "task_toml", "toml_value"]


@dataclass(frozen=True)
class TomlSubStep:
    id: str
    title: str
    tests: tuple[str, ...]
    depends_on: tuple[str, ...] = ()
    guidance: str | None = None


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(float(value)) if isinstance(value, float) else str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def task_toml(
    bundle: Path,
    top: Mapping[str, object],
    tables: Mapping[str, Mapping[str, object]],
    tests: Mapping[str, Mapping[str, object] | bool],
    substeps: Sequence[TomlSubStep],
) -> None:
    """Write ``bundle/task.toml``. ``tests`` maps a set to its table, or to False (no set)."""
    lines = [f"{k} = {toml_value(v)}" for k, v in top.items()]
    for name, table in tables.items():
        if table:
            lines += ["", f"[{name}]"] + [f"{k} = {toml_value(v)}" for k, v in table.items()]
    if tests:
        lines += ["", "[tests]"]
        lines += [f"{k} = false" for k, v in tests.items() if v is False]
        for kind, spec in tests.items():
            if isinstance(spec, Mapping):
                lines += ["", f"[tests.{kind}]"]
                lines += [f"{k} = {toml_value(v)}" for k, v in spec.items()]
    for sub in substeps:
        lines += ["", "[[substeps]]", f"id = {toml_value(sub.id)}"]
        lines += [f"title = {toml_value(sub.title)}", f"tests = {toml_value(list(sub.tests))}"]
        lines += ["weight = 1.0", f"depends_on = {toml_value(list(sub.depends_on))}"]
        if sub.guidance:
            lines.append(f"guidance = {toml_value(sub.guidance)}")
    (bundle / "task.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
