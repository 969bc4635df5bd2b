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
from pathlib import Path
from typing import Any

from realcli.catalog.import_common import (
    ImportOptions,
    ImportResult,
    positive_seconds,
    stage_bundle,
)
from realcli.catalog.import_dockerfile import keep_dockerfile
from realcli.catalog.import_environment import Environment, read_environment
from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_run_tests import read_run_tests
from realcli.catalog.import_solution import write_solution
from realcli.catalog.import_tests import write_tests
from realcli.catalog.import_toml import TomlSubStep, task_toml
from realcli.schema.task_spec import Category
from realcli.util.errors import TaskError

__all__ = [
    "CATEGORY_ALIASES",
    "DEFAULT_CATEGORY",
    "ImportResult",
    "category_option",
    "category_suite",
    "import_longcli_task",
    "map_category",
    "read_task_yaml",
]

CATEGORY_ALIASES = {
    "from_scratch": Category.from_scratch,
    "from-scratch": Category.from_scratch,
    "feature": Category.feature,
    "feature_add": Category.feature,
    "feature-add": Category.feature,
    "bugfix": Category.bugfix,
    "bug_fix": Category.bugfix,
    "bug-fix": Category.bugfix,
    "debugging": Category.bugfix,
    "refactor": Category.refactor,
    "project_refactor": Category.refactor,
    "project-refactor": Category.refactor,
    "refactoring": Category.refactor,
}
"""LongCLI-Bench's categories (``from_scratch``, ``feature_add``, ``bug_fix``,
``project_refactor``), realcli's own, common spellings and Terminal-Bench's ``debugging`` ->
realcli's category. Any other value (``software-engineering``, which 21 of the release's 23
tasks carry, ``data-processing``...) takes the ``--category`` default and is kept in the
bundle as a ``category-<value>`` suite."""
DEFAULT_CATEGORY = Category.feature
"""The category an unknown source category becomes without ``--category``."""
_REALCLI_CATEGORIES = ", ".join(c.value for c in Category)
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


def read_task_yaml(source: Path) -> dict[str, Any]:
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


def category_option(given: str | None) -> Category | None:
    """``--category``: a realcli or LongCLI-Bench category name, or a clear error."""
    if given is None:
        return None
    if given.lower() not in CATEGORY_ALIASES:
        raise TaskError(
            "command line",
            "--category",
            f"{given!r} is not a category",
            f"use one of {_REALCLI_CATEGORIES}",
        )
    return CATEGORY_ALIASES[given.lower()]


def map_category(
    value: object,
    default: Category | None,
    report: ImportReport,
    where: str = "task.yaml: category",
) -> Category:
    """The source's category mapped (known names), else the ``--category`` default (else
    :data:`DEFAULT_CATEGORY`); the report says which."""
    if isinstance(value, str) and value.strip().lower() in CATEGORY_ALIASES:
        mapped = CATEGORY_ALIASES[value.strip().lower()]
        report.became(where.split(":")[0], f"category {value} -> {mapped.value}")
        return mapped
    chosen = default or DEFAULT_CATEGORY
    how = "the --category default" if default else f"realcli's default ({DEFAULT_CATEGORY.value})"
    shown = "no category" if value is None else f"category {value!r}"
    report.cannot(
        where,
        shown,
        "not a LongCLI-Bench category (from_scratch, feature_add, bug_fix, project_refactor):"
        f" mapped to {chosen.value}, {how}; the source's value is kept as a suite",
        "pass --category with the realcli category it belongs to"
        f" ({_REALCLI_CATEGORIES}) if {chosen.value} is wrong",
    )
    return chosen


def category_suite(value: object) -> str | None:
    """The suite that keeps a source category: ``category-software-engineering``."""
    if not isinstance(value, str) or not value.strip():
        return None
    slug = re.sub(r"[^a-z0-9._-]+", "-", value.strip().lower()).strip("-")
    return f"category-{slug}" if slug else None


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


def _build(
    source: Path,
    bundle: Path,
    dest: Path,
    options: ImportOptions,
) -> str:
    """Write the whole bundle into ``bundle`` (to become ``dest``); return the report."""
    data = read_task_yaml(source)
    longcli = (
        data.get("parser_name") == "long_cli"
        or "parser_results_f2p" in data
        or (source / "tests" / "f2p.py").is_file()
        or (source / "INSTRUCTION.md").is_file()
    )
    task_id = dest.name
    report = ImportReport(task_id, source, "LongCLI-Bench" if longcli else "Terminal-Bench 1")
    if task_id != source.resolve().name:
        report.metadata["source folder name"] = source.resolve().name
    cat = map_category(data.get("category"), category_option(options.category), report)
    bundle.mkdir(parents=True)
    env = read_environment(source, bundle, report)
    kept = keep_dockerfile(source, bundle, env, options.images_dir, report)
    title = _instruction(source, data, env, bundle, report)
    modes = (data.get("parser_results_f2p"), data.get("parser_results_p2p"))
    text_sets = longcli and "text" in modes
    run_tests = read_run_tests(source, report, text_sets=text_sets)
    plan = write_tests(source, bundle, data, longcli, run_tests, report, env.workdir)
    agent_s = positive_seconds(data, "max_agent_timeout_sec", "task.yaml", report)
    tests_s = positive_seconds(data, "max_test_timeout_sec", "task.yaml", report)
    write_solution(source, bundle, agent_s or 900.0, env, report)
    report.raise_fatal()
    if data.get("run_tests_in_same_shell"):
        report.cannot(
            "task.yaml: run_tests_in_same_shell",
            "true",
            "realcli grades a copy of the workspace in a fresh sandbox: processes the agent"
            " left running are gone",
            "make the tests start what they need themselves",
        )
    for key, value in data.items():
        if key not in _MAPPED_KEYS:
            report.metadata[key] = json.dumps(value) if not isinstance(value, str) else value
    if data.get("category") is not None:
        report.metadata["category (source)"] = str(data["category"])
    suites = ["imported"]
    if str(data.get("category", "")).strip().lower() not in CATEGORY_ALIASES:
        suites += [s for s in [category_suite(data.get("category"))] if s]
    report.became(
        "task.yaml",
        f"task.toml: category {cat.value}, timeouts from max_agent_timeout_sec /"
        f" max_test_timeout_sec (realcli defaults where absent), suites {suites}",
    )
    timeouts = {k: v for k, v in (("agent_s", agent_s), ("tests_s", tests_s)) if v is not None}
    top: dict[str, object] = {
        "schema_version": 1,
        "id": task_id,
        "version": "1.0.0",
        "kind": "longcli",
        "category": cat.value,
        "title": title,
        "suites": suites,
        "instruction": "instruction.md",
        "workdir": env.workdir,
        "provenance": [source.resolve().as_uri()],
    }
    if kept.requires:
        top["requires"] = kept.requires
    environment = {"dockerfile": kept.dockerfile} if kept.dockerfile else {}
    substeps = [TomlSubStep(s.id, s.title, s.tests) for s in plan.substeps]
    task_toml(
        bundle, top, {"timeouts": timeouts, "environment": environment}, plan.tables, substeps
    )
    markdown = report.markdown(dest, options.check_command(task_id))
    (bundle / "IMPORT_REPORT.md").write_text(markdown, encoding="utf-8")
    return markdown


def import_longcli_task(
    source: Path,
    tasks_dir: Path,
    *,
    task_id: str | None = None,
    category: str | None = None,
    images_dir: Path | None = None,
    force: bool = False,
) -> ImportResult:
    """Import the LongCLI-Bench / Terminal-Bench 1 task at ``source`` as
    ``tasks_dir/<task_id>`` (default id: the folder's name). ``category`` is the default for a
    category LongCLI-Bench does not define; ``images_dir`` holds the release's base
    Dockerfiles. Raises :class:`TaskError` naming every problem (file, field and fix); nothing
    is written then. ``force`` replaces an existing bundle of that id."""
    options = ImportOptions(tasks_dir, category=category, images_dir=images_dir, force=force)
    return stage_bundle(source, task_id, options, _build)
