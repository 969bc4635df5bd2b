"""Parse pytest's JUnit XML (``-o junit_family=xunit1``) into per-test results."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Literal

from realcli.schema.verdict import TestOutcome, TestResult

__all__ = ["TESTS_MOUNT", "parse_junit"]

#: Where the task's tests/ folder is mounted inside the grading sandbox, relative to the workdir.
TESTS_MOUNT = ".realcli_tests"
_MESSAGE_CHARS = 500


def _nodeid(case: ET.Element) -> str:
    """``f2p/test_x.py::Class::test_y`` from a testcase's file, classname and name."""
    name = case.get("name", "")
    file = case.get("file")
    classname = case.get("classname", "")
    if not file:  # collection errors carry no file: the classname is the dotted module path
        dotted = classname or name
        return dotted.replace(".", "/").removeprefix(TESTS_MOUNT.replace(".", "/") + "/") + ".py"
    rel = file.removeprefix(TESTS_MOUNT + "/")
    if not classname:  # a module that failed to collect
        return rel
    module = file.removesuffix(".py").replace("/", ".")
    classes = classname.removeprefix(module).strip(".")
    parts = [rel, *[c for c in classes.split(".") if c], name]
    return "::".join(parts)


def parse_junit(path: Path, test_set: Literal["f2p", "p2p"]) -> list[TestResult]:
    """Every testcase in ``path``. A collection error is one ``error`` result named by its file."""
    root = ET.parse(path).getroot()
    results: list[TestResult] = []
    for case in root.iter("testcase"):
        outcome = TestOutcome.passed
        message = ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {
                    "failure": TestOutcome.failed,
                    "error": TestOutcome.error,
                    "skipped": TestOutcome.skipped,
                }[child.tag]
                message = (child.get("message") or child.text or "")[:_MESSAGE_CHARS]
                break
        results.append(
            TestResult(
                nodeid=_nodeid(case),
                test_set=test_set,
                outcome=outcome,
                duration_s=float(case.get("time") or 0.0),
                message=message,
            )
        )
    return results
