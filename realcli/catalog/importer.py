"""``realcli tasks import longcli``: a LongCLI-Bench or Terminal-Bench 1 task folder becomes a
realcli task bundle, with an ``IMPORT_REPORT.md`` of everything that could not be mapped.

The source is the folder ``tb`` runs: ``task.yaml`` (``instruction``, ``category``,
``parser_name``, ``max_agent_timeout_sec``, ...), ``Dockerfile``, ``run-tests.sh``,
``solution.sh`` or ``solution.yaml``, ``tests/`` (LongCLI-Bench: ``f2p.py`` and ``p2p.py``;
Terminal-Bench 1: ``test_outputs.py``) and LongCLI-Bench's ``INSTRUCTION.md``. The mapping is
documented in docs/tasks.md ("Importing LongCLI-Bench / Terminal-Bench tasks"). The bundle is
written to a temporary folder next to its destination, validated with :func:`load_task`, and
only then renamed into place: a failed import leaves nothing behind.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from realcli.catalog.bundle import TaskBundle, load_task
from realcli.catalog.import_environment import Environment, read_environment
from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_solution import write_solution
from realcli.catalog.import_tests import TestPlan, read_run_tests, write_tests
from realcli.schema.task_spec import Category
from realcli.util.errors import TaskError

__all__ = ["CATEGORY_ALIASES", "ImportResult", "import_longcli_task"]

CATEGORY_ALIASES = {
    "from_scratch": Category.from_scratch,
    "from-scratch": Category.from_scratch,
    "feature": Category.feature,
    "feature_add": Category.feature,
    "feature-add": Category.feature,
    "bugfix": Category.bugfix,
    "bug_fix": Category.bugfix,
    "bug-fix": Category.bugfix,
    "refactor": Category.refactor,
    "project_refactor": Category.refactor,
    "project-refactor": Category.refactor,
    "refactoring": Category.refactor,
}
"""LongCLI-Bench's categories (``from_scratch``, ``feature_add``, ``bug_fix``,
``project_refactor``), realcli's own and common spellings -> realcli's category."""
_REALCLI_CATEGORIES = ", ".join(c.value for c in Category)
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{1,63}$")
_MAPPED_KEYS = {
    "instruction",
    "descriptions",
    "category",
    "parser_name",
    "parser_results_f2p",
    "parser_results_p2p",
    "max_agent_timeout_sec",
    "max_test_timeout_sec",
    "run_tests_in_same_shell",
}


@dataclass(frozen=True)
class ImportResult:
    bundle: TaskBundle
    report_markdown: str
    check_command: str


def _read_task_yaml(source: Path) -> dict[str, Any]:
    import yaml

    path = source / "task.yaml"
    if not source.is_dir():
        raise TaskError(
            str(source), None, "no such folder", "give the task's folder (with task.yaml)"
        )
    if not path.is_file():
        raise TaskError(
            str(path),
            None,
            "missing",
            "give a LongCLI-Bench / Terminal-Bench 1 task folder: it holds task.yaml",
        )
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "syntax error"
        raise TaskError(
            str(path), None, f"not valid YAML ({problem}{at})", "fix the syntax"
        ) from exc
    except UnicodeDecodeError as exc:
        raise TaskError(str(path), None, "not UTF-8 text", "save it as UTF-8") from exc
    if not isinstance(data, dict):
        raise TaskError(str(path), None, "not a mapping of fields", "write `field: value` lines")
    return data


def _task_id(given: str | None, source: Path) -> str:
    if given is not None:
        if not _ID.match(given):
            raise TaskError(
                "command line",
                "--id",
                f"{given!r} is not a task id",
                "use 2-64 lower-case letters, digits, '.', '_' or '-', starting with a letter"
                " or digit",
            )
        return given
    derived = re.sub(r"[^a-z0-9._-]+", "-", source.resolve().name.lower()).lstrip("._-")[:64]
    if not _ID.match(derived):
        raise TaskError(
            str(source), None, f"the folder name gives no task id ({derived!r})", "pass --id ID"
        )
    return derived


def _category(data: dict[str, Any], given: str | None, where: str) -> Category:
    if given is not None:
        if given.lower() not in CATEGORY_ALIASES:
            raise TaskError(
                "command line",
                "--category",
                f"{given!r} is not a category",
                f"use one of {_REALCLI_CATEGORIES}",
            )
        return CATEGORY_ALIASES[given.lower()]
    value = data.get("category")
    if isinstance(value, str) and value.strip().lower() in CATEGORY_ALIASES:
        return CATEGORY_ALIASES[value.strip().lower()]
    problem = (
        "missing"
        if value is None
        else f"{value!r} is not a LongCLI-Bench category (from_scratch, feature_add, bug_fix,"
        " project_refactor)"
    )
    raise TaskError(
        where,
        "category",
        problem,
        f"pass --category with the realcli category it belongs to ({_REALCLI_CATEGORIES})",
    )


def _instruction_text(data: dict[str, Any], where: str) -> str | None:
    value = data.get("instruction")
    if value is None and isinstance(data.get("descriptions"), list):  # early TB1 form
        texts = {
            d.get("key"): d.get("description") for d in data["descriptions"] if isinstance(d, dict)
        }
        value = texts.get("base", next(iter(texts.values()), None))
    if value is not None and not isinstance(value, str):
        raise TaskError(where, "instruction", "not text", "write the instruction as a YAML string")
    return value if value and value.strip() else None


def _instruction(
    source: Path, data: dict[str, Any], env: Environment, bundle: Path, report: ImportReport
) -> str:
    """Write instruction.md; return the task's title."""
    where = str(source / "task.yaml")
    from_yaml = _instruction_text(data, where)
    md_path = source / "INSTRUCTION.md"
    try:
        md = md_path.read_text(encoding="utf-8") if md_path.is_file() else None
    except UnicodeDecodeError as exc:
        raise TaskError(str(md_path), None, "not UTF-8 text", "save it as UTF-8") from exc
    if from_yaml is None and md is None:
        raise TaskError(
            where,
            "instruction",
            "no instruction: the field is missing or empty and there is no INSTRUCTION.md",
            "write what the agent must do in task.yaml `instruction` or in INSTRUCTION.md",
        )
    copied = any(c in (".", "INSTRUCTION.md") for c in env.copied)
    if from_yaml is not None:
        text = from_yaml
        report.became("task.yaml", "instruction -> instruction.md")
        if md is not None and not copied:
            text = f"{from_yaml.rstrip()}\n\n{md}"
            report.became(
                "INSTRUCTION.md", "appended to instruction.md (no COPY puts it in the workspace)"
            )
    else:
        text = md or ""
        report.became("INSTRUCTION.md", "instruction.md (task.yaml has no instruction)")
    (bundle / "instruction.md").write_text(text.rstrip() + "\n", encoding="utf-8")
    return _title(md, text)


def _title(md: str | None, text: str) -> str:
    for doc in (md or "", text):
        heading = re.search(r"^#{1,3}\s+(.+?)\s*#*\s*$", doc, re.M)
        if heading:
            return heading.group(1)[:100]
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "Imported task")
    return first[:100]


def _seconds(data: dict[str, Any], key: str, report: ImportReport) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = 0.0
    if seconds <= 0:
        report.cannot(
            f"task.yaml: {key}", repr(value), "not a positive number", "set timeouts in task.toml"
        )
        return None
    return seconds


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(float(value)) if isinstance(value, float) else str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _write_task_toml(
    bundle: Path, top: dict[str, object], timeouts: dict[str, float], plan: TestPlan
) -> None:
    lines = [f"{k} = {_toml(v)}" for k, v in top.items()]
    if timeouts:
        lines += ["", "[timeouts]"] + [f"{k} = {_toml(v)}" for k, v in timeouts.items()]
    for sub in plan.substeps:
        lines += ["", "[[substeps]]", f"id = {_toml(sub.id)}", f"title = {_toml(sub.title)}"]
        lines += [f"tests = {_toml(list(sub.tests))}", "weight = 1.0", "depends_on = []"]
    (bundle / "task.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _build(
    source: Path,
    bundle: Path,
    dest: Path,
    task_id: str,
    category: str | None,
    check_command: Callable[[str], str],
) -> str:
    """Write the whole bundle into ``bundle`` (to become ``dest``); return the report."""
    data = _read_task_yaml(source)
    where = str(source / "task.yaml")
    cat = _category(data, category, where)
    longcli = (
        data.get("parser_name") == "long_cli"
        or "parser_results_f2p" in data
        or (source / "tests" / "f2p.py").is_file()
        or (source / "INSTRUCTION.md").is_file()
    )
    report = ImportReport(task_id, source, "LongCLI-Bench" if longcli else "Terminal-Bench 1")
    if task_id != source.resolve().name:
        report.metadata["source folder name"] = source.resolve().name
    bundle.mkdir(parents=True)
    env = read_environment(source, bundle, report)
    title = _instruction(source, data, env, bundle, report)
    run_tests = read_run_tests(source, report)
    plan = write_tests(source, bundle, data, longcli, run_tests, report)
    agent_s = _seconds(data, "max_agent_timeout_sec", report)
    tests_s = _seconds(data, "max_test_timeout_sec", report)
    write_solution(source, bundle, agent_s or 900.0, env, report)
    if data.get("run_tests_in_same_shell"):
        report.cannot(
            "task.yaml: run_tests_in_same_shell",
            "true",
            "realcli grades a copy of the workspace in a fresh sandbox: processes the agent"
            " left running are gone",
            "make the tests start what they need themselves",
        )
    if category is not None and data.get("category") is not None:
        report.metadata["category (source)"] = str(data["category"])
    for key, value in data.items():
        if key not in _MAPPED_KEYS:
            report.metadata[key] = json.dumps(value) if not isinstance(value, str) else value
    report.became(
        "task.yaml",
        f"task.toml: category {cat.value}, timeouts from max_agent_timeout_sec /"
        " max_test_timeout_sec (realcli defaults where absent), suites ['imported']",
    )
    timeouts = {k: v for k, v in (("agent_s", agent_s), ("tests_s", tests_s)) if v is not None}
    top: dict[str, object] = {
        "schema_version": 1,
        "id": task_id,
        "version": "1.0.0",
        "kind": "longcli",
        "category": cat.value,
        "title": title,
        "suites": ["imported"],
        "instruction": "instruction.md",
        "workdir": env.workdir,
        "provenance": [source.resolve().as_uri()],
    }
    _write_task_toml(bundle, top, timeouts, plan)
    markdown = report.markdown(dest, check_command(task_id))
    (bundle / "IMPORT_REPORT.md").write_text(markdown, encoding="utf-8")
    return markdown


def import_longcli_task(
    source: Path,
    tasks_dir: Path,
    *,
    task_id: str | None = None,
    category: str | None = None,
    force: bool = False,
) -> ImportResult:
    """Import the LongCLI-Bench / Terminal-Bench 1 task at ``source`` as
    ``tasks_dir/<task_id>`` (default id: the folder's name). Raises :class:`TaskError` naming
    the file, the field and the fix; nothing is written then. ``force`` replaces an existing
    bundle of that id."""
    source = source.resolve()
    task_id = _task_id(task_id, source)
    dest = tasks_dir / task_id
    if tasks_dir.resolve().is_relative_to(source):
        raise TaskError(
            "command line",
            "--out",
            f"{tasks_dir} is inside the source task folder",
            "write elsewhere",
        )
    if dest.exists() and not force:
        raise TaskError(
            str(dest), None, "already exists", "pass --force to replace it, or --id for another id"
        )

    def check_command(tid: str) -> str:
        return f"realcli tasks check {tid} --tasks-dir {tasks_dir}"

    made_tasks_dir = not tasks_dir.exists()
    tasks_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".import-{task_id}-", dir=tasks_dir))
    try:
        staged = staging / task_id
        markdown = _build(source, staged, dest, task_id, category, check_command)
        load_task(staged).reference_actions()  # the bundle validates before it is put in place
        if dest.exists():
            dest.rename(staging / "replaced")
        staged.rename(dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if made_tasks_dir:
            shutil.rmtree(tasks_dir, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return ImportResult(load_task(dest), markdown, check_command(task_id))
