"""run-tests.sh of a LongCLI-Bench / Terminal-Bench 1 task: the pytest calls (their options,
reported when realcli cannot honour them), package installs, prose lines and the other
commands (reported: a pytest set runs only realcli's pytest), and the files it writes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

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
from realcli.catalog.import_textsets import is_prose, produced_paths

__all__ = ["TEST_DIRS", "RunTests", "read_run_tests"]

_QUIET = re.compile(
    r"^(set|echo|printf|exit|true|:|cd|mkdir|fi|then|else|elif|done|do|esac|\{|\}|\(|\)|if|for"
    r"|while|deactivate|export|local|shift|return|[A-Za-z_][A-Za-z0-9_]*=.*|[A-Za-z_]\w*\(\))$"
)
TEST_DIRS = {"$TEST_DIR", "${TEST_DIR}", "/tests", "/tests/", "$TEST_DIR/", "${TEST_DIR}/"}


@dataclass
class RunTests:
    calls: list[tuple[int, PytestCall]] = field(default_factory=list)
    produced: set[str] = field(default_factory=set)
    """Absolute paths run-tests.sh writes (its output folder, status files, logs)."""

    @property
    def whole_dir(self) -> bool:
        """Some pytest call runs the whole tests folder."""
        return any(p.rstrip("/") in {d.rstrip("/") for d in TEST_DIRS} for _, c in self.calls
                   for p in c.paths)  # fmt: skip


def read_run_tests(source: Path, report: ImportReport, *, text_sets: bool = False) -> RunTests:
    """Read run-tests.sh: pytest calls (their options are reported when realcli cannot honour
    them), package installs and other commands (reported: a pytest set runs only pytest; with
    ``text_sets`` the text sets' scripts run them, so they are not reported)."""
    path = source / "run-tests.sh"
    found = RunTests()
    if not path.is_file():
        report.metadata["run-tests.sh"] = "absent (Terminal-Bench 1 then runs pytest on tests/)"
        return found
    if not text_sets:
        report.became(
            "run-tests.sh", "replaced by realcli's grading command (pytest on tests/f2p, tests/p2p)"
        )
    text = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8", errors="replace"))
    found.produced = produced_paths(text)
    others: list[str] = []
    ignored: set[str] = set()
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#") or not line.strip():
            continue
        if is_prose(line):
            if not text_sets:
                report.cannot(
                    f"run-tests.sh:{lineno}",
                    f"`{line.strip()}`",
                    "a prose line, not a command (bash says 'command not found' and goes on)",
                    "nothing: ignored; make it a `#` comment upstream",
                )
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
                if text_sets:
                    continue  # the text set's script runs it (in the task's image)
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
    if others and not text_sets:
        shown = "; ".join(f"`{c}`" for c in others[:6]) + (" ..." if len(others) > 6 else "")
        report.cannot(
            "run-tests.sh",
            f"{len(others)} other command(s): {shown}",
            "realcli runs only pytest on the test sets, nothing else from run-tests.sh",
            "if the tests need one, do it in a tests/conftest.py fixture or environment/setup.sh",
        )
    return found
