"""``realcli tasks import harbor``: a Harbor (Terminal-Bench 2) task folder becomes a realcli
bundle, with an ``IMPORT_REPORT.md`` of what could not be mapped.

Harbor's layout: ``task.toml`` (``[task]``, ``[metadata]``, ``[verifier]``, ``[agent]``,
``[environment]``, ``[solution]``, ``[[steps]]``), ``instruction.md``, ``environment/``
(``Dockerfile`` and its build context), ``tests/test.sh`` (writes ``/logs/verifier/reward.txt``
or ``reward.json``), ``solution/solve.sh``; a multi-step task has ``steps/<name>/`` with its
own ``instruction.md``, ``tests/`` (over the task's) and ``solution/``. The mapping is in
docs/tasks.md ("Importing Harbor tasks"):

- the verifier is one ``score_file`` F2P set (``tests/harbor_verify.py``): its score is the
  trial reward, every named reward and step kept in the score file; no P2P set;
- ``[environment]`` memory / storage -> ``[resources]``; agent / verifier timeouts ->
  ``[timeouts]``; the Dockerfile -> ``environment/Dockerfile`` and ``environment/repo``;
- ``solution/solve.sh`` (each step's, in order) -> the reference trajectory;
- ``[[steps]]``: one realcli session does the steps in order (their instructions in order in
  instruction.md), and the verifier grades every step at the end.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realcli.catalog.import_common import ImportOptions, ImportResult, stage_bundle
from realcli.catalog.import_dockerfile import keep_dockerfile
from realcli.catalog.import_environment import read_environment
from realcli.catalog.import_harbor_parts import (
    harbor_resources,
    harbor_timeouts,
    read_steps,
    report_unmapped_config,
    write_reference,
    write_verifier,
)
from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_toml import task_toml
from realcli.catalog.importer import category_option, category_suite, map_category
from realcli.util.errors import TaskError

__all__ = ["import_harbor_task", "read_harbor_toml"]


def read_harbor_toml(source: Path) -> dict[str, Any]:
    path = source / "task.toml"
    if not path.is_file():
        raise TaskError(str(path), None, "missing", "give a Harbor task folder: it holds task.toml")
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(str(path), None, f"not valid TOML ({exc})", "fix the syntax") from exc
    except UnicodeDecodeError as exc:
        raise TaskError(str(path), None, "not UTF-8 text", "save it as UTF-8") from exc


def _merge(sub: ImportReport, prefix: str, report: ImportReport) -> None:
    for key, outcomes in sub.outcomes.items():
        for outcome in outcomes:
            report.became(prefix if key == "." else f"{prefix}/{key}", outcome)
    for u in sub.unmapped:
        report.cannot(f"{prefix}/{u.source}", u.item, u.why, u.fix)
    report.metadata.update({f"{prefix}: {k}": v for k, v in sub.metadata.items()})
    report.notes += sub.notes
    report.fatal_errors += sub.fatal_errors


def _instruction(
    source: Path, steps: list[dict[str, Any]], bundle: Path, report: ImportReport
) -> str:
    """Write instruction.md; return the title."""
    if not steps[0].get("dir"):
        path = source / "instruction.md"
        if not path.is_file():
            report.fatal(str(path), None, "missing", "write what the agent must do in it")
            return "Imported Harbor task"
        text = path.read_text(encoding="utf-8", errors="replace")
        report.became("instruction.md", "instruction.md")
    else:
        parts = [
            f"This task has {len(steps)} steps. Do them in order, in this workspace; each"
            " builds on the ones before it, and every step is checked when you finish.",
        ]
        for i, step in enumerate(steps, start=1):
            path = source / step["dir"] / "instruction.md"
            if not path.is_file():
                report.fatal(str(path), None, "missing", "every step needs its instruction.md")
                continue
            body = path.read_text(encoding="utf-8", errors="replace").strip()
            parts.append(f"## Step {i} of {len(steps)}: {step['name']}\n\n{body}")
            report.became(f"{step['dir']}/instruction.md", f"instruction.md, step {i}")
        if (source / "instruction.md").is_file():
            report.became("instruction.md", "not used: Harbor never sends it in a multi-step task")
        text = "\n\n".join(parts)
    (bundle / "instruction.md").write_text(text.rstrip() + "\n", encoding="utf-8")
    heading = re.search(r"^#{1,3}\s+(.+?)\s*#*\s*$", text, re.M)
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "Imported Harbor task")
    return (heading.group(1) if heading and not steps[0].get("dir") else first)[:100]


def _build(source: Path, bundle: Path, dest: Path, options: ImportOptions) -> str:
    data = read_harbor_toml(source)
    task_id = dest.name
    report = ImportReport(task_id, source, "Harbor", command="harbor")
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    assert isinstance(meta, dict)
    category_value = meta.get("category")
    cat = map_category(
        category_value, category_option(options.category), report, "task.toml: metadata.category"
    )
    bundle.mkdir(parents=True)
    steps = read_steps(source, data, report)
    env_dir = source / "environment"
    sub = ImportReport(task_id, env_dir, "Harbor")
    if env_dir.is_dir():
        env = read_environment(env_dir, bundle, sub)
        kept = keep_dockerfile(env_dir, bundle, env, options.images_dir, sub)
    else:
        report.fatal(str(env_dir), None, "missing", "add environment/Dockerfile")
        env = read_environment(source / ".no-environment", bundle, sub)
        kept = keep_dockerfile(source / ".no-environment", bundle, env, None, sub)
    _merge(sub, "environment", report)
    environment_cfg = data.get("environment") if isinstance(data.get("environment"), dict) else {}
    assert isinstance(environment_cfg, dict)
    workdir = environment_cfg.get("workdir")
    if isinstance(workdir, str) and workdir != env.workdir:
        report.cannot(
            "task.toml: environment.workdir",
            workdir,
            f"differs from the Dockerfile's WORKDIR ({env.workdir}), which realcli uses",
            "make them the same",
        )
    title = _instruction(source, steps, bundle, report)
    strategy = str(data.get("multi_step_reward_strategy") or "mean")
    write_verifier(source, bundle, steps, env.workdir, report, strategy)
    write_reference(source, bundle, steps, report)
    report_unmapped_config(data, report)
    report.raise_fatal()
    name = data.get("task", {}).get("name") if isinstance(data.get("task"), dict) else None
    suites = ["imported", "harbor"]
    if str(category_value or "").strip().lower() and category_suite(category_value):
        suites.append(category_suite(category_value) or "")
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
        "requires": sorted({*kept.requires, "python3", "bash"}),
    }
    if isinstance(name, str):
        report.metadata["task.name"] = name
    environment: dict[str, object] = {"dockerfile": kept.dockerfile} if kept.dockerfile else {}
    image = environment_cfg.get("docker_image")
    if isinstance(image, str) and not kept.dockerfile:
        environment = {"image": image}
    tables: dict[str, Mapping[str, object]] = {
        "timeouts": harbor_timeouts(data, steps, report),
        "resources": harbor_resources(environment_cfg, report),
        "environment": environment,
    }
    tests: dict[str, Mapping[str, object] | bool] = {
        "f2p": {
            "parser": "score_file",
            "command": 'python3 "$TEST_DIR/harbor_verify.py"',
            "score_file": ".realcli_verifier/score.json",
            "max_score": 1.0,
        },
        "p2p": False,
    }
    task_toml(bundle, top, tables, tests, [])
    report.became(
        "task.toml",
        f"task.toml: category {cat.value}, suites {suites}, one score_file F2P set (the"
        " trial reward), p2p = false",
    )
    markdown = report.markdown(dest, options.check_command(task_id))
    (bundle / "IMPORT_REPORT.md").write_text(markdown, encoding="utf-8")
    return markdown


def import_harbor_task(
    source: Path,
    tasks_dir: Path,
    *,
    task_id: str | None = None,
    category: str | None = None,
    images_dir: Path | None = None,
    force: bool = False,
) -> ImportResult:
    """Import the Harbor task at ``source`` as ``tasks_dir/<task_id>`` (default id: the folder's
    name). Raises :class:`TaskError` naming every problem found; nothing is written then."""
    options = ImportOptions(tasks_dir, category=category, images_dir=images_dir, force=force)
    return stage_bundle(source, task_id, options, _build)
