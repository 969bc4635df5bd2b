"""A task's Dockerfile as a realcli environment: ``WORKDIR`` -> the workdir, ``COPY``/``ADD``
into the workdir -> ``environment/repo``, ``RUN`` lines that work offline inside the workdir ->
``environment/setup.sh``; everything else is reported (``IMPORT_REPORT.md``) with what to do."""

from __future__ import annotations

import posixpath
import re
import shlex
import shutil
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_scripts import (
    DockerInstruction,
    blocker,
    command_words,
    copy_arguments,
    dockerfile_instructions,
    split_commands,
)
from realcli.schema.task_spec import WORKDIR_ROOT
from realcli.util.errors import TaskError

__all__ = ["PIP_FIX", "TASK_FILES", "Environment", "build_repo", "host_fix", "read_environment"]

DEFAULT_WORKDIR = "/app"
TASK_FILES = frozenset(
    {
        "task.yaml",
        "Dockerfile",
        "docker-compose.yaml",
        "docker-compose.yml",
        "run-tests.sh",
        "solution.sh",
        "solution.yaml",
        "tests",
        ".dockerignore",
    }
)
"""Files of the task itself: never copied into the workspace by a whole-context ``COPY .``
(the agent must not see the tests or the solution)."""
_WORKDIR_PATTERN = re.compile(r"^/[A-Za-z0-9_./-]+$")
_ARCHIVE = re.compile(r"\.(tar|tar\.gz|tgz|tar\.bz2|tbz2|tar\.xz|txz)$")
PIP_FIX = "install them into the Python environment realcli runs from (the sandbox's `python`)"
_IGNORED = {"LABEL", "MAINTAINER"}
_NOT_RUN = {
    "CMD": "the container's start command",
    "ENTRYPOINT": "the container's entry point",
    "EXPOSE": "a network port",
    "VOLUME": "a volume",
    "HEALTHCHECK": "a health check",
    "ONBUILD": "a trigger for child images",
    "STOPSIGNAL": "a stop signal",
    "SHELL": "the build shell",
    "USER": "the user commands run as",
}


@dataclass
class Environment:
    workdir: str = DEFAULT_WORKDIR
    setup_lines: list[str] = field(default_factory=list)
    copied: list[str] = field(default_factory=list)
    """Build-context paths (relative) that were copied into the workspace."""
    copy_targets: dict[int, list[str]] = field(default_factory=dict)
    """Dockerfile line of a COPY/ADD -> where its sources went, relative to environment/
    (``repo/...``): the kept Dockerfile copies them from there."""
    from_images: list[str] = field(default_factory=list)


def host_fix(why: str, command: str, workdir: str) -> str:
    """What to do about a command :func:`blocker` refused."""
    if "Python packages" in why:
        return f"{PIP_FIX}: `{command}`"
    if "network" in why:
        return f"run it on the host (the sandbox has no network): `{command}`"
    return f"only {workdir} is writable in the sandbox: do it on the host if the task needs it"


def _expand(text: str, variables: dict[str, str]) -> str:
    def value(match: re.Match[str]) -> str:
        return variables.get(match.group(1) or match.group(2), match.group(0))

    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)", value, text)


def _assignments(args: str) -> dict[str, str]:
    """``ENV``/``ARG`` arguments: ``K=V K2=V2``, ``K V`` (legacy ENV) or ``NAME`` (ARG)."""
    words = command_words(f"true {args}")[1:] if "=" in args else args.split(None, 1)
    if "=" not in args:
        return {words[0]: words[1].strip("\"'") if len(words) > 1 else ""} if words else {}
    pairs = (w.partition("=") for w in words)
    return {key: value for key, _, value in pairs}


def _dockerignore(context: Path) -> list[str]:
    path = context / ".dockerignore"
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [ln.strip().strip("/") for ln in lines if ln.strip() and not ln.startswith(("#", "!"))]


def _ignored(rel: str, patterns: list[str]) -> bool:
    parts = rel.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    return any(fnmatch(p, pat) for p in prefixes for pat in patterns)


def _copy_into(source: Path, target: Path, context: Path, skip: list[str]) -> None:
    """Copy a file, or a folder's contents, from the build context to ``target``."""
    if source.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        return
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(context).as_posix()
        if path.is_dir() or "__pycache__" in path.parts or _ignored(rel, skip):
            continue
        if source == context and path.relative_to(context).parts[0] in TASK_FILES:
            continue
        dest = target / path.relative_to(source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dest, follow_symlinks=False)


def _final_workdir(instructions: list[DockerInstruction], where: str) -> tuple[str, int | None]:
    current, line = "/", None
    variables: dict[str, str] = {}
    for ins in instructions:
        if ins.name in ("ENV", "ARG"):
            variables.update(_assignments(ins.args))
        elif ins.name == "WORKDIR":
            target = _expand(ins.args.strip().strip("\"'"), variables)
            current, line = posixpath.normpath(posixpath.join(current, target)), ins.line
    if line is None:
        return DEFAULT_WORKDIR, None
    under_root = current == WORKDIR_ROOT or current.startswith(WORKDIR_ROOT + "/")
    if not under_root:
        raise TaskError(
            f"{where}:{line}",
            "WORKDIR",
            f"{current!r} is outside {WORKDIR_ROOT}, the only root a realcli workdir may have",
            f"change the WORKDIR to {WORKDIR_ROOT} (or below it) and the paths that use it",
        )
    if not _WORKDIR_PATTERN.match(current) or current == "/":
        raise TaskError(
            f"{where}:{line}",
            "WORKDIR",
            f"{current!r} cannot be a realcli workdir (letters, digits and _ . / - below /)",
            "change the WORKDIR in the Dockerfile, then import again",
        )
    return current, line


def _copy(
    ins: DockerInstruction,
    context: Path,
    repo: Path,
    cwd: str,
    env: Environment,
    variables: dict[str, str],
    report: ImportReport | None,
) -> list[str]:
    """One COPY/ADD into ``repo``; returns the context paths it copied."""
    workdir = env.workdir
    where = f"Dockerfile:{ins.line}"
    flags, sources, dest = copy_arguments(_expand(ins.args, variables))
    line = f"{ins.name} {ins.args}"
    if ins.heredoc or not sources or any(f.startswith("--from") for f in flags):
        what = "an inline heredoc" if ins.heredoc else "another build stage or image"
        if report is not None:
            report.cannot(where, line, f"copies from {what}", "add the files to environment/repo")
        return []
    dest_abs = posixpath.normpath(posixpath.join(cwd, dest))
    inside = dest_abs == workdir or dest_abs.startswith(workdir.rstrip("/") + "/")
    copied: list[str] = []
    for src in sources:
        why = None
        matches = sorted(context.glob(src)) if re.search(r"[*?\[]", src) else [context / src]
        matches = [m for m in matches if m.exists()]
        if re.match(r"^[a-z]+://", src) or src.startswith("git@"):
            why = "downloads a URL (no network in realcli)"
        elif not (context / src).resolve().is_relative_to(context.resolve()):
            why = "names a path outside the build context"
        elif not matches:
            why = "names no file in the build context"
        elif not inside:
            why = f"copies to {dest_abs}, outside the workdir {workdir} (the sandbox sees only it)"
        if why:
            if report is not None:
                fix = f"put what it provides under {workdir} (environment/repo) or on the host"
                report.cannot(where, f"{ins.name} {src} {dest}", why, fix)
            continue
        rel_dest = posixpath.relpath(dest_abs, workdir)
        as_dir = dest.endswith("/") or len(sources) > 1 or dest_abs == workdir or len(matches) > 1
        for match in matches:
            target = repo / rel_dest
            if ins.name == "ADD" and match.is_file() and _ARCHIVE.search(match.name):
                target.mkdir(parents=True, exist_ok=True)
                shutil.unpack_archive(match, target)
            elif match.is_file() and (as_dir or target.is_dir()):
                _copy_into(match, target / match.name, context, [])
            else:
                _copy_into(match, target, context, _dockerignore(context))
            rel = match.relative_to(context).as_posix() or "."
            copied.append(rel)
            placed = (
                target / match.name if match.is_file() and (as_dir or target.is_dir()) else target
            )
            kept = placed.relative_to(repo.parent).as_posix()
            env.copy_targets.setdefault(ins.line, []).append(kept + ("/" if match.is_dir() else ""))
            if report is not None:
                shown = "environment/repo" + ("" if rel_dest == "." else f"/{rel_dest}")
                report.became(rel, f"{ins.name} ({where}) into {dest_abs}: {shown}")
    if report is not None and "." in copied:
        report.became(".", "task files (task.yaml, tests, solution, ...) left out of the repo")
    return copied


def build_repo(context: Path, repo: Path, report: ImportReport | None = None) -> Environment:
    """Read ``context``'s Dockerfile and copy what it puts in the workdir into ``repo``.
    With a ``report``, every instruction is accounted for there and ``setup_lines`` are the
    RUN lines that can run in the sandbox."""
    repo.mkdir(parents=True, exist_ok=True)
    dockerfile = context / "Dockerfile"
    env = Environment()
    if not dockerfile.is_file():
        if report is not None:
            report.cannot(
                "Dockerfile",
                "no Dockerfile",
                f"nothing says what the workspace holds; workdir {DEFAULT_WORKDIR}, empty repo",
                "put the initial files in environment/repo",
            )
        return env
    instructions = dockerfile_instructions(dockerfile.read_text(encoding="utf-8", errors="replace"))
    env.workdir, _ = _final_workdir(instructions, str(dockerfile))
    cwd, froms = "/", 0
    variables: dict[str, str] = {}
    for ins in instructions:
        where = f"Dockerfile:{ins.line}"
        if ins.name == "WORKDIR":
            cwd = posixpath.normpath(
                posixpath.join(cwd, _expand(ins.args.strip("\"' "), variables))
            )
        elif ins.name in ("COPY", "ADD"):
            env.copied += _copy(ins, context, repo, cwd, env, variables, report)
        elif ins.name in ("ENV", "ARG"):
            values = {k: _expand(v, variables) for k, v in _assignments(ins.args).items()}
            variables.update(values)
            if report is not None:
                _export(ins, values, env, report)
        elif report is None:
            continue
        elif ins.name == "FROM":
            froms += 1
            env.from_images.append(ins.args.split()[0] if ins.args.split() else "")
            why = (
                "kept in environment/Dockerfile for sandbox=docker (FROM resolved through"
                " sandbox.docker.image_dirs); sandbox=local runs on the host's /usr instead"
            )
            if froms > 1:
                why = "a multi-stage build: sandbox=local reads only the instructions"
            report.cannot(
                where,
                f"FROM {ins.args}",
                why,
                "run with sandbox=docker, or install on the host what the image provides"
                " (task.toml `requires` lists the programs preflight checks)",
            )
        elif ins.name == "RUN":
            _run(ins, cwd, env, report)
        elif ins.name in _NOT_RUN and not re.search(r"sleep\W+infinity", ins.args):
            report.cannot(
                where,
                f"{ins.name} {ins.args}",
                f"{_NOT_RUN[ins.name]}: realcli starts no service and runs as its own user",
                "nothing, unless the task needs it; then it cannot run in realcli as it is",
            )
    return env


def _export(
    ins: DockerInstruction, values: dict[str, str], env: Environment, report: ImportReport
) -> None:
    where = f"Dockerfile:{ins.line}"
    for key, value in values.items():
        escaped = re.sub(r'(["\\`])', r"\\\1", value)
        env.setup_lines.append(f'export {key}="{escaped}"  # {where}')
    report.cannot(
        where,
        f"{ins.name} {ins.args}",
        "exported while environment/setup.sh runs; the agent and the tests do not see it",
        "if they need it, set it in tests/conftest.py (os.environ) or in instruction.md",
    )


def _run(ins: DockerInstruction, cwd: str, env: Environment, report: ImportReport) -> None:
    where = f"Dockerfile:{ins.line}"
    if ins.heredoc:
        report.cannot(where, f"RUN {ins.args}", "a heredoc RUN", "copy it into setup.sh by hand")
        return
    body = re.sub(r"^(--\S+\s+)+", "", ins.args)
    if body.startswith("["):
        words = [w.strip(" \"'") for w in body.strip("[]").split(",")]
        body = " ".join(words)
    kept: list[str] = []
    for command in split_commands(body):
        why = blocker(command, env.workdir, cwd)
        if why:
            report.cannot(where, f"RUN `{command}`", why, host_fix(why, command, env.workdir))
        else:
            kept.append(command)
    if not kept or all(command_words(c)[:1] == ["cd"] for c in kept):
        return
    env.setup_lines.append(f"# {where}")
    env.setup_lines.append(f"(cd {shlex.quote(cwd)} && {' && '.join(kept)})")
    report.became("Dockerfile", f"RUN ({where}) -> environment/setup.sh")


def read_environment(context: Path, bundle: Path, report: ImportReport) -> Environment:
    """Build ``bundle/environment`` from ``context``'s Dockerfile (and report the rest)."""
    env = build_repo(context, bundle / "environment" / "repo", report)
    report.became("Dockerfile", f"WORKDIR -> workdir {env.workdir}")
    if any(not line.startswith(("#", "export ")) for line in env.setup_lines):
        script = bundle / "environment" / "setup.sh"
        header = [
            "#!/usr/bin/env bash",
            "# Generated by `realcli tasks import longcli` from the task's Dockerfile: the RUN",
            "# lines that need no network and stay inside the workdir (IMPORT_REPORT.md lists",
            "# the others). Runs once in the sandbox, in the workdir, before the agent starts.",
            "set -e",
        ]
        script.write_text("\n".join(header + env.setup_lines) + "\n", encoding="utf-8")
        script.chmod(0o755)
    for name in ("docker-compose.yaml", "docker-compose.yml"):
        if (context / name).is_file():
            _compose(context / name, report)
    return env


def _compose(path: Path, report: ImportReport) -> None:
    import yaml

    name = path.name
    report.became(name, "not used: realcli runs one sandbox per task, without network")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8", errors="replace"))
    except yaml.YAMLError:
        report.cannot(name, name, "not valid YAML", "check it: nothing in it is mapped")
        return
    services = data.get("services") if isinstance(data, dict) else None
    if not isinstance(services, dict):
        return
    for i, (service, spec) in enumerate(services.items()):
        spec = spec if isinstance(spec, dict) else {}
        if i > 0:
            report.cannot(
                f"{name}: services.{service}",
                f"service {service} ({spec.get('image', 'built')})",
                "realcli starts no other service and gives the sandbox no network",
                "not supported: change the tests so they do not need the service",
            )
            continue
        environment = spec.get("environment") or []
        pairs = (
            [f"{k}={v}" for k, v in environment.items()]
            if isinstance(environment, dict)
            else [str(e) for e in environment]
        )
        for pair in pairs:
            if pair.split("=", 1)[0] not in ("TEST_DIR",) and "T_BENCH" not in pair:
                report.cannot(
                    f"{name}: services.{service}.environment",
                    pair,
                    "realcli sets no task environment variables",
                    "if the agent or tests need it, set it in tests/conftest.py or instruction.md",
                )
