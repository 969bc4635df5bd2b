"""Which tests must share one pytest-xdist worker, and a ``--dist loadgroup`` scheduler that
keeps them together (wired up by ``tests/conftest.py``).

A test that uses a module- or class-scoped fixture (a sweep, a desktop, a class of contract
runs) runs on the worker that built it for its module or class; a test that uses one of
:data:`SESSION_GROUPS` runs on the one worker that builds that session fixture; a test
marked ``@pytest.mark.xdist_group("name")`` runs with the other tests of ``name``. Every
other test is scheduled on its own, as ``--dist load`` does.

Why not xdist's own ``loadgroup``: it passes the group from the worker to the controller by
appending ``@group`` to ``item._nodeid``, which pytest 9.2 no longer reads (node ids are
structured, ``item._id``), so it silently stops grouping (pytest-dev/pytest-xdist#1386).
Here the workers write ``{node id: group}`` to a file the controller names
(:data:`GROUPS_ENV`) while they collect, before they report their collection, and the
controller's scheduler (xdist's documented ``pytest_xdist_make_scheduler`` hook, a
``LoadGroupScheduling`` whose ``_split_scope`` reads that file) groups by it. Node ids stay
unchanged (no ``@group`` suffix in reports or ``--lf``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from xdist.scheduler import LoadGroupScheduling

__all__ = ["GROUPS_ENV", "SESSION_GROUPS", "GroupScheduling", "group_of", "write_groups"]

GROUPS_ENV = "PYTEST_REALCLI_XDIST_GROUPS"
"""The file the workers write the groups to (set by the controller for its workers)."""

SESSION_GROUPS = ("limits_sweep", "lightsout_replay")
"""Session fixtures too costly to build once per worker: every test using one (directly or
through another fixture: the judge tests' ``replay_copy``, the analysis ``report_store``) runs
on the same worker (group ``session-<fixture>``, the first listed that it uses)."""


def group_of(item: pytest.Item) -> str | None:
    """The group ``item`` must run in, or None (it may run on any worker)."""
    mark = item.get_closest_marker("xdist_group")
    if mark is not None:
        return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
    if not isinstance(item, pytest.Function):
        return None
    defs = item._fixtureinfo.name2fixturedefs
    for name in SESSION_GROUPS:
        if name in defs:
            return f"session-{name}"
    scopes = {d.scope for name in item.fixturenames for d in defs.get(name, ())}
    for scope, node_type in (
        ("package", pytest.Package),
        ("module", pytest.Module),
        ("class", pytest.Class),
    ):
        node = item.getparent(node_type) if scope in scopes else None
        if node is not None:
            return node.nodeid
    return None


def write_groups(path: Path, items: list[pytest.Item]) -> None:
    """Write ``{node id: group}`` of the grouped ``items`` to ``path`` (atomically: every
    worker writes the same content)."""
    groups = {item.nodeid: g for item in items if (g := group_of(item)) is not None}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(groups, indent=0, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


class GroupScheduling(LoadGroupScheduling):
    """``--dist loadgroup`` with the groups the workers wrote to ``os.environ[GROUPS_ENV]``
    (read once, after every worker has collected). A node id absent from the file keeps
    xdist's own rule (an ``@group`` suffix, with a pytest that still honours it)."""

    _groups: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self._groups is None:
            self._groups = json.loads(Path(os.environ[GROUPS_ENV]).read_text(encoding="utf-8"))
        group = self._groups.get(nodeid)
        return f"group:{group}" if group is not None else super()._split_scope(nodeid)
