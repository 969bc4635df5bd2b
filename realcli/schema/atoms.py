"""The P1 atom catalogue: single-channel-bound atomic operations a hybrid task can require.

WeaveBench (seed 002, appendix A.1, Table A1) enumerates 19 atoms in six mechanism-defined
families and two macro-groups (CLI-bound, GUI-bound); F3 (structured artifact) and V1
(screenshot evidence) are the two *anchor* atoms its deliverable contract induces. The seed
names some atoms (K1..K4, N1, F2, F3, F4, V1, V3) without publishing the table's rows; the
mechanisms below are *realcli's reading* (documented in docs/weave.md), one per id, so coverage
can be computed from ``task.toml``'s ``atoms`` field.

Coverage levels (Table A2): *any-side* (at least one atom of each macro-group), *non-universal*
(a binding atom beyond the anchors F3/V1), *depth* (at least two atoms on each side).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ANCHOR_ATOMS",
    "ATOMS",
    "FAMILIES",
    "Atom",
    "coverage_levels",
]

MacroGroup = Literal["cli", "gui"]


@dataclass(frozen=True)
class Atom:
    id: str
    family: str
    group: MacroGroup
    name: str
    mechanism: str
    """What pins the operation to one channel."""
    anchor: bool = False


FAMILIES: dict[str, tuple[MacroGroup, str]] = {
    "K": ("cli", "kernel and process-side evidence"),
    "N": ("cli", "network and service endpoints"),
    "F": ("cli", "files, formats and programmatic transforms"),
    "V": ("gui", "visual perception of rendered state"),
    "I": ("gui", "interaction with a running application"),
    "S": ("gui", "state held only by a running application"),
}
"""Family letter -> (macro-group, what binds its atoms)."""

_ROWS: tuple[tuple[str, str, str, bool], ...] = (
    ("K1", "process inspection", "ps, /proc, lsof: only the shell sees other processes", False),
    ("K2", "logs and journals", "log files and journal output are read by CLI tools", False),
    ("K3", "debugger and tracer", "gdb, strace, ltrace attach from the shell", False),
    ("K4", "resource and kernel state", "dmesg, cgroups, limits, core files", False),
    ("N1", "service probing", "curl, sockets, ports: requests a GUI does not expose", False),
    ("N2", "configuration of a service", "config files and restarts of a daemon", False),
    ("N3", "API and protocol payloads", "raw request/response bodies, headers", False),
    ("F1", "bulk file transformation", "many files rewritten by a script", False),
    ("F2", "code change under test", "source edits verified by tests or a build", False),
    ("F3", "structured artifact", "a JSON/CSV/TOML deliverable written by code", True),
    ("F4", "format conversion", "converting between application file formats by program", False),
    ("V1", "screenshot evidence", "a capture of the real display as a deliverable", True),
    ("V2", "reading rendered values", "numbers, text or colours visible only on screen", False),
    ("V3", "live view correlation", "a live debugger/dashboard view tied to other evidence", False),
    ("I1", "menu and dialog operation", "settings reached only through the app's dialogs", False),
    ("I2", "canvas manipulation", "drag, draw, select on a canvas", False),
    ("I3", "in-app navigation", "levels, pages, tabs advanced only through the window", False),
    ("S1", "unsaved in-memory state", "an open document or session not on disk", False),
    ("S2", "computed application state", "a value the app computes and shows, not stored", False),
)

ATOMS: dict[str, Atom] = {
    atom_id: Atom(atom_id, atom_id[0], FAMILIES[atom_id[0]][0], name, mechanism, anchor)
    for atom_id, name, mechanism, anchor in _ROWS
}
"""The 19 atoms by id, in Table A1's order (CLI-bound families first)."""

ANCHOR_ATOMS = frozenset(a.id for a in ATOMS.values() if a.anchor)


def coverage_levels(atom_ids: tuple[str, ...] | list[str]) -> dict[str, bool | int]:
    """Table A2's three levels for one task's atoms, plus the per-side counts."""
    atoms = [ATOMS[a] for a in dict.fromkeys(atom_ids)]
    cli = [a for a in atoms if a.group == "cli"]
    gui = [a for a in atoms if a.group == "gui"]
    return {
        "n_cli_atoms": len(cli),
        "n_gui_atoms": len(gui),
        "any_side": bool(cli) and bool(gui),
        "non_universal": any(not a.anchor for a in atoms),
        "depth": len(cli) >= 2 and len(gui) >= 2,
    }
