"""The expected-test inventory of a task: every F2P and P2P node id that pytest collects on
the reference solution from the bundle's tests, the ids a ``location = "workspace"`` set
names, and the one result of each score-file set. Grading checks reports against it, so a
test that vanishes from a report (deleted, skipped by a tampered collection, crashed away)
counts as ``missing``.

Computed once per task digest and pytest version (reference applied in a sandbox,
``pytest --collect-only``) and cached as JSON under ``<paths.cache_dir>/inventory/``; each
run keeps its own copy in
``tests/expected.json`` so that regrading never needs the cache or a sandbox.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping
from importlib.metadata import version
from pathlib import Path

from realcli.catalog import TaskBundle
from realcli.grading.sets import bundle_pytest_sets, fixed_expectations
from realcli.grading.testrun import collect_test_ids
from realcli.runner.workspace import apply_reference, prepare_workspace, sandbox_options
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.util.errors import TaskError

__all__ = ["expected_tests", "store_inventory"]


def _compute(
    task: TaskBundle, make_sandbox: Callable[[SandboxOptions], Sandbox]
) -> dict[str, list[str]]:
    """The bundle's pytest sets collected on the reference; every other set's expected ids
    are known from task.toml (:func:`realcli.grading.sets.fixed_expectations`)."""
    fixed = fixed_expectations(task.spec.tests)
    collected = bundle_pytest_sets(task.spec.tests)
    if not collected:
        return fixed
    with tempfile.TemporaryDirectory(prefix="realcli-inventory-") as tmp:
        workspace = Path(tmp) / "ws"
        prepare_workspace(task, workspace, make_sandbox)
        apply_reference(task, workspace, make_sandbox)
        inventory, result = collect_test_ids(
            tests_dir=task.tests_dir,
            workspace=workspace,
            options=sandbox_options(task, workspace),
            make_sandbox=make_sandbox,
            timeout_s=task.spec.timeouts.tests_s,
            test_sets=collected,
        )
    empty = [test_set for test_set, ids in inventory.items() if not ids]
    if empty or result.returncode != 0:
        tail = (result.stdout + result.stderr).strip()[-400:]
        raise TaskError(
            str(task.tests_dir), None,
            f"tests do not collect on the reference solution (exit {result.returncode}"
            f"{', nothing in ' + ' and '.join(empty) if empty else ''}): {tail}",
            f"run `realcli tasks check {task.id}` and fix the tests or the reference",
        )  # fmt: skip
    return {**inventory, **fixed}


def store_inventory(cache_dir: Path, task: TaskBundle, inventory: Mapping[str, list[str]]) -> None:
    """Write ``inventory`` as the cached inventory of ``task`` (atomically)."""
    path = _cache_path(cache_dir, task)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(inventory, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def _cache_path(cache_dir: Path, task: TaskBundle) -> Path:
    """Keyed by the task's digest and the grader's pytest version (which names the tests)."""
    return cache_dir / f"{task.id}-{task.digest[:16]}-pytest{version('pytest')}.json"


def expected_tests(
    task: TaskBundle, make_sandbox: Callable[[SandboxOptions], Sandbox], cache_dir: Path
) -> dict[str, list[str]]:
    """The task's expected node ids per test set (cached per task digest)."""
    path = _cache_path(cache_dir, task)
    if path.is_file():
        try:
            cached = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(cached, dict) and all(isinstance(v, list) for v in cached.values()):
                return {str(k): [str(i) for i in v] for k, v in cached.items()}
        except ValueError:
            pass  # a torn cache file: compute again
    inventory = _compute(task, make_sandbox)
    store_inventory(cache_dir, task, inventory)
    return inventory
