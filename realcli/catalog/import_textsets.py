"""LongCLI-Bench's ``text`` test sets (``parser_results_<kind>: text``): the part of
run-tests.sh that grades one set becomes a script in the bundle, run by a realcli ``text`` test
set (``parser = "text"``): it writes ``<kind>_output.txt`` and the task's ``tests/<kind>.py``
turns that into ``<kind>_score.json`` (``{"is_pass", "step_score"}``).

run-tests.sh is read as top-level statements (a ``( ... )`` subshell, an ``if ... fi``, a
function, one command): the statements that run only the *other* set are left out; prose
lines (a sentence where a comment was meant, e.g. ``Create Test Directory``) are commented out
and reported; ``/tests`` becomes ``$TEST_DIR`` (the read-only tests mount)."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_scripts import split_commands

__all__ = [
    "RunTestsScript",
    "Statement",
    "is_prose",
    "produced_paths",
    "read_statements",
    "write_text_set",
]

_OPEN = {"if", "for", "while", "until", "case", "select"}
_CLOSE = {"fi", "done", "esac"}
_KNOWN = {
    "source", "cd", "mkdir", "cp", "rm", "mv", "echo", "printf", "set", "export", "uv", "python",
    "python3", "pytest", "make", "cmake", "ctest", "bash", "sh", "tee", "find", "test", "true",
    "false", "exit", "return", "local", "shift", "deactivate", "pip", "pip3", "npm", "node",
    "git", "cat", "ls", "chmod", "touch", "then", "else", "elif", "do", "in", "function",
}  # fmt: skip
_TESTS_PATH = re.compile(r"(?<![\w./$-])/tests(?=[/\"'\s;)]|$)")


@dataclass(frozen=True)
class Statement:
    first: int
    """1-based line number where it starts."""
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def mentions(self, kind: str) -> bool:
        return bool(re.search(rf"\b{kind}(\.py|_output|_score)\b", self.text))


@dataclass
class RunTestsScript:
    statements: list[Statement]
    prose: list[tuple[int, str]]


def is_prose(line: str) -> bool:
    """A line of words that is no command: ``Create Test Directory``, ``Run the tests``."""
    stripped = line.strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 ,.'()-]*", stripped) or " " not in stripped:
        return False
    first = stripped.split()[0]
    return first not in _KNOWN and first[0].isupper() and shutil.which(first) is None


def _depth_change(line: str) -> int:
    code = re.sub(r"'[^']*'|\"(\\.|[^\"\\])*\"|#.*$", "", line)
    code = re.sub(r"\$\([^()]*\)", "", code)
    change = code.count("(") - code.count(")") + code.count("{") - code.count("}")
    for command in split_commands(code):
        for part in re.split(r"\|\|?|&&", command):
            words = part.split()
            if words and words[0] in _OPEN:
                change += 1
            elif words and words[0] in _CLOSE:
                change -= 1
    return change


def read_statements(text: str) -> RunTestsScript:
    """run-tests.sh as top-level statements (comments and blank lines kept with the next one)."""
    statements: list[Statement] = []
    prose: list[tuple[int, str]] = []
    buf: list[str] = []
    start, depth = 1, 0
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not buf:
            start = lineno
        if line.strip() and not line.lstrip().startswith("#") and is_prose(line):
            prose.append((lineno, line.strip()))
            line = f"# {line.strip()}  # (realcli: a prose line of run-tests.sh, not a command)"
        buf.append(line)
        if line.strip() and not line.lstrip().startswith("#"):
            depth = max(0, depth + _depth_change(line))
            if depth == 0 and not line.rstrip().endswith(("\\", "&&", "||", "|")):
                statements.append(Statement(start, tuple(buf)))
                buf = []
    if buf:
        statements.append(Statement(start, tuple(buf)))
    return RunTestsScript(statements, prose)


_WRITE_TARGET = re.compile(r"(?:\d?>>?|\btee(?:\s+-a)?)\s*\"?([^\s\"';&|)]+)")


def produced_paths(text: str) -> set[str]:
    """Paths run-tests.sh writes (redirections, ``tee``, ``mkdir``), simple ``VAR=value``
    assignments (and ``${VAR:-default}``) expanded."""
    variables: dict[str, str] = {}
    for match in re.finditer(r"^\s*([A-Za-z_]\w*)=\"?([^\"\n]*)\"?\s*$", text, re.M):
        value = re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", match.group(2))
        variables[match.group(1)] = value

    def expand(path: str) -> str:
        return re.sub(
            r"\$\{?(\w+)\}?", lambda m: variables.get(m.group(1), m.group(0)), path
        ).strip("\"'")

    found: set[str] = set()
    for match in _WRITE_TARGET.finditer(text):
        target = expand(match.group(1))
        if target.startswith("/") and not target.startswith("/dev/"):
            found.add(target)
    for match in re.finditer(r"\bmkdir\s+(?:-p\s+)?\"?([^\s\"';&|)]+)", text):
        target = expand(match.group(1))
        if target.startswith("/"):
            found.add(target.rstrip("/"))
    return found


def write_text_set(
    source: Path,
    bundle: Path,
    kind: str,
    other: str,
    workdir: str,
    report: ImportReport,
) -> dict[str, str]:
    """Write ``tests/<kind>/`` (the release's tests/ folder, as the script sees it at
    ``$TEST_DIR``) and ``tests/run-<kind>.sh``; return the ``[tests.<kind>]`` table."""
    path = source / "run-tests.sh"
    text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    script = read_statements(text)
    kept: list[str] = []
    dropped: list[Statement] = []
    for st in script.statements:
        if st.mentions(other) and not st.mentions(kind):
            dropped.append(st)
            kept.append(f"# (realcli: run-tests.sh:{st.first} grades the {other} set: left out)")
        else:
            kept.extend(st.lines)
    body = _TESTS_PATH.sub("$TEST_DIR", "\n".join(kept))
    if body.startswith("#!"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
    header = [
        "#!/usr/bin/env bash",
        f"# Generated by `realcli tasks import longcli` from run-tests.sh: the {kind} set of the",
        f"# release, graded by realcli's `text` parser ({kind}_output.txt -> {kind}_score.json).",
        "# $TEST_DIR is the task's tests/ folder as the release mounts it at /tests.",
        f'TEST_DIR="${{TEST_DIR:?realcli sets TEST_DIR}}/{kind}"',
    ]
    tests_out = bundle / "tests"
    (tests_out / kind).mkdir(parents=True, exist_ok=True)
    run_script = tests_out / f"run-{kind}.sh"
    run_script.write_text("\n".join(header) + "\n" + body.strip("\n") + "\n", encoding="utf-8")
    run_script.chmod(0o755)
    if (source / "tests").is_dir():
        shutil.copytree(
            source / "tests",
            tests_out / kind,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        report.became("tests", f"tests/{kind}/ (the {kind} text set's $TEST_DIR, as /tests)")
    if not (source / "tests" / f"{kind}.py").is_file():
        report.cannot(
            f"tests/{kind}.py",
            "missing",
            f"the text set's parser script writes {kind}_score.json",
            f"add tests/{kind}.py (reads {kind}_output.txt, calls write_score_auto)",
        )
    report.became(
        "run-tests.sh",
        f"tests/run-{kind}.sh: the {kind} text set's command (`{kind}_score.json` graded as"
        " {is_pass, step_score})",
    )
    for st in dropped:
        report.became(
            "run-tests.sh", f"line {st.first}: the {other} set, left out of run-{kind}.sh"
        )
    for lineno, line in script.prose:
        report.cannot(
            f"run-tests.sh:{lineno}",
            f"`{line}`",
            "a prose line, not a command (bash says 'command not found' and goes on)",
            f"nothing: commented out in tests/run-{kind}.sh; make it a `#` comment upstream",
        )
    rel_out = _score_file(text, kind, workdir)
    return {
        "parser": "text",
        "command": f'bash "$TEST_DIR/run-{kind}.sh"',
        "score_file": rel_out,
    }


def _score_file(text: str, kind: str, workdir: str) -> str:
    """``<kind>_score.json`` relative to the workdir (LongCLI-Bench: /app/test_output/)."""
    out_dir = "/app/test_output"
    match = re.search(rf"(/[\w./-]+)/{kind}_output\.txt", text)
    if match:
        out_dir = match.group(1)
    full = f"{out_dir}/{kind}_score.json"
    prefix = workdir.rstrip("/") + "/"
    return full[len(prefix) :] if full.startswith(prefix) else f"test_output/{kind}_score.json"
