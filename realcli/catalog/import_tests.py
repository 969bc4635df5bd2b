"""A LongCLI-Bench / Terminal-Bench 1 task's tests as realcli test sets: ``tests/f2p.py`` ->
``tests/f2p/test_f2p.py``, ``tests/p2p.py`` -> ``tests/p2p/test_p2p.py``, Terminal-Bench 1's
``tests/test_outputs.py`` -> ``tests/f2p/test_outputs.py``; helper files copied beside them;
one sub-step per F2P test function or test class (an AST scan); ``run-tests.sh`` read for the
pytest calls, options and installs it makes."""

from __future__ import annotations

import ast
import posixpath
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from realcli.catalog.import_environment import PIP_FIX
from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_scripts import (
    PytestCall,
    blocker,
    command_words,
    install_packages,
    pytest_call,
    split_commands,
)
from realcli.util.errors import TaskError

__all__ = ["RunTests", "SubStepPlan", "TestPlan", "read_run_tests", "write_tests"]

_QUIET = re.compile(
    r"^(set|echo|printf|exit|true|:|cd|mkdir|fi|then|else|elif|done|do|esac|\{|\}|\(|\)|if|for"
    r"|while|deactivate|export|local|shift|return|[A-Za-z_][A-Za-z0-9_]*=.*|[A-Za-z_]\w*\(\))$"
)
_TEST_DIRS = {"$TEST_DIR", "${TEST_DIR}", "/tests", "/tests/", "$TEST_DIR/", "${TEST_DIR}/"}


@dataclass(frozen=True)
class SubStepPlan:
    id: str
    title: str
    tests: tuple[str, ...]


@dataclass
class TestPlan:
    substeps: list[SubStepPlan] = field(default_factory=list)
    f2p: dict[str, str] = field(default_factory=dict)
    """Source file (relative to the task folder) -> bundle test file (relative to tests/)."""
    p2p: dict[str, str] = field(default_factory=dict)


@dataclass
class RunTests:
    calls: list[tuple[int, PytestCall]] = field(default_factory=list)

    @property
    def whole_dir(self) -> bool:
        """Some pytest call runs the whole tests folder."""
        return any(p.rstrip("/") in {d.rstrip("/") for d in _TEST_DIRS} for _, c in self.calls
                   for p in c.paths)  # fmt: skip


def read_run_tests(source: Path, report: ImportReport) -> RunTests:
    """Read run-tests.sh: pytest calls (their options are reported when realcli cannot honour
    them), package installs and other commands (reported: realcli runs only pytest)."""
    path = source / "run-tests.sh"
    found = RunTests()
    if not path.is_file():
        report.metadata["run-tests.sh"] = "absent (Terminal-Bench 1 then runs pytest on tests/)"
        return found
    report.became(
        "run-tests.sh", "replaced by realcli's grading command (pytest on tests/f2p, tests/p2p)"
    )
    text = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8", errors="replace"))
    others: list[str] = []
    ignored: set[str] = set()
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        for command in split_commands(line):
            where = f"run-tests.sh:{lineno}"
            words = command_words(command)
            call = pytest_call(command)
            packages = install_packages(command)
            if call is not None:
                found.calls.append((lineno, call))
                for option in call.not_honoured:
                    report.cannot(
                        where,
                        f"pytest option `{option}`",
                        "realcli runs every test set with a fixed pytest command",
                        "if it must apply to both test sets, add it to tests/pytest.ini"
                        " (`addopts`); otherwise drop it",
                    )
                if call.ignored:
                    ignored.update(call.ignored)
            if packages:
                report.cannot(
                    where, f"installs {' '.join(packages)}", "no network in realcli", PIP_FIX
                )
            elif packages is None and call is None and words and words[0] in ("source", "."):
                report.cannot(
                    where,
                    f"`{command}`",
                    "activates an environment: realcli runs the tests with its own Python",
                    f"test dependencies: {PIP_FIX}",
                )
            elif call is None and packages is None and words:
                why = blocker(command, "/app", "/app")
                if why and "network" in why:
                    report.cannot(
                        where, f"`{command}`", why, "run it on the host, if the tests need it"
                    )
                elif not _QUIET.match(words[0]):
                    others.append(command)
    if ignored:
        report.became(
            "run-tests.sh",
            f"pytest output options ({' '.join(sorted(ignored))}): not needed, realcli writes"
            " its own log and JUnit XML",
        )
    if others:
        shown = "; ".join(f"`{c}`" for c in others[:6]) + (" ..." if len(others) > 6 else "")
        report.cannot(
            "run-tests.sh",
            f"{len(others)} other command(s): {shown}",
            "realcli runs only pytest on the test sets, nothing else from run-tests.sh",
            "if the tests need one, do it in a tests/conftest.py fixture or environment/setup.sh",
        )
    return found


# ------------------------------------------------------------------------------ test files


@dataclass(frozen=True)
class _TestUnit:
    name: str
    title: str
    skipped: bool


def _title(name: str, doc: str | None) -> str:
    if doc and doc.strip():
        return doc.strip().splitlines()[0][:100]
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").split()
    if words and words[0].lower() == "test":
        words = words[1:]
    return " ".join(words) or name


def _skip_marked(decorators: list[ast.expr]) -> bool:
    return any(re.search(r"mark\.(skip|xfail)\b", ast.unparse(d)) for d in decorators)


def _test_units(path: Path) -> list[_TestUnit]:
    """Top-level ``test*`` functions and ``Test*`` classes (with ``test*`` methods) of a file."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as exc:
        raise TaskError(
            str(path), None, f"not valid Python (line {exc.lineno}: {exc.msg})", "fix the test file"
        ) from exc
    except UnicodeDecodeError as exc:
        raise TaskError(str(path), None, "not UTF-8 text", "save it as UTF-8") from exc
    units = []
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in tree.body:
        if isinstance(node, functions) and node.name.startswith("test"):
            skipped = _skip_marked(node.decorator_list)
            units.append(_TestUnit(node.name, _title(node.name, ast.get_docstring(node)), skipped))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            methods = [n for n in node.body if isinstance(n, functions)]
            if any(m.name.startswith("test") for m in methods) and not any(
                m.name == "__init__" for m in methods
            ):
                skipped = _skip_marked(node.decorator_list)
                units.append(
                    _TestUnit(node.name, _title(node.name, ast.get_docstring(node)), skipped)
                )
    return units


def _mode(data: dict[str, Any], key: str, exists: bool) -> str | None:
    """LongCLI-Bench's parser mode of a test set: ``pytest``, ``text`` or None (no such set)."""
    if key not in data:
        return "pytest" if exists else None
    value = data[key]
    return None if value in (None, "null", "none", "") else str(value)


def _sources(
    source: Path, data: dict[str, Any], longcli: bool, run_tests: RunTests, report: ImportReport
) -> tuple[list[str], list[str]]:
    """The F2P and P2P source files (relative to the task folder) to import as pytest files."""
    tests = source / "tests"
    where = str(source / "task.yaml")
    parser = str(data.get("parser_name") or "pytest")
    if parser not in ("pytest", "long_cli"):
        report.cannot(
            "task.yaml: parser_name",
            parser,
            "realcli grades pytest test sets only (JUnit XML per test)",
            "not supported as is: express the checks as pytest tests in tests/",
        )
    if not tests.is_dir():
        raise TaskError(
            str(tests), None, "missing: the task has no tests", "add the task's pytest tests"
        )
    if not longcli:
        main = tests / "test_outputs.py"
        if not main.is_file():
            raise TaskError(
                str(main),
                None,
                "missing: the task has no tests",
                "add pytest tests in tests/test_outputs.py",
            )
        extra = sorted(
            p.relative_to(source).as_posix()
            for p in tests.rglob("*.py")
            if p != main and re.match(r"test_.*\.py$|.*_test\.py$", p.name) and run_tests.whole_dir
        )
        return ["tests/test_outputs.py", *extra], []
    f2p_mode = _mode(data, "parser_results_f2p", (tests / "f2p.py").is_file())
    p2p_mode = _mode(data, "parser_results_p2p", (tests / "p2p.py").is_file())
    if f2p_mode != "pytest":
        problem = (
            "null: the task has no F2P tests"
            if f2p_mode is None
            else f"{f2p_mode!r}: a score-file test set, which realcli cannot grade (pytest only)"
        )
        raise TaskError(
            where,
            "parser_results_f2p",
            problem,
            "write the fail-to-pass checks as pytest tests in tests/f2p.py and set"
            " parser_results_f2p: pytest",
        )
    if not (tests / "f2p.py").is_file():
        raise TaskError(
            str(tests / "f2p.py"), None, "missing: the task has no F2P tests", "add tests/f2p.py"
        )
    p2p: list[str] = []
    if p2p_mode == "pytest" and (tests / "p2p.py").is_file():
        p2p = ["tests/p2p.py"]
    elif p2p_mode is not None and p2p_mode != "pytest":
        report.cannot(
            "task.yaml: parser_results_p2p",
            p2p_mode,
            "a score-file test set ((obtained - initial)/(max - initial)); realcli grades pytest"
            " only",
            "rewrite tests/p2p.py as pytest tests and copy it to tests/p2p/test_p2p.py",
        )
        report.became("tests/p2p.py", "not imported (score-file test set)")
    return ["tests/f2p.py"], p2p


def _dest_name(rel: str) -> str:
    name = posixpath.basename(rel)
    return {"f2p.py": "test_f2p.py", "p2p.py": "test_p2p.py"}.get(name, name)


def write_tests(
    source: Path,
    bundle: Path,
    data: dict[str, Any],
    longcli: bool,
    run_tests: RunTests,
    report: ImportReport,
) -> TestPlan:
    """Write ``bundle/tests`` and plan the sub-steps; raises when there are no F2P tests."""
    f2p_sources, p2p_sources = _sources(source, data, longcli, run_tests, report)
    plan = TestPlan()
    out = bundle / "tests"
    used: set[str] = set()
    for test_set, sources in (("f2p", f2p_sources), ("p2p", p2p_sources)):
        for rel in sources:
            src = source / rel
            units = _test_units(src)
            dest = f"{test_set}/{_dest_name(rel)}"
            if not units and test_set == "f2p":
                raise TaskError(
                    str(src),
                    None,
                    "no pytest tests (test_* functions or Test* classes)",
                    "write the fail-to-pass checks as pytest test functions",
                )
            (out / test_set).mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, out / dest)
            getattr(plan, test_set)[rel] = dest
            report.became(rel, f"tests/{dest}")
            text = src.read_text(encoding="utf-8")
            if re.search(r"TEST_DIR|[\"']/tests\b", text):
                report.cannot(
                    rel,
                    "refers to $TEST_DIR or /tests",
                    "realcli mounts the tests read-only at <workdir>/.realcli_tests",
                    "use paths relative to the test file (Path(__file__).parent)",
                )
            if test_set == "p2p" and not units:
                report.cannot(rel, "no pytest tests", "nothing to run as P2P", "add test functions")
            for unit in units:
                if unit.skipped:
                    report.cannot(
                        rel,
                        f"{unit.name} (skip/xfail-marked)",
                        "LongCLI-Bench does not score it; realcli counts every collected test,"
                        " and a skipped one is not a pass",
                        f"delete it from tests/{dest}",
                    )
                    continue
                if test_set == "f2p":
                    sub_id = re.sub(r"[^A-Za-z0-9_.-]", "_", unit.name)
                    if sub_id in used:
                        sub_id = f"{posixpath.splitext(_dest_name(rel))[0]}.{sub_id}"
                    used.add(sub_id)
                    plan.substeps.append(SubStepPlan(sub_id, unit.title, (f"{dest}::{unit.name}",)))
    if plan.substeps:
        report.cannot(
            "tests/",
            f"{len(plan.substeps)} sub-steps (one per F2P test function or class)",
            "the source has no sub-step order: every depends_on is empty",
            "set depends_on in task.toml where one sub-step builds on another",
        )
    _copy_helpers(source, out, plan, report)
    if not plan.p2p:
        (out / "p2p").mkdir(parents=True, exist_ok=True)
        (out / "p2p" / "README.md").write_text(
            "No pass-to-pass tests: the imported task had none (see ../../IMPORT_REPORT.md).\n"
            "Add test_*.py files here that pass on the initial repo and on the reference.\n",
            encoding="utf-8",
        )
        report.cannot(
            "tests/",
            "no pass-to-pass tests",
            "realcli's health gates (p2p on initial / on reference) need at least one",
            "add tests/p2p/test_*.py that pass on the initial repo and on the reference",
        )
    _report_call_paths(plan, run_tests, report)
    return plan


def _copy_helpers(source: Path, out: Path, plan: TestPlan, report: ImportReport) -> None:
    """Other files under tests/: conftest.py and pytest.ini to tests/, the rest beside each
    test set's files (imports and ``Path(__file__).parent`` keep working)."""
    tests = source / "tests"
    taken = set(plan.f2p) | set(plan.p2p) | set(report.outcomes)
    sets = ["f2p"] + (["p2p"] if plan.p2p else [])
    for path in sorted(tests.rglob("*")):
        rel = path.relative_to(source).as_posix()
        inner = path.relative_to(tests).as_posix()
        if path.is_dir() or "__pycache__" in path.parts or rel in taken:
            continue
        if inner in ("conftest.py", "pytest.ini"):
            shutil.copy2(path, out / inner)
            report.became(rel, f"tests/{inner} (applies to both test sets)")
        elif re.match(r"test_.*\.py$|.*_test\.py$", path.name):
            report.became(rel, "not imported: run-tests.sh does not run it as a test set")
        else:
            for test_set in sets:
                (out / test_set / inner).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, out / test_set / inner)
            report.became(
                rel,
                "helper, copied beside the tests: " + ", ".join(f"tests/{s}/{inner}" for s in sets),
            )


def _report_call_paths(plan: TestPlan, run_tests: RunTests, report: ImportReport) -> None:
    imported = {posixpath.basename(r) for r in (*plan.f2p, *plan.p2p)}
    for lineno, call in run_tests.calls:
        for path in call.paths:
            if path.rstrip("/") in {d.rstrip("/") for d in _TEST_DIRS}:
                continue
            if posixpath.basename(path.strip("\"'")) not in imported:
                report.cannot(
                    f"run-tests.sh:{lineno}",
                    f"pytest runs {path}",
                    "not one of the task's imported test files",
                    "if they guard regressions, copy them into tests/p2p/ as test_*.py",
                )
