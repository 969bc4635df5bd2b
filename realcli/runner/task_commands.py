"""``realcli tasks list|check|import``: the task catalog from the command line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from realcli.catalog import load_task
from realcli.runner.health import check_task
from realcli.sandbox import Sandbox, SandboxOptions, make_sandbox
from realcli.schema.run_spec import DockerSpec
from realcli.util.errors import RealcliError, TaskError

__all__ = ["tasks_check", "tasks_import", "tasks_list"]


def tasks_list(tasks_dir: Path) -> int:
    """One line per task; a bundle that does not load is listed with its error (exit 1)."""
    if not tasks_dir.is_dir():
        raise TaskError(str(tasks_dir), None, "no such tasks directory", "pass --tasks-dir")
    print(f"{'id':34s} {'kind':8s} {'category':13s} {'sub-steps':>9s} {'F2P files':>9s}  suites")
    bundles, broken = [], 0
    for root in sorted(p.parent for p in tasks_dir.glob("*/task.toml")):
        try:
            bundles.append(load_task(root))
        except RealcliError as exc:
            broken += 1
            print(f"{root.name:34s} BROKEN   {exc}")
    for b in bundles:
        s = b.spec
        print(
            f"{s.id:34s} {s.kind.value:8s} {s.category.value:13s} {len(s.substeps):>9d}"
            f" {len(b.test_files('f2p')):>9d}  {','.join(s.suites)}"
        )
    print(f"{len(bundles)} tasks in {tasks_dir}" + (f", {broken} broken" if broken else ""))
    return 1 if broken else 0


def _check_sandbox(
    root: Path, sandbox: str, image_dirs: Sequence[Path]
) -> Callable[[SandboxOptions], Sandbox]:
    """The sandbox factory a check of ``root`` uses: local, or docker in the task's image."""
    if sandbox == "local":
        return partial(make_sandbox, "local")
    from realcli.sandbox.docker_image import sandbox_factory
    from realcli.schema.run_spec import SandboxSpec

    docker = DockerSpec(image_dirs=tuple(str(d) for d in image_dirs))
    return sandbox_factory(SandboxSpec(kind="docker", docker=docker), load_task(root))


def tasks_check(
    tasks_dir: Path,
    task_ids: Sequence[str],
    repeat: int,
    cache_dir: Path | None = None,
    sandbox: str = "local",
    image_dirs: Sequence[Path] = (),
) -> int:
    if repeat < 1:
        raise TaskError(
            "command line", "--repeat", f"{repeat} is not a positive count", "use 1 or more"
        )
    roots = [tasks_dir / t for t in task_ids] or sorted(
        p.parent for p in tasks_dir.glob("*/task.toml")
    )
    if not roots:
        raise TaskError(str(tasks_dir), None, "no task folders found", "pass --tasks-dir")
    failed = 0
    for root in roots:
        if not (root / "task.toml").is_file():
            print(f"FAIL {root.name}: {root}/task.toml: missing (fix: check the task id)")
            failed += 1
            continue
        try:
            factory = _check_sandbox(root, sandbox, image_dirs)
        except RealcliError as exc:  # e.g. a task.toml that does not load: the schema gate
            print(f"FAIL {root.name}: {exc}")
            failed += 1
            continue
        health = check_task(root, factory, repeat=repeat, cache_dir=cache_dir, sandbox_kind=sandbox)
        flaky = {t: r for t, r in health.flake_rates.items() if r}
        verdict = "ok  " if health.ok else "FAIL"
        print(
            f"{verdict} {health.task_id}: {health.n_f2p} F2P, {health.n_p2p} P2P tests;"
            f" flake rate {max(health.flake_rates.values(), default=0.0):.2f}"
            f" over {repeat} repeat(s)"
        )
        for gate in health.gates:
            if not gate.ok:
                print(f"     gate {gate.name}: {gate.detail}")
        for test_set, score in sorted(health.initial_scores.items()):
            print(f"     initial score {test_set}: {score:g}")
        for line in health.warnings:
            print(f"     warning {line}")
        for test, rate in sorted(flaky.items()):
            print(f"     flaky {test}: {rate:.2f}")
        failed += not health.ok
    print(f"{len(roots) - failed}/{len(roots)} tasks healthy")
    return 1 if failed else 0


def tasks_import(
    fmt: str,
    sources: Sequence[Path],
    tasks_dir: Path,
    task_id: str | None = None,
    category: str | None = None,
    *,
    images_dir: Path | None = None,
    force: bool = False,
) -> int:
    """Import every task ``sources`` name (``realcli.catalog.import_batch``). One task: print
    its IMPORT_REPORT.md (an error stops with it); several: one summary line each, the bad
    ones never stopping the others (exit 1 when any failed)."""
    from realcli.catalog.import_batch import import_many

    outcomes = import_many(
        fmt,
        sources,
        tasks_dir,
        task_id=task_id,
        category=category,
        images_dir=images_dir,
        force=force,
    )
    done = list(outcomes)
    if len(done) == 1:
        only = done[0]
        if only.error is not None:
            raise only.error
        assert only.result is not None
        print(only.result.report_markdown)
        print(f"imported {only.result.bundle.id} into {only.result.bundle.root}")
        print(f"check it: {only.result.check_command}")
        return 0
    for outcome in done:
        print(outcome.line, flush=True)
    failed = sum(o.error is not None for o in done)
    print(f"{len(done) - failed}/{len(done)} tasks imported into {tasks_dir}")
    return 1 if failed else 0
