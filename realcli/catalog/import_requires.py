"""What a task's image provides, read from its Dockerfile and the base Dockerfiles its ``FROM``
names resolve to (``--images DIR``, e.g. a LongCLI-Bench release's ``longcli_dockerImage/``):
the programs installed by ``apt-get install`` / ``pip install`` / known installers become the
task's ``requires`` (checked by preflight before a run: a missing one is an ``infra_error``
naming it, never a graded failure)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from realcli.catalog.import_scripts import command_words, dockerfile_instructions, split_commands

__all__ = ["APT_PROGRAMS", "ImageChain", "base_dockerfile", "read_image_chain"]

APT_PROGRAMS: dict[str, tuple[str, ...]] = {
    "git": ("git",),
    "make": ("make",),
    "build-essential": ("gcc", "g++", "make"),
    "gcc": ("gcc",),
    "g++": ("g++",),
    "clang": ("clang",),
    "cmake": ("cmake",),
    "ninja-build": ("ninja",),
    "doxygen": ("doxygen",),
    "pkg-config": ("pkg-config",),
    "gdb": ("gdb",),
    "gdb-multiarch": ("gdb-multiarch",),
    "qemu-system-misc": ("qemu-system-riscv64",),
    "gcc-riscv64-linux-gnu": ("riscv64-linux-gnu-gcc",),
    "binutils-riscv64-linux-gnu": ("riscv64-linux-gnu-ld", "riscv64-linux-gnu-objdump"),
    "gcc-riscv64-unknown-elf": ("riscv64-unknown-elf-gcc",),
    "curl": ("curl",),
    "wget": ("wget",),
    "rsync": ("rsync",),
    "sudo": ("sudo",),
    "openssh-server": ("sshd",),
    "openssh-client": ("ssh",),
    "python3": ("python3",),
    "python3-pip": ("pip3",),
    "python-is-python3": ("python",),
    "nodejs": ("node",),
    "npm": ("npm",),
    "golang": ("go",),
    "golang-go": ("go",),
    "rustc": ("rustc",),
    "cargo": ("cargo",),
    "default-jdk": ("java", "javac"),
    "maven": ("mvn",),
    "sqlite3": ("sqlite3",),
    "jq": ("jq",),
    "tmux": ("tmux",),
    "vim": ("vim",),
    "unzip": ("unzip",),
    "zip": ("zip",),
    "xvfb": ("Xvfb",),
}
"""Debian/Ubuntu package -> the programs it puts on PATH (the packages LongCLI-Bench's and
Terminal-Bench's images install). Versioned toolchains (``clang-15``, ``clang-tidy-15``,
``openjdk-17-jdk``) map by pattern below."""
_VERSIONED = (
    (re.compile(r"^(clang|clang-format|clang-tidy|clangd|llvm)-\d+$"), lambda p: (p,)),
    (re.compile(r"^gcc-\d+$"), lambda p: (p,)),
    (re.compile(r"^g\+\+-\d+$"), lambda p: (p,)),
    (re.compile(r"^python3\.\d+$"), lambda p: (p,)),
    (re.compile(r"^openjdk-\d+-jdk(-headless)?$"), lambda p: ("java", "javac")),
)
_NOT_PROGRAMS = re.compile(r"(^lib|-dev$|-doc$|^ca-certificates$|^locales|^tzdata$|-data$)")
PIP_PROGRAMS = {"pytest": "pytest", "uv": "uv", "ruff": "ruff", "tox": "tox", "nox": "nox"}
"""Python packages whose console script a test command calls."""


@dataclass
class ImageChain:
    """The Dockerfiles a task's image is built from, task first, and what they install."""

    programs: dict[str, str] = field(default_factory=dict)
    """Program -> where it comes from (``Dockerfile:5 apt-get install gcc-riscv64-linux-gnu``)."""
    packages_without_program: list[str] = field(default_factory=list)
    bases: list[tuple[str, Path | None]] = field(default_factory=list)
    """Each ``FROM`` image, with the base Dockerfile in the images folder that defines it (or
    None: nothing here builds it)."""


def base_dockerfile(image: str, images_dir: Path | None) -> Path | None:
    """The base Dockerfile in ``images_dir`` that defines ``image`` (``tb/make-pytest:v0`` ->
    ``Dockerfile.make-pytest-base``, ``Dockerfile.make-pytest``, ``make-pytest/Dockerfile``,
    ``make-pytest.Dockerfile``), or None."""
    if images_dir is None or not images_dir.is_dir():
        return None
    name = posixpath.basename(image.split("@", 1)[0]).split(":", 1)[0]
    for candidate in (
        f"Dockerfile.{name}-base",
        f"Dockerfile.{name}",
        f"{name}/Dockerfile",
        f"{name}.Dockerfile",
    ):
        path = images_dir / candidate
        if path.is_file():
            return path
    return None


def _installs(command: str) -> tuple[str, list[str]] | None:
    """(tool, packages) of an ``apt-get install`` / ``apt install`` / ``pip install`` line."""
    words = command_words(command)
    if not words:
        return None
    tool = posixpath.basename(words[0])
    if re.fullmatch(r"python[0-9.]*", tool) and words[1:3] == ["-m", "pip"]:
        words, tool = words[2:], "pip"
    if tool in ("apt-get", "apt", "pip", "pip3") and "install" in words:
        args = words[words.index("install") + 1 :]
        packages = [w for w in args if not w.startswith("-") and "=" not in w[:1]]
        return ("apt" if tool.startswith("apt") else "pip"), packages
    return None  # `uv add` installs into a project's venv, nvm under ~/.nvm: not on PATH


def _programs_of(kind: str, package: str) -> tuple[str, ...] | None:
    if kind == "pip":
        name = re.split(r"[<>=!~\[;]", package, maxsplit=1)[0].lower()
        return (PIP_PROGRAMS[name],) if name in PIP_PROGRAMS else ()
    bare = package.split("=", 1)[0]
    if bare in APT_PROGRAMS:
        return APT_PROGRAMS[bare]
    for pattern, programs in _VERSIONED:
        if pattern.match(bare):
            return programs(bare)
    return () if _NOT_PROGRAMS.search(bare) else None


def _read_one(dockerfile: Path, shown: str, chain: ImageChain) -> str | None:
    """Record what ``dockerfile`` installs; return its (first) FROM image."""
    text = dockerfile.read_text(encoding="utf-8", errors="replace")
    image: str | None = None
    for ins in dockerfile_instructions(text):
        if ins.name == "FROM" and image is None:
            words = [w for w in ins.args.split() if not w.startswith("--")]
            image = words[0] if words else None
        if ins.name != "RUN":
            continue
        for command in split_commands(ins.args):
            for part in re.split(r"\|\|?", command):
                if re.search(r"astral\.sh/uv", command) and "curl" in part:
                    chain.programs.setdefault("uv", f"{shown}:{ins.line} (uv installer)")
                found = _installs(part)
                if found is None:
                    continue
                kind, packages = found
                for package in packages:
                    programs = _programs_of(kind, package)
                    if programs is None:
                        chain.packages_without_program.append(f"{package} ({shown}:{ins.line})")
                    for program in programs or ():
                        where = f"{shown}:{ins.line} {kind} install {package}"
                        chain.programs.setdefault(program, where)
    return image


def read_image_chain(dockerfile: Path, images_dir: Path | None) -> ImageChain:
    """The task's Dockerfile, then each base Dockerfile its FROM chain resolves to in
    ``images_dir`` (at most 8 deep; a cycle stops)."""
    chain = ImageChain()
    if not dockerfile.is_file():
        return chain
    current: Path | None = dockerfile
    shown = "Dockerfile"
    seen: set[Path] = set()
    while current is not None and current.resolve() not in seen and len(seen) < 8:
        seen.add(current.resolve())
        image = _read_one(current, shown, chain)
        if image is None or image == "scratch":
            break
        base = base_dockerfile(image, images_dir)
        chain.bases.append((image, base))
        current = base
        shown = base.name if base is not None else ""
    return chain
