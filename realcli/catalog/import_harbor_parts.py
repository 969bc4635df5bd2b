"""The parts of a Harbor task the Harbor importer maps one by one: its steps, timeouts and
resources, the verifier (``tests/test.sh`` per step -> ``tests/f2p/<step>/`` run by
``tests/harbor_verify.py``), the reference (``solve.sh`` per step) and the configuration
realcli has no field for (reported)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

from realcli.catalog import import_harbor_verifier
from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_scripts import blocker, split_commands
from realcli.catalog.import_solution import mark_no_reference

__all__ = [
    "SCORE_FILE",
    "harbor_resources",
    "harbor_timeouts",
    "read_steps",
    "report_unmapped_config",
    "write_reference",
    "write_verifier",
]

SCORE_FILE = ".realcli_verifier/score.json"
SOLUTION_IN_WORKSPACE = ".realcli_solution"
_STEP_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_LOGS = re.compile(r"(?<![\w.$-])/logs/verifier(?=[/\"'\s;)]|$)")
_TESTS = re.compile(r"(?<![\w./$-])/tests(?=[/\"'\s;)]|$)")
_SOLUTION = re.compile(r"(?<![\w./$-])/solution(?=[/\"'\s;)]|$)")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMG])B?\s*$", re.I)


def _section(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def read_steps(source: Path, data: dict[str, Any], report: ImportReport) -> list[dict[str, Any]]:
    """The task's steps, in order: ``{"name", "dir", "min_reward", "contributes",
    "agent_timeout", "verifier_timeout"}``; a single-step task is one step, ``main``,
    whose ``dir`` is None (instruction, tests and solution at the task's root)."""
    raw = data.get("steps")
    agent_s = _section(data, "agent").get("timeout_sec")
    verifier_s = _section(data, "verifier").get("timeout_sec", 600.0)
    if raw is None:
        return [
            {
                "name": "main",
                "dir": None,
                "min_reward": None,
                "contributes": True,
                "agent_timeout": agent_s,
                "verifier_timeout": verifier_s,
            }
        ]
    where = str(source / "task.toml")
    if not isinstance(raw, list) or not raw:
        report.fatal(where, "steps", "not a list of [[steps]] tables", "write [[steps]] tables")
        return read_steps(source, {k: v for k, v in data.items() if k != "steps"}, report)
    steps: list[dict[str, Any]] = []
    for i, step in enumerate(raw):
        name = step.get("name") if isinstance(step, dict) else None
        if not isinstance(name, str) or not _STEP_NAME.match(name):
            report.fatal(where, f"steps[{i}].name", f"{name!r} is not a step name", "name it")
            continue
        if not (source / "steps" / name).is_dir():
            report.fatal(str(source / "steps" / name), None, "missing", "add the step's folder")
        agent = step.get("agent") if isinstance(step.get("agent"), dict) else {}
        verifier = step.get("verifier") if isinstance(step.get("verifier"), dict) else {}
        steps.append(
            {
                "name": name,
                "dir": f"steps/{name}",
                "min_reward": step.get("min_reward"),
                "contributes": bool(
                    step.get("contributes_to_reward", step.get("contributes_to_mean", True))
                ),
                "agent_timeout": agent.get("timeout_sec", agent_s),
                "verifier_timeout": verifier.get("timeout_sec", verifier_s),
            }
        )
        if (source / "steps" / name / "workdir").is_dir():
            report.cannot(
                f"steps/{name}/workdir/",
                "files (and setup.sh) merged into the workdir before the step",
                "realcli's one session has no moment between steps to add them",
                "move what the step needs into environment/ (the image) or its instruction",
            )
        for key in sorted(set(step) - {"name", "agent", "verifier", "min_reward"}):
            if key not in ("contributes_to_reward", "contributes_to_mean"):
                report.metadata[f"steps.{name}.{key}"] = json.dumps(step[key], default=str)
    strategy = data.get("multi_step_reward_strategy") or "mean"
    report.became(
        "task.toml",
        f"[[steps]]: {len(steps)} steps done in order in one session, every step verified at"
        f" the end, trial reward by multi_step_reward_strategy = {strategy}",
    )
    report.cannot(
        "task.toml: [[steps]]",
        f"{len(steps)} steps",
        "Harbor gives each step its own agent phase and verifies it before the next; realcli"
        " runs one agent session with every step's instruction in order and verifies all"
        " steps at the end (min_reward still gates the later steps' rewards)",
        "nothing to do; per-step rounds need a step-aware protocol (not in realcli yet)",
    )
    return steps


def harbor_timeouts(
    data: dict[str, Any], steps: list[dict[str, Any]], report: ImportReport
) -> dict[str, float]:
    agent = [float(s["agent_timeout"]) for s in steps if s.get("agent_timeout")]
    verifier = [float(s["verifier_timeout"]) for s in steps if s.get("verifier_timeout")]
    out: dict[str, float] = {}
    if agent and len(agent) == len(steps):
        out["agent_s"] = sum(agent)
    if verifier:
        out["tests_s"] = min(sum(verifier), 86400.0)
    build = _section(data, "environment").get("build_timeout_sec")
    if build is not None:
        report.metadata["environment.build_timeout_sec"] = str(build)
    return out


def _mb(value: object) -> int | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value)
    match = _SIZE.match(str(value)) if isinstance(value, str) else None
    if not match:
        return None
    number, unit = float(match.group(1)), match.group(2).upper()
    return int(number * {"K": 1 / 1024, "M": 1, "G": 1024}[unit])


def harbor_resources(environment: dict[str, Any], report: ImportReport) -> dict[str, int]:
    out: dict[str, int] = {}
    memory = _mb(environment.get("memory_mb", environment.get("memory")))
    storage = _mb(environment.get("storage_mb", environment.get("storage")))
    if memory is not None:
        out["memory_mb"] = max(64, min(memory, 1_048_576))
    if storage is not None:
        out["disk_mb"] = max(16, min(storage, 1_048_576))
    if out:
        report.became("task.toml", f"[environment] memory / storage -> [resources] {out}")
    cpus = environment.get("cpus")
    if cpus is not None and cpus != 1:
        report.cannot(
            "task.toml: environment.cpus",
            str(cpus),
            "realcli's [resources] has no CPU count (cpu_seconds is CPU time per process)",
            "nothing: the sandbox gets the machine's CPUs",
        )
    if environment.get("gpus"):
        report.cannot(
            "task.toml: environment.gpus",
            str(environment["gpus"]),
            "realcli gives sandboxes no GPU",
            "not supported: run it where the host's GPU is reachable by other means",
        )
    return out


def report_unmapped_config(data: dict[str, Any], report: ImportReport) -> None:
    """Every Harbor setting realcli cannot honour, with what to do; metadata kept."""
    for key, value in _section(data, "metadata").items():
        report.metadata[f"metadata.{key}"] = value if isinstance(value, str) else json.dumps(value)
    for key, value in _section(data, "task").items():
        if key != "name":
            report.metadata[f"task.{key}"] = json.dumps(value, default=str)
    for section in ("agent", "verifier", "environment", "solution"):
        table = _section(data, section)
        if table.get("user") is not None:
            report.cannot(
                f"task.toml: {section}.user",
                str(table["user"]),
                "realcli runs the agent and the tests as its own sandbox user",
                "nothing, unless the task depends on that user",
            )
        if table.get("env"):
            report.cannot(
                f"task.toml: {section}.env",
                ", ".join(sorted(table["env"])),
                "not copied (values may be secrets or host templates like ${VAR})",
                "give the values in the Dockerfile (ENV) if they are not secrets",
            )
        for key in ("network_mode", "allowed_hosts", "allow_internet"):
            if table.get(key) not in (None, [], False):
                report.cannot(
                    f"task.toml: {section}.{key}",
                    json.dumps(table[key]),
                    "realcli sandboxes never have a network (network_mode none)",
                    "nothing: tasks that need the internet cannot run as they are",
                )
    environment = _section(data, "environment")
    for key in ("mcp_servers", "healthcheck", "skills_dir"):
        if environment.get(key):
            report.cannot(
                f"task.toml: environment.{key}",
                json.dumps(environment[key], default=str)[:80],
                "realcli has no equivalent",
                "not supported as is",
            )
    known = {
        "schema_version", "version", "task", "metadata", "verifier", "agent", "environment",
        "solution", "source", "steps", "multi_step_reward_strategy",
    }  # fmt: skip
    for key in sorted(set(data) - known):
        report.metadata[key] = json.dumps(data[key], default=str)


def _rewrite_shell(path: Path, patterns: list[tuple[re.Pattern[str], str]]) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    for pattern, replacement in patterns:
        text = pattern.sub(replacement, text)
    path.write_text(text, encoding="utf-8")
    return text


def write_verifier(
    source: Path,
    bundle: Path,
    steps: list[dict[str, Any]],
    workdir: str,
    report: ImportReport,
    strategy: str = "mean",
) -> None:
    """``tests/harbor_verify.py``, ``tests/f2p/steps.json`` and ``tests/f2p/<step>/`` (the
    task's tests/ with the step's tests/ over it, as Harbor uploads them to /tests)."""
    out = bundle / "tests"
    (out / "f2p").mkdir(parents=True, exist_ok=True)
    shutil.copy2(import_harbor_verifier.__file__, out / "harbor_verify.py")
    plan_steps = []
    for step in steps:
        folder = out / "f2p" / step["name"]
        layers = [source / "tests"] + ([source / step["dir"] / "tests"] if step["dir"] else [])
        for layer in layers:
            if layer.is_dir():
                shutil.copytree(
                    layer, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
                )
                rel = layer.relative_to(source).as_posix()
                report.became(rel, f"tests/f2p/{step['name']}/ (the verifier's /tests)")
        test_sh = folder / "test.sh"
        if not test_sh.is_file():
            report.fatal(
                str(source / (step["dir"] or ".") / "tests" / "test.sh"),
                None,
                "missing: Harbor's verifier runs tests/test.sh",
                "add test.sh (it writes /logs/verifier/reward.txt or reward.json)",
            )
            continue
        text = _rewrite_shell(
            test_sh, [(_LOGS, "${REALCLI_VERIFIER_LOGS}"), (_TESTS, "${TEST_DIR}")]
        )
        if "REALCLI_VERIFIER_LOGS" not in text:
            report.cannot(
                f"tests/f2p/{step['name']}/test.sh",
                "writes no /logs/verifier/reward.*",
                "the verifier reads the reward from there",
                "make test.sh write /logs/verifier/reward.txt (a number) or reward.json",
            )
        _report_network(text, f"{step['dir'] or '.'}/tests/test.sh", workdir, report)
        plan_steps.append(
            {
                "name": step["name"],
                "tests": f"f2p/{step['name']}",
                "timeout_s": step.get("verifier_timeout"),
                "min_reward": step.get("min_reward"),
                "contributes": step.get("contributes", True),
            }
        )
    if strategy not in ("mean", "final"):
        report.fatal(
            str(source / "task.toml"),
            "multi_step_reward_strategy",
            f"{strategy!r} is not one of Harbor's strategies",
            "use mean or final",
        )
    plan = {"strategy": strategy, "score_file": SCORE_FILE, "steps": plan_steps}
    (out / "f2p" / "steps.json").write_text(json.dumps(plan, indent=2) + "\n", encoding="utf-8")
    (out / "p2p").mkdir(exist_ok=True)
    (out / "p2p" / "README.md").write_text(
        "No pass-to-pass tests: Harbor tasks have one verifier (task.toml: p2p = false).\n",
        encoding="utf-8",
    )
    report.cannot(
        "tests/",
        "no pass-to-pass tests",
        "Harbor has one verifier, graded as the F2P score; task.toml says p2p = false",
        "to guard regressions, add tests/p2p/test_*.py and delete `p2p = false`",
    )


def _report_network(text: str, where: str, workdir: str, report: ImportReport) -> None:
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        for command in split_commands(line):
            why = blocker(command, workdir, workdir)
            if why and "network" in why:
                report.cannot(
                    f"{where}:{lineno}",
                    f"`{command}`",
                    f"{why}: realcli's sandboxes have none",
                    "install it in the image (environment/Dockerfile, built here) or on the host,"
                    " then drop the line",
                )


def _solve_sh(source: Path, step: dict[str, Any]) -> Path:
    return source / (step["dir"] or ".") / "solution" / "solve.sh"


def write_reference(
    source: Path, bundle: Path, steps: list[dict[str, Any]], report: ImportReport
) -> None:
    """``solution/trajectory.jsonl``: each step's solution/ written into the workspace, its
    solve.sh run (``/solution`` -> ``$SOLUTION_DIR``), then removed."""
    solution = bundle / "solution"
    solution.mkdir(parents=True, exist_ok=True)
    missing = [
        s["name"]
        for s in steps
        if not (source / (s["dir"] or ".") / "solution" / "solve.sh").is_file()
    ]
    if missing:
        mark_no_reference(bundle, report, f"no solution/solve.sh for step(s) {', '.join(missing)}")
        (solution / "trajectory.jsonl").write_text("", encoding="utf-8")
        return
    actions: list[dict[str, object]] = []
    for step in steps:
        src = source / (step["dir"] or ".") / "solution"
        for path in sorted(p for p in src.rglob("*") if p.is_file()):
            rel = path.relative_to(src).as_posix()
            try:
                path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                report.cannot(
                    f"{src.relative_to(source).as_posix()}/{rel}",
                    "binary file",
                    "write actions carry text only",
                    "produce it from solve.sh instead",
                )
                continue
            kept = solution / "files" / step["name"] / rel
            kept.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, kept)
            if rel == "solve.sh":
                _rewrite_shell(kept, [(_SOLUTION, "${SOLUTION_DIR}")])
            actions.append(
                {
                    "action": "write",
                    "path": f"{SOLUTION_IN_WORKSPACE}/{step['name']}/{rel}",
                    "content_from": f"files/{step['name']}/{rel}",
                }
            )
        folder = shlex.quote(f"{SOLUTION_IN_WORKSPACE}/{step['name']}")
        timeout = float(step.get("agent_timeout") or 900.0)
        actions.append(
            {
                "action": "shell",
                "cmd": f'SOLUTION_DIR="$PWD/{SOLUTION_IN_WORKSPACE}/{step["name"]}"'
                f" bash {folder}/solve.sh",
                "timeout_s": timeout,
            }
        )
        report.became(
            src.relative_to(source).as_posix(),
            f"solution/files/{step['name']}/: written to {SOLUTION_IN_WORKSPACE}/, solve.sh run"
            " by a shell action (/solution -> $SOLUTION_DIR)",
        )
    actions.append({"action": "shell", "cmd": f"rm -rf {SOLUTION_IN_WORKSPACE}"})
    actions.append({"action": "message", "text": "Done: ran the task's reference solve.sh."})
    lines = [json.dumps(a, ensure_ascii=False) for a in actions]
    (solution / "trajectory.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
