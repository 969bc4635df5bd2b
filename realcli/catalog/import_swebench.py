"""``realcli tasks import swebench``: SWE-bench rows become realcli task bundles.

Each row (:mod:`.import_swebench_rows`) becomes ``<tasks_dir>/<instance id, lower-case>/``:

- ``instruction.md``: ``problem_statement`` (``hints_text`` stays in IMPORT_REPORT.md only,
  as SWE-bench gives agents none);
- ``environment/repo``: the repo at ``base_commit`` from the local clone under ``--repos``
  (no history), ``environment/setup.sh`` making it a one-commit git repo, and the instance's
  ``environment/Dockerfile`` when install commands are known (:mod:`.import_swebench_env`);
- ``tests/test.patch``: ``test_patch``, applied to the grading copy only (``[tests.*] patch``;
  the agent never sees it); ``[tests.f2p]`` / ``[tests.p2p]``: ``location = "workspace"``
  pytest sets of ``FAIL_TO_PASS`` / ``PASS_TO_PASS`` (``p2p = false`` when the row has none);
- ``solution/gold.patch``: ``patch``, replayed by writing it into the workspace and
  ``git apply``-ing it (one write and one shell action).

Every problem of a row is collected in one pass and the row is skipped; the other rows go on.
A bundle is written next to its destination, validated, then renamed into place.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from realcli.catalog.bundle import TaskBundle, load_task
from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_swebench_env import (
    RepoError,
    checkout,
    find_clone,
    patch_problem,
    write_environment,
)
from realcli.catalog.import_swebench_rows import RowProblem, SwebenchRow, check_row, read_rows
from realcli.util.errors import RealcliError

__all__ = ["GOLD_IN_WORKSPACE", "SwebenchImport", "import_swebench", "swebench_command"]

GOLD_IN_WORKSPACE = ".realcli_gold.patch"
"""Where the reference run writes the gold patch in the workspace (deleted once applied)."""
TEST_PATCH = "test.patch"
"""The test patch's name under the bundle's tests/ (``[tests.*] patch``)."""


@dataclass
class SwebenchImport:
    imported: list[TaskBundle] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)
    reports: dict[str, str] = field(default_factory=dict)
    """task id -> its IMPORT_REPORT.md."""


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _title(row: SwebenchRow) -> str:
    first = next((ln.strip() for ln in row.problem_statement.splitlines() if ln.strip()), "")
    return f"{row.instance_id}: {first.lstrip('# ')}"[:100]


def _task_toml(row: SwebenchRow, dockerfile: str | None) -> str:
    top = {
        "schema_version": 1,
        "id": row.task_id,
        "version": "1.0.0",
        "kind": "longcli",
        "category": "bugfix",
        "title": _title(row),
        "suites": ["swebench"],
        "instruction": "instruction.md",
        "workdir": "/app",
        "provenance": [f"https://github.com/{row.repo}/tree/{row.base_commit}"],
    }
    lines = [
        f"# Imported from SWE-bench row {row.instance_id} by `realcli tasks import swebench`.",
        *(f"{k} = {_toml(v)}" for k, v in top.items()),
    ]
    if not row.pass_to_pass:  # `p2p = false` sits in [tests], before its sub-tables
        lines += ["", "[tests]", "p2p = false"]
    sets = [("f2p", row.fail_to_pass), ("p2p", row.pass_to_pass)]
    for name, ids in sets:
        if ids:
            lines += ["", f"[tests.{name}]", 'location = "workspace"', f"ids = {_toml(ids)}"]
            lines.append(f"patch = {_toml(TEST_PATCH)}")
    if dockerfile is not None:
        lines += ["", "[environment]", f"dockerfile = {_toml(dockerfile)}"]
    return "\n".join(lines) + "\n"


def _solution(bundle: Path, row: SwebenchRow, report: ImportReport) -> None:
    sol = bundle / "solution"
    sol.mkdir(parents=True)
    (sol / "gold.patch").write_text(row.patch, encoding="utf-8")
    apply = (
        f"git apply --whitespace=nowarn {GOLD_IN_WORKSPACE}; status=$?;"
        f" rm -f {GOLD_IN_WORKSPACE}; exit $status"
    )
    actions = [
        {
            "action": "write",
            "path": GOLD_IN_WORKSPACE,
            "content_from": "gold.patch",
            "note": "The row's gold patch.",
        },
        {"action": "shell", "cmd": apply, "timeout_s": 120.0},
        {"action": "message", "text": "Done: applied the gold patch."},
    ]
    lines = [json.dumps(a, ensure_ascii=False) for a in actions]
    (sol / "trajectory.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report.became("patch", "solution/gold.patch, written and `git apply`-ed by the reference")


def _build(
    row: SwebenchRow, bundle: Path, repos: Path, install: tuple[str, ...], report: ImportReport
) -> list[RowProblem]:
    """Write the bundle; return the row's problems (then the bundle is discarded)."""
    problems: list[RowProblem] = []

    def add(name: str, problem: str, fix: str) -> None:
        problems.append(RowProblem(row.where, row.instance_id, name, problem, fix))

    try:
        clone = find_clone(repos, row.repo)
        sha = checkout(clone, row.base_commit, bundle / "environment" / "repo")
    except RepoError as exc:
        add(exc.field, exc.problem, exc.fix)
        return problems
    repo_dir = bundle / "environment" / "repo"
    for name, diff in (("patch", row.patch), ("test_patch", row.test_patch)):
        why = patch_problem(repo_dir, diff)
        if why:
            add(name, f"does not apply to {row.repo}@{sha[:12]} ({why})", "regenerate the diff")
    if problems:
        return problems
    report.metadata["repo clone"] = str(clone)
    (bundle / "instruction.md").write_text(row.problem_statement.rstrip() + "\n", "utf-8")
    report.became("problem_statement", "instruction.md")
    tests = bundle / "tests"
    tests.mkdir()
    (tests / TEST_PATCH).write_text(row.test_patch, encoding="utf-8")
    report.became("test_patch", f"tests/{TEST_PATCH}, applied to the grading copy only")
    report.became("FAIL_TO_PASS", f"[tests.f2p] ids ({len(row.fail_to_pass)}), location=workspace")
    if row.pass_to_pass:
        report.became(
            "PASS_TO_PASS", f"[tests.p2p] ids ({len(row.pass_to_pass)}), location=workspace"
        )
    else:
        report.became("PASS_TO_PASS", "empty: p2p = false (no P2P set; tasks check flags it)")
    _solution(bundle, row, report)
    dockerfile = write_environment(
        bundle,
        instance_id=row.instance_id,
        repo=row.repo,
        version=row.version,
        sha=sha,
        install=install,
        report=report,
    )
    if row.extra.get("hints_text"):
        report.cannot(
            "hints_text",
            "hints",
            "SWE-bench gives the agent none (kept below as metadata)",
            "append them to instruction.md for a hinted variant",
        )
    report.metadata.update({"instance_id": row.instance_id, "version": row.version or ""})
    report.metadata.update(row.extra)
    (bundle / "task.toml").write_text(_task_toml(row, dockerfile), encoding="utf-8")
    return problems


def _import_row(
    row: SwebenchRow, tasks_dir: Path, repos: Path, install: tuple[str, ...], force: bool
) -> tuple[TaskBundle, str] | list[RowProblem]:
    dest = tasks_dir / row.task_id
    if dest.exists() and not force:
        return [
            RowProblem(row.where, row.instance_id, None, f"{dest} already exists", "pass --force")
        ]
    report = ImportReport(row.task_id, Path(row.where), "SWE-bench")  # names the row
    staging = Path(tempfile.mkdtemp(prefix=f".import-{row.task_id}-", dir=tasks_dir))
    try:
        staged = staging / row.task_id
        staged.mkdir()
        problems = _build(row, staged, repos, install, report)
        if problems:
            return problems
        check = f"realcli tasks check {row.task_id} --tasks-dir {tasks_dir}"
        markdown = report.markdown(dest, check).replace(
            "`realcli tasks import longcli`", "`realcli tasks import swebench`", 1
        )
        (staged / "IMPORT_REPORT.md").write_text(markdown, encoding="utf-8")
        load_task(staged).reference_actions()  # validates before it is put in place
        if dest.exists():
            dest.rename(staging / "replaced")
        staged.rename(dest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return load_task(dest), markdown


def import_swebench(
    sources: list[Path],
    tasks_dir: Path,
    *,
    repos: Path,
    install: tuple[str, ...] = (),
    force: bool = False,
) -> SwebenchImport:
    """Import every row of ``sources``; a bad row is reported in ``problems`` and skipped."""
    if not repos.is_dir():
        raise RealcliError(
            "command line",
            "--repos",
            f"{repos} is not a folder",
            "give the folder holding <owner>__<name>/ git clones",
        )
    out = SwebenchImport()
    tasks_dir.mkdir(parents=True, exist_ok=True)
    seen: dict[str, str] = {}
    for raw in read_rows(sources):
        row = check_row(raw)
        if isinstance(row, list):
            out.problems += row
            continue
        if row.task_id in seen:
            out.problems.append(
                RowProblem(
                    row.where,
                    row.instance_id,
                    "instance_id",
                    f"the same task id as {seen[row.task_id]}",
                    "import each instance once",
                )
            )
            continue
        seen[row.task_id] = row.where
        try:
            done = _import_row(row, tasks_dir, repos.resolve(), install, force)
        except RealcliError as exc:  # anything else of this row: named, the others go on
            done = [RowProblem(row.where, row.instance_id, exc.field, exc.problem, exc.fix)]
        except (OSError, UnicodeError) as exc:
            done = [RowProblem(row.where, row.instance_id, None, str(exc), "fix the row")]
        if isinstance(done, list):
            out.problems += done
        else:
            out.imported.append(done[0])
            out.reports[done[0].id] = done[1]
    return out


def swebench_command(
    sources: list[Path], tasks_dir: Path, repos: Path, install: list[str], *, force: bool
) -> int:
    """The CLI: import, print one line per task and per problem; exit 1 if any row failed."""
    import sys

    result = import_swebench(sources, tasks_dir, repos=repos, install=tuple(install), force=force)
    for bundle in result.imported:
        print(f"imported {bundle.id} into {bundle.root} (see its IMPORT_REPORT.md)")
    for problem in result.problems:
        print(f"error: {problem.line()}", file=sys.stderr)
    print(
        f"{len(result.imported)} imported, {len(result.problems)} problem(s); check them:"
        f" realcli tasks check --tasks-dir {tasks_dir}"
    )
    return 1 if result.problems else 0
