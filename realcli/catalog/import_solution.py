"""A LongCLI-Bench / Terminal-Bench 1 reference solution as a realcli trajectory:
``solution.sh`` -> ``solution/solution.sh``, written into the workspace and run by one shell
action; ``solution.yaml`` (Terminal-Bench 1's command list) -> one shell action per command;
no script but a ``<task>_finished`` folder beside the task (LongCLI-Bench's completed copy) ->
one write action per changed file."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import tempfile
from pathlib import Path

from realcli.catalog.bundle import NO_REFERENCE
from realcli.catalog.import_environment import Environment, build_repo
from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_scripts import blocker, split_commands
from realcli.util.errors import TaskError

__all__ = ["SCRIPT_IN_WORKSPACE", "mark_no_reference", "write_solution"]

SCRIPT_IN_WORKSPACE = ".realcli_solution.sh"
"""Where the reference run writes solution.sh in the workspace (deleted after it ran)."""
_TMUX_KEY = re.compile(
    r"^([CMS]-\S+|Enter|Escape|Tab|BSpace|BTab|Space|Up|Down|Left|Right|Home|End|PageUp"
    r"|PageDown|PPage|NPage|F\d{1,2}|DC|IC)$"
)


def _empty_script(text: str) -> bool:
    """Only a shebang, comments, blank lines and ``set`` options."""
    return all(
        not ln.strip() or ln.lstrip().startswith("#") or re.match(r"^\s*set\s+[-+]", ln)
        for ln in text.splitlines()
    )


def _from_script(
    source: Path, bundle: Path, agent_s: float, env: Environment, report: ImportReport
) -> list[dict[str, object]]:
    script = source / "solution.sh"
    try:
        script.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TaskError(str(script), None, "not UTF-8 text", "save it as UTF-8") from exc
    shutil.copy2(script, bundle / "solution" / "solution.sh")
    report.became(
        "solution.sh",
        f"solution/solution.sh, written to {SCRIPT_IN_WORKSPACE} and run by one shell action",
    )
    text = script.read_text(encoding="utf-8")
    for lineno, line in enumerate(text.splitlines(), start=1):
        for command in split_commands(line):
            why = blocker(command, env.workdir, env.workdir)
            if why and "network" in why:
                report.cannot(
                    f"solution.sh:{lineno}",
                    f"`{command}`",
                    f"{why}: the reference runs in the sandbox",
                    "do it on the host beforehand (or in environment/setup.sh if it works offline),"
                    " then drop it from solution/solution.sh",
                )
    run = f"bash {SCRIPT_IN_WORKSPACE}; status=$?; rm -f {SCRIPT_IN_WORKSPACE}; exit $status"
    return [
        {
            "action": "write",
            "path": SCRIPT_IN_WORKSPACE,
            "content_from": "solution.sh",
            "note": "The imported task's reference solution (solution.sh).",
        },
        {"action": "shell", "cmd": run, "timeout_s": agent_s},
        {"action": "message", "text": "Done: ran the task's reference solution (solution.sh)."},
    ]


def _from_yaml(source: Path, report: ImportReport) -> list[dict[str, object]]:
    import yaml

    path = source / "solution.yaml"
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise TaskError(str(path), None, f"not valid YAML ({exc})", "fix the syntax") from exc
    if not isinstance(entries, list):
        raise TaskError(str(path), None, "not a list of commands", "write `- command: ...` items")
    actions: list[dict[str, object]] = []
    for i, entry in enumerate(entries):
        command = entry.get("command") if isinstance(entry, dict) else None
        if not isinstance(command, str) or not command.strip():
            raise TaskError(
                str(path), f"[{i}].command", "missing or empty", "give every item a command"
            )
        assert isinstance(entry, dict)
        if not entry.get("append_enter", True) or _TMUX_KEY.match(command.strip()):
            report.cannot(
                f"solution.yaml[{i}]",
                f"keystrokes {command!r}",
                "typed into a terminal (tmux keys, no Enter): realcli's actions are commands and"
                " file edits",
                "replace the interactive steps with commands or write/edit actions in"
                " solution/trajectory.jsonl",
            )
            continue
        timeout = entry.get("max_timeout_sec", 180.0)
        actions.append(
            {"action": "shell", "cmd": command.rstrip("\n"), "timeout_s": float(timeout or 180.0)}
        )
    report.became(
        "solution.yaml",
        f"solution/trajectory.jsonl: {len(actions)} shell action(s), one per command"
        " (each waits for its command to end, `block: false` or not)",
    )
    return [*actions, {"action": "message", "text": "Done: ran the task's reference commands."}]


def _from_finished(finished: Path, bundle: Path, report: ImportReport) -> list[dict[str, object]]:
    """Write actions that turn the initial repo into the finished folder's repo."""
    initial = bundle / "environment" / "repo"
    actions: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="realcli-finished-") as tmp:
        done = Path(tmp) / "repo"
        build_repo(finished, done)
        for path in sorted(p for p in done.rglob("*") if p.is_file()):
            rel = path.relative_to(done).as_posix()
            before = initial / rel
            if before.is_file() and before.read_bytes() == path.read_bytes():
                continue
            try:
                path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                report.cannot(
                    f"{finished.name}/",
                    f"binary file {rel}",
                    "write actions carry text only",
                    "add a shell action that produces it (e.g. from a file under solution/)",
                )
                continue
            (bundle / "solution" / "files" / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, bundle / "solution" / "files" / rel)
            actions.append({"action": "write", "path": rel, "content_from": f"files/{rel}"})
        for path in sorted(p for p in initial.rglob("*") if p.is_file()):
            rel = path.relative_to(initial).as_posix()
            if not (done / rel).exists():
                actions.append({"action": "shell", "cmd": f"rm -f -- {shlex.quote(rel)}"})
    report.metadata["reference"] = f"{finished} (LongCLI-Bench's finished copy of the task)"
    return [*actions, {"action": "message", "text": "Done: the repo matches the finished task."}]


def mark_no_reference(bundle: Path, report: ImportReport, why: str) -> None:
    """Mark the bundle as having no reference (``solution/NO_REFERENCE``, read by replay and
    the reference gates) and say so in the report."""
    (bundle / "solution").mkdir(parents=True, exist_ok=True)
    (bundle / "solution" / NO_REFERENCE).write_text(why + "\n", encoding="utf-8")
    report.cannot(
        "solution",
        "no reference solution",
        f"{why}: solution/trajectory.jsonl is empty and solution/{NO_REFERENCE} says why;"
        " `realcli tasks check` skips the reference gates with a warning and model=replay"
        " refuses the task (infra_error 'no reference solution to replay')",
        "write solution/trajectory.jsonl (docs/tasks.md, Actions) so the reference passes,"
        f" then delete solution/{NO_REFERENCE}",
    )
    report.notes.append(
        f"no reference solution (solution/{NO_REFERENCE}): `tasks check` runs the initial-state"
        " gates and skips the reference gates with a warning; model=replay cannot run it"
    )


def write_solution(
    source: Path, bundle: Path, agent_s: float, env: Environment, report: ImportReport
) -> None:
    """Write ``bundle/solution`` (trajectory.jsonl and the files it takes)."""
    (bundle / "solution").mkdir(parents=True)
    script = source / "solution.sh"
    finished = source.resolve().parent / f"{source.resolve().name}_finished"
    has_script = script.is_file() and not _empty_script(script.read_text(errors="replace"))
    if has_script:
        actions = _from_script(source, bundle, agent_s, env, report)
        if (source / "solution.yaml").is_file():
            report.became("solution.yaml", "not used: solution.sh is the reference")
    elif (source / "solution.yaml").is_file():
        actions = _from_yaml(source, report)
    elif finished.is_dir():
        actions = _from_finished(finished, bundle, report)
        if script.is_file():
            report.became("solution.sh", f"empty: the reference comes from {finished.name}/")
    else:
        if script.is_file():
            report.became("solution.sh", f"empty: no reference (solution/{NO_REFERENCE})")
        why = (
            "solution.sh is missing or empty, there is no solution.yaml and no"
            f" {source.name}_finished folder"
        )
        mark_no_reference(bundle, report, why)
        actions = []
    lines = [json.dumps(a, ensure_ascii=False) + "\n" for a in actions]
    (bundle / "solution" / "trajectory.jsonl").write_text("".join(lines), encoding="utf-8")
