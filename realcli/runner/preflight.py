"""Preflight: the programs a task needs, checked inside the sandbox its run uses, before the
agent starts.

A task's requirements are its ``requires`` (task.toml) plus, under ``sandbox=docker``, the
programs its own Dockerfile installs (``apt-get install`` lines mapped through
:data:`PACKAGE_PROGRAMS`; a package not in the table is not guessed). Under ``sandbox=local`` the
Dockerfile does not apply (nothing builds it), so only ``requires`` is checked: a task that
needs a toolchain the host lacks says so instead of "failing F2P on the initial state".

All of them are looked up with one ``command -v`` per program in one sandboxed shell; a missing
one ends the run as ``infra_error`` (:attr:`ErrorType.missing_tool`) naming the program, where
the requirement comes from and the fix, before any agent session, model call or grading.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from realcli.catalog.bundle import TaskBundle
from realcli.sandbox import Sandbox, SandboxError, SandboxOptions

__all__ = ["PACKAGE_PROGRAMS", "Missing", "Requirement", "find_missing", "requirements"]

PACKAGE_PROGRAMS: dict[str, tuple[str, ...]] = {
    "gcc": ("gcc",),
    "g++": ("g++",),
    "build-essential": ("gcc", "g++", "make"),
    "make": ("make",),
    "cmake": ("cmake",),
    "clang": ("clang",),
    "gcc-riscv64-linux-gnu": ("riscv64-linux-gnu-gcc",),
    "g++-riscv64-linux-gnu": ("riscv64-linux-gnu-g++",),
    "binutils-riscv64-linux-gnu": ("riscv64-linux-gnu-objdump",),
    "gcc-riscv64-unknown-elf": ("riscv64-unknown-elf-gcc",),
    "qemu-system-misc": ("qemu-system-riscv64",),
    "qemu-system-x86": ("qemu-system-x86_64",),
    "gdb-multiarch": ("gdb-multiarch",),
    "default-jdk": ("java", "javac"),
    "openjdk-17-jdk": ("java", "javac"),
    "maven": ("mvn",),
    "nodejs": ("node",),
    "npm": ("npm",),
    "golang": ("go",),
    "golang-go": ("go",),
    "rustc": ("rustc",),
    "cargo": ("cargo",),
    "python3": ("python3",),
    "git": ("git",),
    "curl": ("curl",),
    "jq": ("jq",),
    "sqlite3": ("sqlite3",),
}
"""Debian packages -> the programs they put on PATH (what preflight can check for sure)."""

_INSTALLERS = (("apt-get", "install"), ("apt", "install"))
_CHECK_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Requirement:
    program: str
    source: str
    """Where it comes from: ``task.toml: requires`` or ``environment/Dockerfile:LINE``."""


@dataclass(frozen=True)
class Missing:
    requirement: Requirement
    sandbox: str

    def message(self) -> str:
        r = self.requirement
        if r.source.startswith("task.toml"):
            fix = (
                "install it on the host, or run with sandbox=docker and an environment."
                "dockerfile that installs it"
                if self.sandbox == "local"
                else "install it in the task's image (its Dockerfile)"
            )
        else:
            fix = "make the task's Dockerfile install it (the image lacks it)"
        return (
            f"{r.program}: not found on PATH in the task's {self.sandbox} sandbox, needed by "
            f"{r.source} (fix: {fix}; the run never started, so nothing was graded)"
        )


def _dockerfile_programs(path: Path, rel: str) -> list[Requirement]:
    """Programs the Dockerfile's ``apt-get install`` lines provide (packages in the table)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    out: list[Requirement] = []
    logical: list[tuple[int, str]] = []
    start, buf = 0, ""
    for no, line in enumerate(text.splitlines(), 1):
        if not buf:
            start = no
        stripped = line.rstrip()
        if stripped.endswith("\\"):
            buf += stripped[:-1] + " "
            continue
        logical.append((start, buf + stripped))
        buf = ""
    for no, line in logical:
        head, _, rest = line.strip().partition(" ")
        if head.upper() != "RUN":
            continue
        try:
            words = shlex.split(rest, comments=False)
        except ValueError:
            continue
        for i, word in enumerate(words):
            if (word, words[i + 1] if i + 1 < len(words) else "") not in _INSTALLERS:
                continue
            for pkg in words[i + 2 :]:
                if pkg in ("&&", "||", ";", "|"):
                    break
                if pkg.startswith("-"):
                    continue
                name = pkg.split("=", 1)[0].split(":", 1)[0]
                for program in PACKAGE_PROGRAMS.get(name, ()):
                    out.append(Requirement(program, f"{rel}:{no} (apt package {name})"))
    return out


def requirements(task: TaskBundle, sandbox_kind: str) -> list[Requirement]:
    """What the task's run needs on PATH, deduplicated by program (first source wins)."""
    reqs = [Requirement(p, "task.toml: requires") for p in task.spec.requires]
    dockerfile = task.spec.environment.dockerfile
    if sandbox_kind == "docker" and dockerfile is not None:
        reqs += _dockerfile_programs(task.root / dockerfile, dockerfile)
    seen: set[str] = set()
    unique = []
    for r in reqs:
        if r.program not in seen:
            seen.add(r.program)
            unique.append(r)
    return unique


def find_missing(
    task: TaskBundle,
    options: SandboxOptions,
    make_sandbox: Callable[[SandboxOptions], Sandbox],
    sandbox_kind: str,
) -> list[Missing]:
    """The task's required programs that its sandbox does not have (one sandboxed shell).

    Raises:
        SandboxError: the sandbox could not run the check (an infra error of its own).
    """
    reqs = requirements(task, sandbox_kind)
    if not reqs:
        return []
    script = "; ".join(
        f"command -v {shlex.quote(r.program)} >/dev/null 2>&1 || echo {shlex.quote(r.program)}"
        for r in reqs
    )
    result = make_sandbox(options).exec(["sh", "-c", script], timeout_s=_CHECK_TIMEOUT_S)
    if result.timed_out or result.returncode != 0:
        raise SandboxError(
            f"the preflight check of {task.id}'s programs failed in its sandbox "
            f"(exit {result.returncode}): {(result.stderr or result.stdout)[-300:]}"
        )
    absent = set(result.stdout.split())
    return [Missing(r, sandbox_kind) for r in reqs if r.program in absent]
