"""The ``realcli`` command line. ``realcli run`` hands its arguments to the Hydra app."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from realcli import __version__
from realcli.util.errors import RealcliError

__all__ = ["main"]

COMMANDS = {
    "run": "compose an experiment from Hydra overrides and run it (--multirun sweeps)",
    "tasks list": "list the task bundles under the tasks directory",
    "tasks check": "run the health gates on task bundles (--repeat K for flake rates)",
    "tasks new": "scaffold a task bundle (--kind weave|longcli ID): valid, gates fail until filled",
    "tasks validate": "validate task bundles without running them (schema, clauses, P1 atoms)",
    "tasks import": "convert task folders of a published suite into task bundles (FORMAT PATH...)",
    "tasks import longcli": "import LongCLI-Bench / Terminal-Bench 1 tasks (task.yaml folders)",
    "tasks import harbor": "import Harbor / Terminal-Bench 2 tasks (task.toml folders)",
    "tasks import swebench": "import SWE-bench rows (JSONL, parquet, dataset folders; --repos)",
    "ingest": "load run folders into the DuckDB warehouse (idempotent)",
    "report": "regenerate report/: tables, figures (PNG, SVG) and an offline index.html"
    " (filters and report.* overrides: conf/report)",
    "runs": "list run folders with their status and scores (filters; works mid-sweep)",
    "show": "print a readable summary of one run",
    "regrade": "rebuild verdicts from saved test output without starting an agent",
    "judge": "judge finished runs (judge=NAME; trajectory, outcome_only, agent, tests)",
    "progress": "replay a run's workspace snapshots: when each goal first passed and broke",
    "agents list": "list the agent CLIs realcli can run, their pinned versions and install state",
    "agents install": "install agent CLIs at their pinned versions (npm / venv; idempotent)",
    "images build": "build the sandbox=docker images of tasks from their Dockerfiles (cached)",
    "images list": "list realcli's local Docker images: task, digest, size, age",
    "images prune": "remove realcli's Docker images that no current task needs",
}


def _path(p: argparse.ArgumentParser, flag: str, key: str) -> None:
    """A path option whose default is ``paths.<key>`` of the composed config (conf/paths,
    conf/local and the REALCLI_* environment variables), the value ``realcli run`` uses."""
    p.add_argument(flag, type=Path, default=None, help=f"default: paths.{key} of the config")


def _import_parsers(imp: argparse.ArgumentParser) -> None:
    """``tasks import FORMAT``: one sub-command per importer (realcli.catalog.import_batch)."""
    from realcli.catalog.import_batch import IMPORTERS

    formats = imp.add_subparsers(dest="format", metavar="FORMAT", required=True)
    for name in IMPORTERS:
        fp = formats.add_parser(name, help=COMMANDS.get(f"tasks import {name}", name))
        fp.add_argument(
            "sources",
            type=Path,
            nargs="+",
            metavar="PATH",
            help="task folders, or folders of them (a whole release or dataset)",
        )
        fp.add_argument(
            "--out",
            dest="tasks_dir",
            type=Path,
            default=None,
            metavar="DIR",
            help="tasks dir to write <id>/ into (default: paths.tasks_dir of the config)",
        )
        fp.add_argument(
            "--id", dest="task_id", default=None, metavar="ID", help="default: the folder's name"
        )
        fp.add_argument(
            "--category",
            default=None,
            metavar="CATEGORY",
            help="from_scratch, feature, bugfix or refactor for a category the format does not"
            " define (default: feature; the source's value is kept as a suite)",
        )
        fp.add_argument(
            "--images",
            dest="images_dir",
            type=Path,
            default=None,
            metavar="DIR",
            help="base Dockerfiles FROM names resolve to (a LongCLI-Bench release's"
            " longcli_dockerImage/, found above the task when not given)",
        )
        fp.add_argument("--force", action="store_true", help="replace existing bundles")
    sw = formats.add_parser("swebench", help=COMMANDS["tasks import swebench"])
    sw.add_argument(
        "sources",
        type=Path,
        nargs="+",
        metavar="PATH",
        help="rows files (JSONL, parquet) or folders",
    )
    sw.add_argument(
        "--repos", type=Path, default=None, metavar="DIR", help="the <owner>__<name> git clones"
    )
    sw.add_argument(
        "--install",
        action="append",
        default=[],
        metavar="CMD",
        help="the install command (repeatable) when realcli's table has none",
    )
    sw.add_argument(
        "--out",
        dest="tasks_dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="tasks dir to write <id>/ into (default: paths.tasks_dir of the config)",
    )
    sw.add_argument("--force", action="store_true", help="replace existing bundles")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="realcli",
        description="Run and audit long-horizon agent benchmarks.",
        epilog="`realcli run --help` shows the Hydra app's help and config groups.",
    )
    p.add_argument("--version", action="version", version=f"realcli {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sub.add_parser("run", help=COMMANDS["run"], add_help=False)
    sub.add_parser("judge", help=COMMANDS["judge"], add_help=False)

    tasks = sub.add_parser("tasks", help="list, check and import task bundles")
    tsub = tasks.add_subparsers(dest="tasks_command", metavar="SUBCOMMAND", required=True)
    for name in ("list", "check"):
        tp = tsub.add_parser(name, help=COMMANDS[f"tasks {name}"])
        _path(tp, "--tasks-dir", "tasks_dir")
        if name == "check":
            tp.add_argument("task_ids", nargs="*", metavar="TASK", help="default: every task")
            tp.add_argument(
                "--cache-dir",
                type=Path,
                default=None,
                help="where a healthy task's expected-test inventory is stored"
                " (default: paths.cache_dir of the config)",
            )
            tp.add_argument(
                "--repeat",
                type=int,
                default=1,
                metavar="K",
                help="run each gate K times and report a flake rate per test",
            )
            tp.add_argument(
                "--sandbox",
                choices=("local", "docker"),
                default="local",
                help="check in bubblewrap (local) or in each task's own image (docker)",
            )
            tp.add_argument(
                "--image-dir",
                dest="image_dirs",
                type=Path,
                action="append",
                default=[],
                metavar="DIR",
                help="docker: a folder of base Dockerfiles FROM names resolve to (repeatable;"
                " sandbox.docker.image_dirs)",
            )
    new = tsub.add_parser("new", help=COMMANDS["tasks new"])
    new.add_argument("task_id", metavar="ID", help="the new task's id (its folder name)")
    new.add_argument("--kind", choices=("weave", "longcli"), default="weave")
    new.add_argument("--domain", default="DSK", help="weave: DSK DOC GAM WEB DAV OPS SPA DES")
    new.add_argument("--app", choices=("tk", "calc"), default="tk", help="weave: the GUI app")
    _path(new, "--tasks-dir", "tasks_dir")
    val = tsub.add_parser("validate", help=COMMANDS["tasks validate"])
    val.add_argument("task_ids", nargs="*", metavar="TASK", help="default: every task")
    _path(val, "--tasks-dir", "tasks_dir")
    imp = tsub.add_parser("import", help=COMMANDS["tasks import"])
    _import_parsers(imp)

    for name in ("ingest", "report"):
        ip = sub.add_parser(name, help=COMMANDS[name])
        _path(ip, "--warehouse", "warehouse")
        if name == "ingest":
            _path(ip, "--runs-dir", "runs_dir")
            ip.add_argument(
                "--wait",
                type=float,
                default=60.0,
                metavar="SECONDS",
                help="how long to wait for another ingest of the same warehouse (default 60)",
            )
        else:
            _path(ip, "--out", "report_dir")
            _report_options(ip)

    runs = sub.add_parser("runs", help=COMMANDS["runs"])
    _path(runs, "--runs-dir", "runs_dir")
    for flag, what in _RUNS_FILTERS.items():
        runs.add_argument(f"--{flag}", action="append", default=[], metavar=flag.upper(), help=what)
    runs.add_argument("--json", action="store_true", help="one JSON array of runs, for scripts")

    show = sub.add_parser("show", help=COMMANDS["show"])
    show.add_argument("run_key", metavar="RUN_KEY", help="a run key or a unique prefix of one")
    _path(show, "--runs-dir", "runs_dir")

    regrade = sub.add_parser("regrade", help=COMMANDS["regrade"])
    regrade.add_argument("run_keys", nargs="*", metavar="RUN_KEY", help="default: every run")
    _path(regrade, "--runs-dir", "runs_dir")

    progress = sub.add_parser("progress", help=COMMANDS["progress"])
    progress.add_argument(
        "run_keys", nargs="*", metavar="RUN_KEY", help="default: every finished run"
    )
    _path(progress, "--runs-dir", "runs_dir")
    _path(progress, "--tasks-dir", "tasks_dir")
    progress.add_argument(
        "--grid",
        type=int,
        default=8,
        metavar="N",
        help="evenly spaced snapshots always evaluated before bisecting (default 8)",
    )
    progress.add_argument(
        "--exhaustive", action="store_true", help="evaluate every snapshot (no bisection)"
    )

    agents = sub.add_parser("agents", help="install and list agent CLIs")
    asub = agents.add_subparsers(dest="agents_command", metavar="SUBCOMMAND", required=True)
    for name in ("list", "install"):
        ap = asub.add_parser(name, help=COMMANDS[f"agents {name}"])
        _path(ap, "--agents-dir", "agents_dir")
        if name == "install":
            ap.add_argument(
                "names", nargs="+", metavar="AGENT", help="agent names, or `all` for every one"
            )
            ap.add_argument("--force", action="store_true", help="reinstall even if installed")

    images = sub.add_parser("images", help="build, list and prune sandbox=docker images")
    isub = images.add_subparsers(dest="images_command", metavar="SUBCOMMAND", required=True)
    for name in ("build", "list", "prune"):
        ip = isub.add_parser(name, help=COMMANDS[f"images {name}"])
        _path(ip, "--tasks-dir", "tasks_dir")
        ip.add_argument(
            "args",
            nargs="*",
            metavar="TASK | sandbox.docker.KEY=VALUE",
            help="task ids (build: default every task) and overrides of the docker options",
        )
    return p


_REPORT_FILTERS = {
    "experiment": "only runs of this experiment (repeatable)",
    "task": "only runs of this task id (repeatable)",
    "kind": "only tasks of this kind: longcli or weave (repeatable)",
    "model": "only this model option (repeatable)",
    "harness": "only this harness option (repeatable)",
    "mode": "only this mode option (repeatable)",
    "protocol": "only this protocol option (repeatable)",
    "judge": "only judgements by this judge (repeatable)",
}
"""``realcli report`` filter options; each sets ``report.filters.<plural>``."""

_RUNS_FILTERS = {
    "experiment": "only runs of this experiment (repeatable)",
    "task": "only runs of this task id (repeatable)",
    "model": "only this model option (repeatable)",
    "harness": "only this harness option (repeatable)",
    "mode": "only this mode option (repeatable)",
    "status": "graded, infra_error, task_error, incomplete or unreadable (repeatable)",
    "kind": "only tasks of this kind: longcli or weave (repeatable)",
}


def _report_options(p: argparse.ArgumentParser) -> None:
    for flag, what in _REPORT_FILTERS.items():
        p.add_argument(f"--{flag}", action="append", default=[], metavar=flag.upper(), help=what)
    p.add_argument(
        "--figure",
        action="append",
        default=[],
        metavar="NAME",
        help="only this figure (repeatable; `python -m analysis figures` lists them)",
    )
    p.add_argument(
        "--config-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="another config dir searched for report/<NAME>.yaml",
    )
    p.add_argument(
        "overrides",
        nargs="*",
        metavar="report.KEY=VALUE",
        help="Hydra overrides of the report group (report.bootstrap.resamples=500, report=NAME)",
    )


def _overrides_last(argv: Sequence[str]) -> list[str]:
    """``realcli report`` arguments with the Hydra overrides (``report.KEY=VALUE``, ``report=NAME``)
    moved after the options, so that they may come anywhere (argparse takes its positionals in
    one run). A token right after an option that takes a value stays that option's value."""
    options, overrides = [], []
    takes_value = False
    for arg in argv:
        if not takes_value and not arg.startswith("-") and "=" in arg:
            overrides.append(arg)
            continue
        options.append(arg)
        takes_value = arg.startswith("--") and "=" not in arg and arg not in ("--help",)
    return [*options, *overrides]


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # a command line: `realcli show X | head` ends quietly, like other tools
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in and args_in[0] == "run":
        from realcli.runner.cli_run import run_command

        return run_command(args_in[1:])
    if args_in and args_in[0] == "judge":
        from realcli.runner.judging import judge_command

        return judge_command(args_in[1:])
    if args_in and args_in[0] == "report":
        args_in = ["report", *_overrides_last(args_in[1:])]
    args = _parser().parse_args(args_in)
    try:
        return _dispatch(args)
    except RealcliError as exc:
        print(f"realcli: error: {exc}", file=sys.stderr)
        for line in getattr(exc, "details", ()):  # e.g. the runs an ambiguous prefix matches
            print(line, file=sys.stderr)
        return 2


_PATH_OPTIONS = {
    "tasks_dir": "tasks_dir",
    "cache_dir": "cache_dir",
    "warehouse": "warehouse",
    "runs_dir": "runs_dir",
    "out": "report_dir",
    "agents_dir": "agents_dir",
}
"""argparse destination -> the ``paths`` key that gives its default."""


def _fill_path_defaults(args: argparse.Namespace) -> None:
    """Path options left unset take the composed config's ``paths`` (composed only then)."""
    missing = [d for d in _PATH_OPTIONS if getattr(args, d, False) is None]
    if not missing:
        return
    from realcli.runner.app import default_paths

    paths = default_paths()
    for dest in missing:
        setattr(args, dest, Path(getattr(paths, _PATH_OPTIONS[dest])))


def _dispatch(args: argparse.Namespace) -> int:
    from realcli.runner import commands

    _fill_path_defaults(args)
    if args.command == "tasks":
        if args.tasks_command == "list":
            return commands.tasks_list(args.tasks_dir)
        if args.tasks_command == "new":
            return commands.tasks_new(
                args.tasks_dir, args.task_id, args.kind, args.domain, args.app
            )
        if args.tasks_command == "validate":
            return commands.tasks_validate(args.tasks_dir, args.task_ids)
        if args.tasks_command == "import" and args.format == "swebench":
            from realcli.catalog.import_swebench import swebench_command

            if args.repos is None:
                fix = "give the folder of <owner>__<name> git clones: --repos DIR"
                raise RealcliError("command line", "--repos", "missing", fix)
            return swebench_command(
                args.sources, args.tasks_dir, args.repos, args.install, force=args.force
            )
        if args.tasks_command == "import":
            return commands.tasks_import(
                args.format,
                args.sources,
                args.tasks_dir,
                args.task_id,
                args.category,
                images_dir=args.images_dir,
                force=args.force,
            )
        return commands.tasks_check(
            args.tasks_dir,
            args.task_ids,
            args.repeat,
            args.cache_dir / "inventory",
            sandbox=args.sandbox,
            image_dirs=args.image_dirs,
        )
    if args.command == "ingest":
        return commands.ingest(args.runs_dir, args.warehouse, args.wait)
    if args.command == "report":
        from realcli.runner.reporting import FILTER_OPTIONS, compose_report, report

        spec = compose_report(
            args.overrides,
            filters={field: getattr(args, flag) for flag, field in FILTER_OPTIONS.items()},
            figures=args.figure,
            config_dirs=args.config_dir,
        )
        return report(args.warehouse, args.out, spec)
    if args.command == "runs":
        from realcli.runner.listing import RunFilters, runs_command

        filters = RunFilters(**{flag: tuple(getattr(args, flag)) for flag in _RUNS_FILTERS})
        return runs_command(args.runs_dir, filters, as_json=args.json)
    if args.command == "show":
        return commands.show(args.runs_dir, args.run_key)
    if args.command == "regrade":
        return commands.regrade(args.runs_dir, args.run_keys)
    if args.command == "progress":
        return commands.progress(
            args.runs_dir, args.tasks_dir, args.run_keys, grid=args.grid, exhaustive=args.exhaustive
        )
    if args.command == "images":
        return commands.images(args.images_command, args.tasks_dir, args.args)
    if args.command == "agents":
        if args.agents_command == "list":
            return commands.agents_list(args.agents_dir)
        return commands.agents_install(args.agents_dir, args.names, force=args.force)
    raise AssertionError(args.command)


if __name__ == "__main__":
    sys.exit(main())
