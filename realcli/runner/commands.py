"""The non-Hydra ``realcli`` commands: tasks list/check, ingest, report, show, regrade,
progress."""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from pydantic import ValidationError

from realcli.catalog import load_task
from realcli.grading.sets import load_round
from realcli.grading.verdict import (
    build_verdict,
    labels_from_ledger,
    outcome_from_ledger,
    screenshot_hashes,
)
from realcli.ledger import read_ledger
from realcli.ledger.layout import EXPECTED, LEDGER, TASK_COPY, VERDICT, run_folders
from realcli.runner.folders import read_verdict, write_json_atomic
from realcli.runner.health import check_task
from realcli.runner.show_judgements import print_judgements
from realcli.sandbox import Sandbox, SandboxOptions, make_sandbox
from realcli.schema.run_spec import DockerSpec
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import Verdict
from realcli.util.bounded import MIB, BadFile, read_json_file
from realcli.util.errors import ConfigError, RealcliError, TaskError
from realcli.util.validation import describe_validation_error

__all__ = [
    "AmbiguousRunKey",
    "find_run",
    "images",
    "ingest",
    "progress",
    "regrade",
    "show",
    "tasks_check",
    "tasks_import",
    "tasks_list",
]


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


def ingest(runs_dir: Path, warehouse: Path, wait_s: float = 60.0) -> int:
    """Load the runs folder; a second ingest of the same warehouse waits for the first (up to
    ``wait_s`` seconds, then one error line)."""
    from realcli.warehouse import connect, writer_lock
    from realcli.warehouse import ingest as ingest_runs

    if not 0 <= wait_s <= 86400:  # also rejects nan
        raise RealcliError(
            "command line", "--wait", f"{wait_s:g} is not a number of seconds", "use 0 to 86400"
        )
    say = partial(print, file=sys.stderr, flush=True)
    with writer_lock(warehouse, wait_s, on_wait=lambda line: say(f"realcli: {line}")):
        con = connect(warehouse)
        try:
            stats = ingest_runs(con, runs_dir)
        finally:
            con.close()
    for problem in stats.problems:
        print(f"warning: {problem}", file=sys.stderr)
    print(
        f"ingested {runs_dir} into {warehouse}: {stats.loaded} loaded, {stats.unchanged} unchanged,"
        f" {stats.incomplete} incomplete, {stats.removed} removed, {stats.skipped} skipped,"
        f" {len(stats.problems)} problems"
    )
    return 0


def _run_dirs(runs_dir: Path) -> list[Path]:
    """Run folders that have a ledger (a run started in them)."""
    if not runs_dir.is_dir():
        return []
    return [d for d in run_folders(runs_dir) if (d / LEDGER).is_file()]


class AmbiguousRunKey(RealcliError):
    """A prefix that matches several runs; ``details``: one line per match."""

    def __init__(self, runs_dir: Path, key: str, matches: Sequence[Path]) -> None:
        from realcli.runner.listing import read_run_row

        rows = [read_run_row(d) for d in matches]
        self.details = [
            f"  {r.run_key}  {r.task}  model={r.model} seed={'?' if r.seed is None else r.seed}"
            f"  {r.status}  ({r.experiment})"
            for r in rows
        ]
        names = sorted(d.name for d in matches)
        unique = [_unique_prefix(n, names, len(key) + 1) for n in names]
        longer = ", ".join(unique[:3]) + (", ..." if len(unique) > 3 else "")
        super().__init__(
            str(runs_dir),
            "RUN_KEY",
            f"{len(matches)} runs match {key!r}",
            f"give a longer prefix ({longer}) or the whole key; the matches follow",
        )


def _unique_prefix(name: str, names: Sequence[str], shortest: int) -> str:
    """The shortest prefix of ``name`` (at least ``shortest`` long) no other name starts with."""
    for n in range(shortest, len(name)):
        if sum(other.startswith(name[:n]) for other in names) == 1:
            return name[:n]
    return name


def find_run(runs_dir: Path, key: str) -> Path:
    matches = [d for d in _run_dirs(runs_dir) if d.name.startswith(key)]
    if len(matches) > 1:
        raise AmbiguousRunKey(runs_dir, key, matches)
    if not matches:
        raise RealcliError(
            str(runs_dir),
            "RUN_KEY",
            f"no run matching {key!r}",
            "give a run key or a unique prefix of one (`realcli runs` lists them)",
        )
    return matches[0]


def show(runs_dir: Path, key: str) -> int:
    run_dir = find_run(runs_dir, key)
    ledger = read_ledger(run_dir / LEDGER)
    spec = ledger.header.spec

    def axis(name: str) -> object:
        value = spec.get(name)
        return value.get("name", "?") if isinstance(value, dict) else "?"

    print(f"run {ledger.header.run_key}  ({run_dir})")
    print(f"  task       {ledger.header.task_id}  digest {ledger.header.task_digest[:12]}")
    print(
        f"  experiment {ledger.header.experiment}  model={axis('model')}"
        f" harness={axis('harness')} mode={axis('mode')}"
        f" protocol={axis('protocol')} seed={spec.get('seed', '?')}"
    )
    kinds = Counter(e.kind for e in ledger.events)
    tokens_in = sum(e.tokens_in for e in ledger.events if e.kind == "model_call")
    tokens_out = sum(e.tokens_out for e in ledger.events if e.kind == "model_call")
    print(
        f"  ledger     {len(ledger.events) + 1} events, complete={ledger.complete}: "
        + ", ".join(f"{k}={n}" for k, n in sorted(kinds.items()))
    )
    print(f"  tokens     in={tokens_in} out={tokens_out}")
    for line in ledger.problems:
        print(f"  problem    {line}")
    v, unreadable = read_verdict(run_dir, ledger.header.run_key)
    if v is None:
        why = f"unreadable ({unreadable})" if unreadable else "none"
        print(f"  verdict    {why}: the run did not finish (the next `realcli run` redoes it)")
        return 0
    if not any(e.kind == "run_end" for e in ledger.events):
        print(
            "  run_end    missing after verdict.json (the run stopped between the two): the next"
            " `realcli run` of it appends it from the verdict"
        )
    print(
        f"  verdict    {v.status.value}: Pass={int(v.passed)} F2P pass={int(v.f2p_pass)}"
        f" step={v.f2p_step:.2f}  {_p2p_text(v)}"
        f"  wall={v.wall_time_s:.1f}s agent={v.agent_time_s:.1f}s tests={v.tests_time_s:.1f}s"
    )
    if v.error:
        print(f"  error      {v.error}")
    for rnd in v.rounds:
        marks = " ".join(
            f"{s.id}:{'ok' if s.passed else f'{s.tests_passed}/{s.tests_total}'}"
            for s in rnd.substeps
        )
        print(f"  round {rnd.round}    sub-steps {marks}")
        failing = [t for t in rnd.tests if t.outcome.value != "passed"]
        for t in failing[:10]:
            first = t.message.splitlines()[0][:80] if t.message else ""
            print(f"    {t.outcome.value:7s} {t.test_set} {t.nodeid}  {first}")
        if len(failing) > 10:
            print(f"    ... {len(failing) - 10} more")
    print_judgements(run_dir)
    return 0


_SAVED_ROUND = re.compile(r"round-(\d{1,6})\.[a-z0-9]+\.(?:xml|guard\.json|scoreset\.json)")
"""A file a round's grading saves: JUnit XML, guard record, score-file set record."""


def _step(value: float | None) -> str:
    return "none" if value is None else f"{value:.2f}"


def _p2p_text(v: Verdict) -> str:
    if v.p2p_pass is None:
        return "P2P none (the task has no P2P set)"
    return f"P2P pass={int(v.p2p_pass)} step={_step(v.p2p_step)}"


def regrade(runs_dir: Path, keys: Sequence[str]) -> int:
    """Rebuild ``verdict.json`` of finished runs from their saved test output and ledger."""
    run_dirs = [find_run(runs_dir, k) for k in keys] if keys else _run_dirs(runs_dir)
    changed = failed = 0
    for run_dir in run_dirs:
        old, problem = read_verdict(run_dir)
        if old is None:
            why = f" (verdict unreadable: {problem}; the next `realcli run` redoes it)"
            print(f"skip     {run_dir.name}: not finished" + (why if problem else ""))
            continue
        try:
            new = _regraded(run_dir, old)
        except RealcliError as exc:
            print(f"error    {run_dir.name}: {exc}")
            failed += 1
            continue
        write_json_atomic(run_dir / VERDICT, new.model_dump(mode="json"))
        same = (old.passed, old.f2p_step, old.p2p_step) == (new.passed, new.f2p_step, new.p2p_step)
        changed += not same
        print(
            f"regraded {run_dir.name}: pass {int(old.passed)}->{int(new.passed)}"
            f" f2p_step {old.f2p_step:.2f}->{new.f2p_step:.2f}"
            f" p2p_step {_step(old.p2p_step)}->{_step(new.p2p_step)}"
        )
    print(
        f"{len(run_dirs)} runs, {changed} verdicts changed"
        + (f", {failed} could not be regraded" if failed else "")
    )
    return 1 if failed else 0


def _regraded(run_dir: Path, old: Verdict) -> Verdict:
    """The verdict rebuilt from the run's saved test output, task.toml copy and ledger."""
    task_doc = load_task_copy(run_dir)
    try:
        task = TaskSpec.model_validate(task_doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or None
        raise TaskError(str(run_dir / TASK_COPY), where, first["msg"], "rerun this run") from exc
    ledger = read_ledger(run_dir / LEDGER)
    status, error, timings = outcome_from_ledger(ledger)
    rounds = sorted(
        {
            int(m.group(1))
            for p in (run_dir / "tests").glob("round-*")
            if (m := _SAVED_ROUND.fullmatch(p.name))
        }
    )
    expected_path = run_dir / "tests" / EXPECTED
    expected = None
    if expected_path.exists():
        try:
            expected = read_json_file(expected_path, 64 * MIB)
        except BadFile as exc:
            raise RealcliError(str(expected_path), None, str(exc), "rerun this run") from exc
    saved = {n: load_round(run_dir / "tests", n, task.tests) for n in rounds}
    return build_verdict(
        task=task,
        run_key=old.run_key,
        rounds={n: s.results for n, s in saved.items()},
        tampered={n: s.tampered for n, s in saved.items()},
        status=status,
        error=error,
        timings=timings,
        expected=expected,
        workspace=run_dir / "workspace" if (run_dir / "workspace").is_dir() else None,
        screenshots=screenshot_hashes(ledger),
        labels=labels_from_ledger(ledger),
    )


def progress(
    runs_dir: Path,
    tasks_dir: Path,
    keys: Sequence[str],
    *,
    grid: int = 8,
    exhaustive: bool = False,
) -> int:
    """Compute ``progress.json`` of finished runs that have workspace snapshots (exit 1 when
    a run could not be replayed)."""
    from realcli.ledger.layout import SNAPSHOTS_GIT, SPEC
    from realcli.progress import load_snapshots, progress_for_run, progress_table

    if grid < 0:
        raise RealcliError("command line", "--grid", f"{grid} is negative", "use 0 or more")
    run_dirs = [find_run(runs_dir, k) for k in keys] if keys else _run_dirs(runs_dir)
    failed = done = 0
    for run_dir in run_dirs:
        if not (run_dir / VERDICT).is_file():
            print(f"skip     {run_dir.name}: not finished")
            continue
        if not (run_dir / SNAPSHOTS_GIT).is_dir() or not load_snapshots(run_dir / LEDGER):
            print(f"skip     {run_dir.name}: no workspace snapshots")
            continue
        header = read_ledger(run_dir / LEDGER).header
        try:
            doc = read_json_file(run_dir / SPEC, 16 * MIB)
        except (FileNotFoundError, BadFile):
            doc = {}
        spec = doc.get("spec") if isinstance(doc, dict) else None
        sandbox = spec.get("sandbox") if isinstance(spec, dict) else None
        kind = sandbox.get("kind", "local") if isinstance(sandbox, dict) else "local"
        try:
            task = load_task(tasks_dir / header.task_id)
            report = progress_for_run(
                run_dir, task, partial(make_sandbox, kind), grid=grid, exhaustive=exhaustive
            )
        except RealcliError as exc:
            print(f"error    {run_dir.name}: {exc}")
            failed += 1
            continue
        done += 1
        print(
            f"progress {run_dir.name} {header.task_id}: {report.method}"
            + (f" grid={report.grid}" if report.method == "bisection" else "")
            + f", {len(report.evaluations)}/{report.n_snapshots} snapshots evaluated"
            f" (last step {report.last_step}) in {report.seconds:.1f}s"
        )
        print(progress_table(report))
    print(f"{len(run_dirs)} runs, {done} replayed, {failed} failed")
    return 1 if failed else 0


def load_task_copy(run_dir: Path) -> dict[str, object]:
    import tomllib

    path = run_dir / TASK_COPY
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TaskError(str(path), None, f"unreadable ({exc})", "rerun this run") from exc


def agents_list(agents_dir: Path) -> int:
    """One line per harness (and Node): name, package kind, pinned version, installed or not,
    the modes it supports, and its executable or the command that installs it."""
    from realcli.harness.base import HARNESSES
    from realcli.harness.install import NODE, InstallError, Recipe, find_install
    from realcli.runner.capabilities import mode_list

    rows: list[tuple[str, Recipe | None, str]] = [("node", NODE, "-")]
    rows += [(name, cls.RECIPE, ",".join(mode_list(cls.MODES))) for name, cls in HARNESSES]
    for name, recipe, modes in rows:
        if recipe is None:
            kind, version, state, where = "-", "-", "n/a", "nothing to install"
        else:
            kind, version = recipe.kind, recipe.version
            try:
                where, state = str(find_install(recipe.name, agents_dir).entry), "installed"
            except InstallError:
                where, state = f"`realcli agents install {recipe.name}`", "missing"
        print(f"{name:<12} {kind:<4} {version:<10} {state:<9} {modes:<24} {where}")
    return 0


def agents_install(agents_dir: Path, names: Sequence[str], *, force: bool = False) -> int:
    """Install the named agents (``all``: every one) at their pinned versions."""
    import time

    from realcli.harness.install import install, recipes

    known = recipes()
    wanted = list(known) if "all" in names else list(dict.fromkeys(names))
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise RealcliError(
            "command line", "AGENT", f"no agent {unknown[0]!r}", f"use one of {sorted(known)}"
        )
    for name in wanted:
        started = time.monotonic()
        done = install(name, agents_dir, force=force)
        seconds = time.monotonic() - started
        print(f"{name} {done.recipe.version}: {done.entry} ({seconds:.1f}s)", flush=True)
    return 0


def _docker_spec(overrides: Sequence[str]) -> DockerSpec:
    """``sandbox.docker`` as ``realcli run sandbox=docker`` composes it, with ``overrides``."""
    from hydra import compose, initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf import OmegaConf

    from realcli.runner.app import CONF_DIR

    bad = [o for o in overrides if not o.lstrip("+~").startswith("sandbox.docker.")]
    if bad:
        raise ConfigError("command line", bad[0], "not a docker option", "use sandbox.docker.KEY=V")
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            cfg = compose(config_name="config", overrides=["sandbox=docker", *overrides])
    except HydraException as exc:
        raise ConfigError(
            "command line", None, str(exc).splitlines()[0], "fix the override"
        ) from exc
    raw = OmegaConf.to_container(cfg.sandbox.docker, resolve=True)
    try:
        return DockerSpec.model_validate(raw)
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, DockerSpec)
        raise ConfigError("conf/sandbox/docker.yaml", f"docker.{field}", problem, fix) from exc


def images(action: str, tasks_dir: Path, args: Sequence[str]) -> int:
    """``realcli images build|list|prune``: ``args`` are task ids (build only; prune weighs
    every task) and ``sandbox.docker.KEY=VALUE`` overrides."""
    from realcli.sandbox import images_cli

    docker_spec = _docker_spec([a for a in args if "=" in a])
    ids = [a for a in args if "=" not in a]
    if action == "list":
        return images_cli.images_list(docker_spec)
    if ids and action == "prune":
        raise ConfigError("command line", "TASK", "prune weighs every task", "drop the task ids")
    roots = [tasks_dir / t for t in ids] or sorted(p.parent for p in tasks_dir.glob("*/task.toml"))
    bundles = [load_task(root) for root in roots]
    if action == "build":
        return images_cli.images_build(bundles, docker_spec)
    return images_cli.images_prune(bundles, tasks_dir, docker_spec)
