"""``realcli tasks new``: scaffold a task bundle that validates and whose gates fail honestly.

The bundle has every required field (with comments saying what to fill in), an instruction,
``environment/repo``, a reference trajectory, F2P and P2P tests and (weave) hidden anchors, a
placeholder GUI app and a deliverable with screenshot evidence. ``realcli tasks validate``
accepts it; ``realcli tasks check`` fails it at ``f2p on reference`` until the author writes
the reference and the real tests: the scaffold's F2P tests check deliverables that nothing
produces yet, never a constant.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from realcli.catalog.scaffold_apps import APPS
from realcli.schema.task_spec import TASK_ID_PATTERN, Domain
from realcli.util.errors import TaskError

__all__ = ["KINDS", "scaffold_task"]

KINDS = ("weave", "longcli")

_WEAVE_TOML = """schema_version = 1
id = "{id}"
version = "0.1.0"
kind = "weave"
category = "feature"  # from_scratch | feature | bugfix | refactor
domain = "{domain}"  # DSK DOC GAM WEB DAV OPS SPA DES
title = "TODO: what the user asks for, in one line"
suites = ["weave"]
interfaces = ["cli", "gui"]
# The catalogue atoms the task really needs (realcli.schema.atoms, docs/weave.md): at least
# one CLI-side and one GUI-side atom; F3 and V1 are the deliverable contract's anchors.
atoms = ["F3", "V1", "V2"]
# The real user requests this task encodes (forum posts, issues, Q&A threads).
provenance = ["https://example.org/TODO-the-real-request"]
anchors = "anchors.json"  # tests/anchors.json: hidden expected values

[timeouts]
agent_s = 900
tests_s = 120

[gui]
width = 1280
height = 800

{app}
# What only one channel can provide (one entry per requirement; `atom` from `atoms`).
[[p1_atoms]]
id = "read-on-screen"
channel = "gui"
text = "TODO: the value that exists only in the running application"
atom = "V2"

[[p1_atoms]]
id = "write-result"
channel = "cli"
text = "TODO: the structured file only code can produce"
atom = "F3"

[[deliverables]]
path = "out/result.json"
kind = "file"
description = "TODO: the structured result"

[[deliverables.clauses]]
id = "result-value"
text = "out/result.json holds the value shown in the application"
critical = true
test = "f2p/test_result.py::test_result_value"
channel = "gui"

[[deliverables]]
path = "evidence/screen.png"
kind = "screenshot"
description = "TODO: a screenshot of the application in the final state"
evidence = "screenshot"

[[deliverables.clauses]]
id = "screen-png"
text = "evidence/screen.png is a screenshot of the display at the task's resolution"
critical = true
test = "f2p/test_evidence.py::test_screenshot"
channel = "gui"

[[deliverables.clauses]]
id = "screen-provenance"
text = "evidence/screen.png is a genuine capture of the run's display"
critical = true
checker = "provenance"
channel = "gui"

[[substeps]]
id = "s1"
title = "The result holds the on-screen value"
tests = ["f2p/test_result.py"]

[[substeps]]
id = "s2"
title = "Screenshot evidence of the final state"
tests = ["f2p/test_evidence.py"]
depends_on = ["s1"]
"""

_LONGCLI_TOML = """schema_version = 1
id = "{id}"
version = "0.1.0"
kind = "longcli"
category = "feature"  # from_scratch | feature | bugfix | refactor
title = "TODO: what the user asks for, in one line"
suites = ["mine"]
provenance = ["https://example.org/TODO-the-real-request"]

[timeouts]
agent_s = 1800
tests_s = 300

[[substeps]]
id = "s1"
title = "TODO: the first goal"
tests = ["f2p/test_result.py"]
"""

_INSTRUCTION = """TODO: exactly what the agent sees: the user's request, where the inputs are
(files in the workspace{gui}), what to produce ({deliverables}) and how it is checked.
"""


_TEST_RESULT_WEAVE = '''"""out/result.json holds the value only the app shows (anchors.json)."""

import json
from pathlib import Path

ANCHORS = json.loads(Path(__file__).resolve().parents[1].joinpath("anchors.json").read_text())


def test_result_value() -> None:
    result = Path("out/result.json")
    assert result.is_file(), "out/result.json is missing"
    assert json.loads(result.read_text(encoding="utf-8")) == {{"value": ANCHORS["value"]}}
'''

_TEST_EVIDENCE = '''"""evidence/screen.png: a capture of the display (realcli_testkit)."""

from pathlib import Path

from realcli_testkit import read_png


def test_screenshot() -> None:
    path = Path("evidence/screen.png")
    assert path.is_file(), "evidence/screen.png is missing"
    img = read_png(path)
    assert (img.width, img.height) == ({width}, {height})
    # TODO: check the application's state in the pixels (realcli_testkit.colour_share).
'''

_TEST_RESULT_LONGCLI = '''"""TODO: the behaviour the task asks for (fails on the initial repo)."""

from pathlib import Path


def test_result() -> None:
    assert Path("RESULT.md").is_file(), "RESULT.md is missing"
'''

_TEST_P2P = '''"""What must keep working: the workspace's README stays."""

from pathlib import Path


def test_readme_is_kept() -> None:
    assert Path("README.md").is_file()
'''


def _check_id(task_id: str, tasks_dir: Path) -> Path:
    if not re.fullmatch(TASK_ID_PATTERN, task_id):
        raise TaskError(
            "command line",
            "ID",
            f"{task_id!r} is not a task id",
            "use 2-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or "
            "digit, e.g. weave-dav-calc-pivot",
        )
    root = tasks_dir / task_id
    if root.exists() or root.is_symlink():
        raise TaskError(
            str(root), None, "a task (or file) of this id already exists", "choose another ID"
        )
    return root


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def scaffold_task(
    tasks_dir: Path, task_id: str, kind: str, domain: str = "DSK", app: str = "tk"
) -> Path:
    """Write a new bundle ``tasks_dir/task_id`` of ``kind`` (weave or longcli; a weave task
    with the ``app`` template of :data:`~realcli.catalog.scaffold_apps.APPS`); its root.

    Raises:
        TaskError: a bad ID, kind, domain or app, or the ID exists already.
    """
    if kind not in KINDS:
        raise TaskError("command line", "--kind", f"unknown kind {kind!r}", f"use one of {KINDS}")
    if domain not in Domain.__members__:
        domains = ", ".join(Domain.__members__)
        raise TaskError("command line", "--domain", f"unknown domain {domain!r}", f"use {domains}")
    if app not in APPS:
        raise TaskError(
            "command line", "--app", f"unknown app {app!r}", f"use one of {sorted(APPS)}"
        )
    if not tasks_dir.is_dir():
        raise TaskError(str(tasks_dir), None, "no such tasks directory", "pass --tasks-dir")
    root = _check_id(task_id, tasks_dir)
    readme = f"# {task_id}\n\nTODO: the initial workspace the agent starts from.\n"
    if kind == "weave":
        reference = {
            "action": "message",
            "text": "TODO: the reference trajectory (shell and gui actions, docs/tasks.md)",
        }
        files = {
            "task.toml": _WEAVE_TOML.format(
                id=task_id, domain=domain, app=APPS[app].toml.format(id=task_id)
            ),
            "instruction.md": _INSTRUCTION.format(
                gui=", and the application open on the display",
                deliverables="`out/result.json`, the screenshot `evidence/screen.png`",
            ),
            "environment/repo/README.md": readme,
            "environment/repo/out/.keep": "",
            "environment/repo/evidence/.keep": "",
            **{rel: text.replace("{id}", task_id) for rel, text in APPS[app].files.items()},
            "solution/trajectory.jsonl": json.dumps(reference) + "\n",
            "tests/anchors.json": json.dumps({"value": "TODO"}, indent=1) + "\n",
            "tests/f2p/test_result.py": _TEST_RESULT_WEAVE.format(),
            "tests/f2p/test_evidence.py": _TEST_EVIDENCE.format(width=1280, height=800),
            "tests/p2p/test_untouched.py": _TEST_P2P,
        }
    else:
        reference = {"action": "message", "text": "TODO: the reference trajectory"}
        files = {
            "task.toml": _LONGCLI_TOML.format(id=task_id),
            "instruction.md": _INSTRUCTION.format(gui="", deliverables="TODO"),
            "environment/repo/README.md": readme,
            "solution/trajectory.jsonl": json.dumps(reference) + "\n",
            "tests/f2p/test_result.py": _TEST_RESULT_LONGCLI,
            "tests/p2p/test_untouched.py": _TEST_P2P,
        }
    _write(root, files)
    return root
