"""Rows of ``tool_call_ops``, ``run_task_atoms``, ``run_p1_atoms`` and ``run_gui_apps``
(migration 010) for one run folder.

Tool-call ops come from the ledger's ``tool_call`` events through
:func:`realcli.ledger.atomic_ops.decompose_call`; the task facts from the run's copy of
``task.toml`` (``atoms``, ``[[p1_atoms]]``, ``[[gui.apps]]``), read leniently: an unknown atom
id or a malformed entry is an ``ingest_problems`` row naming the field, and only that entry
is left out. An unreadable task copy is already reported by ``run_folder`` (task_domain).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from realcli.ledger.atomic_ops import decompose_call
from realcli.schema.atoms import ATOMS
from realcli.schema.events import ToolCallEvent
from realcli.util.bounded import BadFile, read_bounded
from realcli.warehouse.problems import Problem

__all__ = ["TOOL_FACT_TABLES", "tool_fact_rows"]

TOOL_FACT_TABLES = ("tool_call_ops", "run_task_atoms", "run_p1_atoms", "run_gui_apps")
_FIX_TASK = "correct the task bundle's task.toml (tasks/<id>/task.toml) and rerun the task"
_LOADED_WITHOUT = "loaded without that entry"


def tool_fact_rows(
    run_key: str,
    events: Sequence[Any],
    task_copy: Path,
    max_task_bytes: int,
    problems: list[Problem],
) -> dict[str, list[dict[str, Any]]]:
    """Every row of :data:`TOOL_FACT_TABLES` for one run (each key present, maybe empty)."""
    tables: dict[str, list[dict[str, Any]]] = {t: [] for t in TOOL_FACT_TABLES}
    tables["tool_call_ops"] = _op_rows(run_key, events)
    doc = _task_doc(task_copy, max_task_bytes)
    if doc is not None:
        _task_rows(run_key, doc, str(task_copy), tables, problems)
    return tables


def _op_rows(run_key: str, events: Sequence[Any]) -> list[dict[str, Any]]:
    rows = []
    for e in events:
        if not isinstance(e, ToolCallEvent):
            continue
        ops = decompose_call(e.name, e.raw_name, e.channel.value, e.atomic_op, e.args)
        for i, op in enumerate(ops):
            rows.append(
                {
                    "run_key": run_key,
                    "seq": e.seq,
                    "call_id": e.call_id,
                    "op_index": i,
                    "op": op.op,
                    "program": op.program,
                    "tool_channel": op.tool_channel,
                    "channel": op.channel,
                    "reattributed": op.reattributed,
                }
            )
    return rows


def _task_doc(path: Path, max_bytes: int) -> dict[str, Any] | None:
    try:
        return tomllib.loads(read_bounded(path, max_bytes).decode("utf-8"))
    except (FileNotFoundError, BadFile, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None  # run_folder reports an unreadable copy once (task_domain)


def _task_rows(
    run_key: str,
    doc: dict[str, Any],
    where: str,
    tables: dict[str, list[dict[str, Any]]],
    problems: list[Problem],
) -> None:
    atoms = doc.get("atoms", [])
    if not isinstance(atoms, list):
        problems.append(
            Problem(where, "atoms", f"not a list ({atoms!r:.60})", _FIX_TASK, "loaded no atoms")
        )
        atoms = []
    for atom_id in dict.fromkeys(a for a in atoms if isinstance(a, str)):
        atom = ATOMS.get(atom_id)
        if atom is None:
            problems.append(
                Problem(
                    where,
                    "atoms",
                    f"unknown atom {atom_id!r:.40} (known: {', '.join(ATOMS)})",
                    _FIX_TASK,
                    _LOADED_WITHOUT,
                )
            )
            continue
        tables["run_task_atoms"].append(
            {
                "run_key": run_key,
                "atom": atom.id,
                "family": atom.family,
                "macro_group": atom.group,
                "anchor": atom.anchor,
            }
        )
    p1 = doc.get("p1_atoms", [])
    for i, entry in enumerate(p1 if isinstance(p1, list) else []):
        field = f"p1_atoms[{i}]"
        ok = (
            isinstance(entry, dict)
            and isinstance(entry.get("id"), str)
            and entry.get("channel") in ("cli", "gui")
            and isinstance(entry.get("text"), str)
        )
        atom = entry.get("atom") if isinstance(entry, dict) else None
        if not ok or not (atom is None or atom in ATOMS):
            problems.append(
                Problem(
                    where,
                    field,
                    "needs id, channel (cli|gui), text and, if given, a known atom",
                    _FIX_TASK,
                    _LOADED_WITHOUT,
                )
            )
            continue
        assert isinstance(entry, dict)
        tables["run_p1_atoms"].append(
            {
                "run_key": run_key,
                "id": entry["id"],
                "channel": entry["channel"],
                "atom": atom,
                "text": entry["text"],
            }
        )
    gui = doc.get("gui")
    apps = gui.get("apps", []) if isinstance(gui, dict) else []
    for app in apps if isinstance(apps, list) else []:
        if isinstance(app, dict) and isinstance(app.get("name"), str):
            window = app.get("window")
            tables["run_gui_apps"].append(
                {
                    "run_key": run_key,
                    "name": app["name"],
                    "window_title": window if isinstance(window, str) else "",
                }
            )
