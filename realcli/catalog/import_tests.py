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

from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_run_tests import TEST_DIRS, RunTests
from realcli.catalog.import_textsets import write_text_set
from realcli.util.errors import TaskError

__all__ = ["SubStepPlan", "TestPlan", "set_modes", "write_tests"]


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
    tables: dict[str, dict[str, str] | bool] = field(default_factory=dict)
    """``[tests.<set>]`` tables for task.toml: a text set's, or False (no such set)."""


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


def set_modes(
    source: Path, data: dict[str, Any], longcli: bool, report: ImportReport
) -> tuple[str | None, str | None]:
    """The (F2P, P2P) parser modes: ``pytest``, ``text`` or None (no such set)."""
    tests = source / "tests"
    if not longcli:
        return "pytest", None
    modes = []
    for kind in ("f2p", "p2p"):
        key = f"parser_results_{kind}"
        mode = _mode(data, key, (tests / f"{kind}.py").is_file())
        if mode not in (None, "pytest", "text"):
            report.fatal(
                str(source / "task.yaml"),
                key,
                f"{mode!r} is not a LongCLI-Bench parser mode",
                "use pytest, text or null",
            )
            mode = None
        modes.append(mode)
    if modes[0] is None:
        report.fatal(
            str(source / "task.yaml"),
            "parser_results_f2p",
            "null: the task has no F2P set, nothing can tell a solved task from an unsolved one",
            "give it an F2P set: tests/f2p.py with parser_results_f2p: pytest or text",
        )
    return modes[0], modes[1]


def _pytest_sources(
    source: Path,
    longcli: bool,
    modes: tuple[str | None, str | None],
    run_tests: RunTests,
    report: ImportReport,
) -> tuple[list[str], list[str]]:
    """The F2P and P2P source files (relative to the task folder) to import as pytest files."""
    tests = source / "tests"
    if not tests.is_dir():
        report.fatal(str(tests), None, "missing: the task has no tests", "add the task's tests")
        return [], []
    if not longcli:
        main = tests / "test_outputs.py"
        if not main.is_file():
            report.fatal(
                str(main),
                None,
                "missing: the task has no tests",
                "add pytest tests in tests/test_outputs.py",
            )
            return [], []
        extra = sorted(
            p.relative_to(source).as_posix()
            for p in tests.rglob("*.py")
            if p != main and re.match(r"test_.*\.py$|.*_test\.py$", p.name) and run_tests.whole_dir
        )
        return ["tests/test_outputs.py", *extra], []
    found: list[list[str]] = [[], []]
    for i, kind in enumerate(("f2p", "p2p")):
        if modes[i] != "pytest":
            continue
        if (tests / f"{kind}.py").is_file():
            found[i] = [f"tests/{kind}.py"]
        else:
            report.fatal(
                str(tests / f"{kind}.py"),
                None,
                f"missing: parser_results_{kind} is pytest but the file is not there",
                f"add tests/{kind}.py, or set parser_results_{kind}: null",
            )
    return found[0], found[1]


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
    workdir: str = "/app",
) -> TestPlan:
    """Write ``bundle/tests`` and plan the sub-steps and the ``[tests]`` tables; every
    problem that leaves the task without a gradable F2P set goes to ``report.fatal``."""
    modes = set_modes(source, data, longcli, report)
    f2p_sources, p2p_sources = _pytest_sources(source, longcli, modes, run_tests, report)
    plan = TestPlan()
    out = bundle / "tests"
    out.mkdir(parents=True, exist_ok=True)
    for i, kind in enumerate(("f2p", "p2p")):
        if modes[i] == "text":
            other = "p2p" if kind == "f2p" else "f2p"
            plan.tables[kind] = write_text_set(source, bundle, kind, other, workdir, report)
    used: set[str] = set()
    for test_set, sources in (("f2p", f2p_sources), ("p2p", p2p_sources)):
        for rel in sources:
            _import_pytest_file(source, out, test_set, rel, plan, used, run_tests, report)
    if plan.substeps:
        report.cannot(
            "tests/",
            f"{len(plan.substeps)} sub-steps (one per F2P test function or class)",
            "the source has no sub-step order: every depends_on is empty",
            "set depends_on in task.toml where one sub-step builds on another",
        )
    _copy_helpers(source, out, plan, report)
    if modes[1] is None:
        plan.tables["p2p"] = False
        (out / "p2p").mkdir(parents=True, exist_ok=True)
        (out / "p2p" / "README.md").write_text(
            "No pass-to-pass tests: the imported task has no P2P set (task.toml: p2p = false;\n"
            "see ../../IMPORT_REPORT.md). To add one, put test_*.py files here that pass on the\n"
            "initial repo and on the reference, and delete `p2p = false` from task.toml.\n",
            encoding="utf-8",
        )
        why = (
            "parser_results_p2p is null: the release grades no P2P set"
            if longcli
            else "Terminal-Bench 1 tasks have one test set"
        )
        report.cannot(
            "tests/",
            "no pass-to-pass tests",
            f"{why}; task.toml says p2p = false and `realcli tasks check` flags it",
            "to guard regressions, add tests/p2p/test_*.py that pass on the initial repo and on"
            " the reference, then delete `p2p = false`",
        )
    (out / "f2p").mkdir(parents=True, exist_ok=True)
    _report_call_paths(plan, run_tests, report)
    return plan


def _import_pytest_file(
    source: Path,
    out: Path,
    test_set: str,
    rel: str,
    plan: TestPlan,
    used: set[str],
    run_tests: RunTests,
    report: ImportReport,
) -> None:
    src = source / rel
    try:
        units = _test_units(src)
    except TaskError as exc:
        report.fatal(exc.where, exc.field, exc.problem, exc.fix)
        return
    dest = f"{test_set}/{_dest_name(rel)}"
    if not units and test_set == "f2p":
        report.fatal(
            str(src),
            None,
            "no pytest tests (test_* functions or Test* classes)",
            "write the fail-to-pass checks as pytest test functions",
        )
        return
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
    read = sorted(p for p in run_tests.produced if not p.endswith("_output.txt") and p in text)
    if read:
        report.cannot(
            rel,
            f"reads {', '.join(read)}, which run-tests.sh writes",
            "a pytest set runs only realcli's pytest: the run-tests.sh commands that write"
            " it do not run, so these tests fail for a reason that is not the agent's",
            "make the tests produce it (a tests/conftest.py session fixture running those"
            " commands), or grade the set as text",
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


def _copy_helpers(source: Path, out: Path, plan: TestPlan, report: ImportReport) -> None:
    """Other files under tests/: conftest.py and pytest.ini to tests/, the rest beside each
    test set's files (imports and ``Path(__file__).parent`` keep working)."""
    tests = source / "tests"
    taken = set(plan.f2p) | set(plan.p2p) | set(report.outcomes)
    sets = [s for s in ("f2p", "p2p") if getattr(plan, s)]
    if not sets:
        return  # text sets only: their folder already holds the whole tests/
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
            if path.rstrip("/") in {d.rstrip("/") for d in TEST_DIRS}:
                continue
            if posixpath.basename(path.strip("\"'")) not in imported:
                report.cannot(
                    f"run-tests.sh:{lineno}",
                    f"pytest runs {path}",
                    "not one of the task's imported test files",
                    "if they guard regressions, copy them into tests/p2p/ as test_*.py",
                )
