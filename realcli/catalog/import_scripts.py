"""Read the scripts of a LongCLI-Bench / Terminal-Bench 1 task: Dockerfile instructions, shell
commands (which need the network or root, which stay inside the workdir) and pytest calls.

Only what ``realcli.catalog.importer`` needs to decide what maps onto a realcli bundle; this is
a reader for the common forms, not a Dockerfile or shell implementation.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from dataclasses import dataclass, field

__all__ = [
    "DockerInstruction",
    "PytestCall",
    "blocker",
    "command_words",
    "copy_arguments",
    "dockerfile_instructions",
    "install_packages",
    "pytest_call",
    "split_commands",
]


@dataclass(frozen=True)
class DockerInstruction:
    line: int
    name: str
    """Upper-case instruction (``RUN``, ``COPY``, ...)."""
    args: str
    heredoc: bool = False
    """The instruction carries a ``<<EOF`` heredoc body (not mapped)."""


_HEREDOC = re.compile(r"<<-?\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?")


def dockerfile_instructions(text: str) -> list[DockerInstruction]:
    """The instructions of a Dockerfile: comments dropped, ``\\`` continuations joined,
    heredoc bodies consumed (and flagged)."""
    out: list[DockerInstruction] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start, raw = i + 1, lines[i]
        i += 1
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [raw]
        while parts[-1].rstrip().endswith("\\") and i < len(lines):
            parts[-1] = parts[-1].rstrip()[:-1]
            nxt = lines[i]
            i += 1
            if nxt.lstrip().startswith("#"):
                parts.append("\\")  # a comment inside a continuation: skipped, keep joining
                continue
            parts.append(nxt)
        joined = " ".join(p.strip() for p in parts if p.strip() != "\\").strip()
        name, _, args = joined.partition(" ")
        heredoc = _HEREDOC.search(args) if name.upper() in ("RUN", "COPY", "ADD") else None
        if heredoc:
            end = heredoc.group(1)
            while i < len(lines) and lines[i].strip() != end:
                i += 1
            i += 1
        out.append(DockerInstruction(start, name.upper(), args.strip(), heredoc is not None))
    return out


def split_commands(script: str) -> list[str]:
    """The top-level commands of a shell line: split at ``&&``, ``;`` and newlines outside
    quotes and parentheses. Pipelines and ``||`` stay whole (they are one command's fate)."""
    out: list[str] = []
    buf: list[str] = []
    quote: str | None = None
    depth = 0
    i = 0
    while i < len(script):
        ch = script[i]
        if quote:
            buf.append(ch)
            if ch == "\\" and quote == '"' and i + 1 < len(script):
                buf.append(script[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch == "\\" and i + 1 < len(script):
            buf.append(script[i : i + 2])
            i += 1
        elif ch in "'\"":
            quote = ch
            buf.append(ch)
        elif ch == "(":
            depth += 1
            buf.append(ch)
        elif ch == ")":
            depth = max(0, depth - 1)
            buf.append(ch)
        elif depth == 0 and (ch in ";\n" or script.startswith("&&", i)):
            out.append("".join(buf))
            buf = []
            i += 1 if ch != "&" else 2
            continue
        else:
            buf.append(ch)
        i += 1
    out.append("".join(buf))
    return [c.strip() for c in out if c.strip()]


_PREFIXES = {"sudo", "env", "time", "exec", "nohup", "command"}
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def command_words(command: str) -> list[str]:
    """The words of a simple command, without leading ``VAR=value`` assignments and
    ``sudo``/``env``/``time`` prefixes (and their options)."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:  # unbalanced quotes: good enough for classification
        words = command.split()
    while words and (
        words[0] in _PREFIXES or _ASSIGNMENT.match(words[0]) or words[0].startswith("-")
    ):
        words = words[1:]
    return words


_NETWORK_TOOLS = {
    "apt-get": "system packages",
    "apt": "system packages",
    "aptitude": "system packages",
    "yum": "system packages",
    "dnf": "system packages",
    "apk": "system packages",
    "zypper": "system packages",
    "pacman": "system packages",
    "add-apt-repository": "system packages",
    "curl": "a download",
    "wget": "a download",
    "conda": "conda packages",
    "mamba": "conda packages",
    "micromamba": "conda packages",
    "gem": "Ruby gems",
    "rustup": "a Rust toolchain",
    "pipx": "Python tools",
    "uvx": "Python tools",
}
_NETWORK_SUBCOMMANDS = {
    "pip": ({"install", "download", "wheel"}, "Python packages"),
    "pip3": ({"install", "download", "wheel"}, "Python packages"),
    "npm": ({"install", "i", "ci", "add", "update"}, "npm packages"),
    "yarn": ({"install", "add", "", "upgrade"}, "npm packages"),
    "pnpm": ({"install", "i", "add", "update"}, "npm packages"),
    "poetry": ({"install", "add", "update", "lock"}, "Python packages"),
    "uv": ({"pip", "sync", "add", "tool", "lock"}, "Python packages"),
    "go": ({"get", "install", "mod"}, "Go modules"),
    "cargo": ({"install", "fetch"}, "Rust crates"),
    "git": ({"clone", "fetch", "pull", "submodule", "ls-remote"}, "a git remote"),
}
_ROOT_TOOLS = {
    "useradd", "adduser", "groupadd", "usermod", "chown", "chgrp", "systemctl", "service",
    "update-alternatives", "ldconfig", "locale-gen", "dpkg", "rpm", "mount", "sysctl",
}  # fmt: skip
_WRITERS = {"mkdir", "touch", "cp", "mv", "ln", "rm", "chmod", "install", "tee", "rsync", "tar"}
_SAFE_ROOTS = ("/dev/", "/tmp/", "/proc/")
_REDIRECT = re.compile(r"\d?>>?\s*(/[^\s;&|)]*)")


def _network_reason(words: list[str]) -> str | None:
    if not words:
        return None
    tool = posixpath.basename(words[0])
    if tool in _NETWORK_TOOLS:
        return f"needs the network ({_NETWORK_TOOLS[tool]})"
    if re.fullmatch(r"python[0-9.]*", tool) and words[1:3] == ["-m", "pip"]:
        words, tool = words[2:], "pip"
    if tool in _NETWORK_SUBCOMMANDS:
        subs, what = _NETWORK_SUBCOMMANDS[tool]
        sub = next((w for w in words[1:] if not w.startswith("-")), "")
        if sub in subs:
            return f"needs the network ({what})"
    return None


def _outside(path: str, workdir: str) -> bool:
    if not path.startswith("/"):
        return False
    norm = posixpath.normpath(path)
    if norm == workdir or norm.startswith(workdir.rstrip("/") + "/"):
        return False
    return not any(norm == r.rstrip("/") or norm.startswith(r) for r in _SAFE_ROOTS)


def blocker(command: str, workdir: str, cwd: str) -> str | None:
    """Why ``command`` (one top-level shell command, run in ``cwd``) cannot run in realcli's
    sandbox (no network, read-only system, only ``workdir`` writable), or None."""
    if _outside(cwd, workdir):
        return f"runs in {cwd}, outside the workdir {workdir}"
    for part in re.split(r"\|\|?", command):
        words = command_words(part)
        reason = _network_reason(words)
        if reason:
            return reason
        if not words:
            continue
        tool = posixpath.basename(words[0])
        if tool in _ROOT_TOOLS:
            return "needs root on the image's system"
        if tool == "cd" and len(words) > 1 and _outside(words[1], workdir):
            return f"changes to {words[1]}, outside the workdir {workdir}"
        if tool in _WRITERS:
            bad = [w for w in words[1:] if _outside(w, workdir)]
            if bad:
                return f"writes {bad[0]}, outside the workdir {workdir}"
        for target in _REDIRECT.findall(part):
            if _outside(target, workdir):
                return f"writes {target}, outside the workdir {workdir}"
    return None


def install_packages(command: str) -> list[str] | None:
    """The Python packages a ``pip install`` / ``uv pip install`` / ``uv add`` / ``uvx --with``
    command installs (``-r file`` as ``-r file``), or None when it installs none."""
    words = command_words(command)
    if not words:
        return None
    tool = posixpath.basename(words[0])
    if re.fullmatch(r"python[0-9.]*", tool) and words[1:3] == ["-m", "pip"]:
        words, tool = words[2:], "pip"
    if tool == "uvx":
        found = [
            words[i + 1]
            for i, w in enumerate(words[:-1])
            if w in ("-w", "--with") and not words[i + 1].startswith("-")
        ]
        found += [w.split("=", 1)[1] for w in words if w.startswith("--with=")]
        return found or None
    if tool == "uv" and words[1:2] == ["pip"]:
        words, tool = words[1:], "pip"
    if tool == "uv" and words[1:2] == ["add"]:
        words, tool = ["pip", "install", *words[2:]], "pip"
    if tool not in ("pip", "pip3") or "install" not in words:
        return None
    args = words[words.index("install") + 1 :]
    packages: list[str] = []
    skip = False
    for i, w in enumerate(args):
        if skip:
            skip = False
            continue
        if w in ("-r", "--requirement") and i + 1 < len(args):
            packages.append(f"-r {args[i + 1]}")
            skip = True
        elif w in ("-i", "--index-url", "--extra-index-url", "-c", "--constraint", "-t"):
            skip = True
        elif not w.startswith("-"):
            packages.append(w)
    return packages


# ------------------------------------------------------------------------------- pytest calls

_VALUE_OPTIONS = {
    "-k", "-m", "-p", "-W", "-c", "-o", "-n", "-r", "--tb", "--durations", "--rootdir",
    "--maxfail", "--timeout", "--deselect", "--ignore", "--import-mode", "--ctrf", "--junitxml",
    "--junit-xml", "--json-report-file", "--cov", "--basetemp", "--log-level", "--confcutdir",
    "--capture", "--color",
}  # fmt: skip
_OUTPUT_ONLY = re.compile(
    r"^(-r( ?\S+)?|-v+|-q+|-s|-l|--no-header|--disable-warnings|--verbose|--quiet"
    r"|--showlocals|-p no:cacheprovider|--json-report"
    r"|(--tb|--color|--durations|--ctrf|--junit-?xml|--json-report-file|--capture)[ =].*)$"
)


@dataclass
class PytestCall:
    """One pytest invocation of a run-tests.sh: the paths it runs and its options."""

    paths: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    """Output-only options: harmless, realcli writes its own JUnit XML and log."""
    not_honoured: list[str] = field(default_factory=list)
    """Options that change what runs or how it is judged; realcli's grading command has none."""


_RUNNERS = {"uv", "uvx", "poetry", "pipenv", "pdm", "hatch", "rye", "timeout", "xvfb-run"}
"""Commands that run pytest as their argument (``uv run pytest``, ``timeout 60 pytest``)."""


def _pytest_start(words: list[str]) -> int | None:
    """Index of the first pytest argument in ``words``, or None when it is no pytest call."""
    for i, w in enumerate(words):
        base = posixpath.basename(w)
        if base in ("pytest", "py.test"):
            runner = posixpath.basename(words[0]) in _RUNNERS
            installs = {"install", "add", "sync"} & set(words[1:i])
            if i == 0 or (runner and not installs and words[i - 1] not in ("-w", "--with")):
                return i + 1
        if re.fullmatch(r"python[0-9.]*", base) and words[i + 1 : i + 3] == ["-m", "pytest"]:
            return i + 3
    return None


def pytest_call(command: str) -> PytestCall | None:
    """The pytest call in ``command`` (``pytest``, ``uv run pytest``, ``python -m pytest``,
    ``uvx ... pytest``), or None."""
    words = command_words(re.sub(r"\s\d?>>?\s*\S+|\s2>&1", " ", command))
    start = _pytest_start(words)
    if start is None:
        return None
    call = PytestCall()
    args = words[start:]
    i = 0
    while i < len(args):
        w = args[i]
        if w.startswith("-"):
            option = w
            if w in _VALUE_OPTIONS and i + 1 < len(args):
                option = f"{w} {args[i + 1]}"
                i += 1
            (call.ignored if _OUTPUT_ONLY.match(option) else call.not_honoured).append(option)
        else:
            call.paths.append(w)
        i += 1
    return call


def copy_arguments(args: str) -> tuple[list[str], list[str], str]:
    """A COPY/ADD line's ``--flags``, sources and destination (JSON or shell form)."""
    flags: list[str] = []
    words = args.split()
    while words and words[0].startswith("--"):
        flags.append(words.pop(0))
    rest = " ".join(words)
    if rest.startswith("["):
        try:
            parsed = json.loads(rest)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, list) and all(isinstance(p, str) for p in parsed):
            words = parsed
    if len(words) < 2:
        return flags, [], words[0] if words else ""
    return flags, words[:-1], words[-1]
