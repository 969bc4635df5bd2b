"""The P1 health gate of a WeaveBench task: its catalogue atoms and their any-side coverage.

WeaveBench admits a task only when success needs both channels (P1); realcli audits that
through the task's ``atoms`` (ids of :data:`realcli.schema.atoms.ATOMS`). A weave task with no
``atoms``, or whose atoms are all on one side (no CLI-bound or no GUI-bound atom: Table A2's
any-side level fails), is a problem naming the file and the field. LongCLI tasks are CLI-only
and have no such gate.
"""

from __future__ import annotations

from pathlib import Path

from realcli.schema.atoms import ATOMS, FAMILIES, coverage_levels
from realcli.schema.task_spec import TaskKind, TaskSpec

__all__ = ["p1_atom_problems"]

_FIX = (
    "list the atoms the task's specification requires in task.toml, e.g. "
    'atoms = ["F3", "V1", "V2"], with ids from realcli.schema.atoms (catalogue in docs/weave.md)'
)


def p1_atom_problems(spec: TaskSpec, path: Path) -> list[str]:
    """Problems of a weave task's ``atoms`` (empty: fine, or not a weave task)."""
    if spec.kind is not TaskKind.weave:
        return []
    if not spec.atoms:
        return [
            f"{path}: atoms: missing or empty; a weave task must name its P1 atoms (fix: {_FIX})"
        ]
    levels = coverage_levels(spec.atoms)
    if levels["any_side"]:
        return []
    missing = "cli" if not levels["n_cli_atoms"] else "gui"
    families = " ".join(f for f, (group, _) in FAMILIES.items() if group == missing)
    examples = ", ".join(a.id for a in ATOMS.values() if a.group == missing)[:60]
    return [
        f"{path}: atoms: {list(spec.atoms)} has no {missing.upper()}-bound atom, so any-side "
        f"coverage fails (fix: add the {missing.upper()}-bound atoms (families {families}: "
        f"{examples}...) the task needs, or reconsider whether it is a hybrid task)"
    ]
