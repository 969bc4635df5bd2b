"""Corpus cases: bad task bundles (paths, links, special files, bounds, undecodable files) and
bad ``task=`` selections. Each case breaks a private copy of one good shipped bundle."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from tests.conftest import make_socket_file
from tests.security.fuzz.conftest import GOOD_TASK, copy_good_task
from tests.security.fuzz.corpus import Case, Scratch

FZ = "fz-bundle"
"""The id of the broken copy."""

RUN = ("run", "model=noop", "paths.runs_dir={runs}")
RUN_FZ = (*RUN, "paths.tasks_dir={tmp}/tasks", f"task={FZ}")
OUTSIDE = "the bundle"

Edit = Callable[[Path], None]


def _build(edit: Edit) -> Callable[[Scratch], None]:
    def build(scratch: Scratch) -> None:
        (scratch.root / "outside").mkdir()
        (scratch.root / "outside" / "secret.txt").write_text("host secret\n")
        (scratch.root / "outside" / "test_foreign.py").write_text("def test_ok():\n    pass\n")
        edit(copy_good_task(scratch, FZ))

    return build


def bundle(case_id: str, edit: Edit, *expect: str) -> Case:
    return Case(f"bundle-{case_id}", RUN_FZ, (*expect, "fix:"), build=_build(edit))


def toml_sub(old: str, new: str) -> Edit:
    def edit(root: Path) -> None:
        toml = root / "task.toml"
        text = toml.read_text()
        assert old in text, old
        toml.write_text(text.replace(old, new, 1))

    return edit


def toml_add(extra: str) -> Edit:
    def edit(root: Path) -> None:
        with (root / "task.toml").open("a") as fh:
            fh.write("\n" + extra + "\n")

    return edit


def link(rel: str, target: str) -> Edit:
    """Replace ``rel`` (file or folder) by a symlink to ``target`` (``{out}`` = the case's
    folder outside the bundle)."""

    def edit(root: Path) -> None:
        path = root / rel
        if path.is_dir() and not path.is_symlink():
            _rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target.format(out=root.parent.parent / "outside"), path)

    return edit


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path)


def fifo(rel: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / rel
        if path.exists():
            path.unlink()
        os.mkfifo(path)

    return edit


def unix_socket(rel: str) -> Edit:
    def edit(root: Path) -> None:
        make_socket_file(root / rel)

    return edit


def write_bytes(rel: str, data: bytes) -> Edit:
    def edit(root: Path) -> None:
        (root / rel).write_bytes(data)

    return edit


def as_folder(rel: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / rel
        if path.is_dir():
            _rmtree(path)
        elif path.exists():
            path.unlink()
        path.mkdir()
        (path / "x").write_text("x\n")

    return edit


def as_file(rel: str) -> Edit:
    def edit(root: Path) -> None:
        _rmtree(root / rel)
        (root / rel).write_text("not a folder\n")

    return edit


INSTR = 'instruction = "instruction.md"'
WORKDIR = 'workdir = "/app"'
GUI = """[gui]
[[gui.apps]]
name = "app"
argv = ["/usr/bin/true"]
window = "App"
files = "{files}"
"""


def _deliverable(path: str) -> Edit:
    return toml_add(f'[[deliverables]]\npath = "{path}"')


def _workdir(value: str) -> Case:
    name = value.strip("/").replace("/", "_").replace(".", "dot") or "root"
    return bundle(
        f"workdir-{name}", toml_sub(WORKDIR, f'workdir = "{value}"'), "task.toml", "workdir", "/app"
    )


BUNDLE_CASES: list[Case] = [
    # paths named in task.toml
    bundle(
        "instruction-dotdot", toml_sub(INSTR, 'instruction = "../../x"'), "task.toml", "instruction"
    ),
    bundle(
        "instruction-absolute",
        toml_sub(INSTR, 'instruction = "/etc/passwd"'),
        "task.toml",
        "instruction",
    ),
    bundle(
        "instruction-inner-dotdot",
        toml_sub(INSTR, 'instruction = "solution/../../x.md"'),
        "task.toml",
        "instruction",
    ),
    bundle("instruction-empty", toml_sub(INSTR, 'instruction = ""'), "task.toml", "instruction"),
    bundle("instruction-dot", toml_sub(INSTR, 'instruction = "."'), "task.toml", "instruction"),
    bundle(
        "instruction-backslash",
        toml_sub(INSTR, 'instruction = "..\\\\..\\\\x"'),
        "task.toml",
        "instruction",
    ),
    bundle("instruction-missing", toml_sub(INSTR, 'instruction = "nope.md"'), "nope.md", "missing"),
    bundle(
        "instruction-is-folder", toml_sub(INSTR, 'instruction = "tests"'), "tests", "not a file"
    ),
    _workdir("/app/../run/realcli"),
    _workdir("/run/realcli"),
    _workdir("/usr"),
    _workdir("/tmp/home"),
    _workdir("/"),
    _workdir("/app/./x"),
    _workdir("/app//x"),
    _workdir("/apple"),
    _workdir("/app/"),
    _workdir("/proc/self"),
    bundle(
        "deliverable-dotdot", _deliverable("../../etc/passwd"), "task.toml", "deliverables.0.path"
    ),
    bundle("deliverable-absolute", _deliverable("/etc/passwd"), "task.toml", "deliverables.0.path"),
    bundle(
        "deliverable-inner-dotdot", _deliverable("out/../../x"), "task.toml", "deliverables.0.path"
    ),
    bundle("deliverable-empty", _deliverable(""), "task.toml", "deliverables.0.path"),
    bundle("deliverable-dot", _deliverable("."), "task.toml", "deliverables.0.path"),
    bundle("gui-files-dotdot", toml_add(GUI.format(files="../../outside")), "task.toml", "files"),
    bundle("gui-files-absolute", toml_add(GUI.format(files="/etc")), "task.toml", "files"),
    bundle(
        "gui-files-missing", toml_add(GUI.format(files="no_app")), "task.toml", "gui.apps.app.files"
    ),
    bundle(
        "substep-test-dotdot",
        toml_sub('tests = ["f2p/test_reader.py"]', 'tests = ["f2p/../../../x/test_y.py"]'),
        "task.toml",
        "substeps.0.tests",
    ),
    bundle(
        "substep-test-missing",
        toml_sub('tests = ["f2p/test_reader.py"]', 'tests = ["f2p/test_none.py"]'),
        "task.toml",
        "substeps.s1.tests",
    ),
    # links leaving the bundle
    bundle(
        "instruction-link-host", link("instruction.md", "/etc/hostname"), "instruction.md", OUTSIDE
    ),
    bundle(
        "instruction-link-relative",
        link("instruction.md", "../../outside/secret.txt"),
        "instruction.md",
        OUTSIDE,
    ),
    bundle("setup-link-host", link("environment/setup.sh", "/etc/hostname"), "setup.sh", OUTSIDE),
    bundle("tests-link-out", link("tests", "{out}"), "tests", OUTSIDE),
    bundle("f2p-link-out", link("tests/f2p", "{out}"), "f2p", OUTSIDE),
    bundle(
        "test-file-link-out",
        link("tests/f2p/test_reader.py", "{out}/test_foreign.py"),
        "test_reader.py",
        OUTSIDE,
    ),
    bundle("solution-link-out", link("solution", "{out}"), "solution", OUTSIDE),
    bundle(
        "trajectory-link-host",
        link("solution/trajectory.jsonl", "/etc/passwd"),
        "trajectory.jsonl",
        OUTSIDE,
    ),
    bundle("repo-link-out", link("environment/repo", "{out}"), "repo", OUTSIDE),
    bundle("environment-link-out", link("environment", "{out}"), "environment", OUTSIDE),
    bundle(
        "repo-file-link-abs",
        link("environment/repo/README.md", "/etc/shadow"),
        "README.md",
        OUTSIDE,
    ),
    bundle("repo-dir-link-root", link("environment/repo/csvstats", "/"), "csvstats", OUTSIDE),
    bundle("repo-link-climbs", link("environment/repo/up", "../../../.."), "up", OUTSIDE),
    bundle("repo-link-proc", link("environment/repo/env", "/proc/self/environ"), "env", OUTSIDE),
    bundle("task-toml-link-out", link("task.toml", "{out}/secret.txt"), "task.toml", OUTSIDE),
    bundle(
        "pycache-link-out", link("environment/repo/__pycache__", "{out}"), "__pycache__", OUTSIDE
    ),
    # special files
    bundle("repo-fifo", fifo("environment/repo/pipe"), "pipe", "FIFO"),
    bundle("f2p-fifo", fifo("tests/f2p/pipe"), "pipe", "FIFO"),
    bundle("instruction-fifo", fifo("instruction.md"), "instruction.md", "FIFO"),
    bundle("task-toml-fifo", fifo("task.toml"), "task.toml", "FIFO"),
    bundle("repo-socket", unix_socket("environment/repo/s.sock"), "s.sock", "socket"),
    # undecodable or mis-shaped files
    bundle(
        "task-toml-binary",
        write_bytes("task.toml", b"\xff\xfe\x00bin\x00\x80"),
        "task.toml",
        "UTF-8",
    ),
    bundle("task-toml-nul", write_bytes("task.toml", b'id = "x\x00"\n'), "task.toml", "TOML"),
    bundle("task-toml-folder", as_folder("task.toml"), "task.toml", "not a file"),
    bundle("task-toml-syntax", write_bytes("task.toml", b"id = [\n"), "task.toml", "TOML"),
    bundle(
        "instruction-binary",
        write_bytes("instruction.md", b"\x89PNG\r\n\x1a\n\xff\xfe"),
        "instruction.md",
        "UTF-8",
    ),
    bundle("instruction-folder", as_folder("instruction.md"), "instruction.md", "not a file"),
    bundle(
        "setup-binary", write_bytes("environment/setup.sh", b"\xff\xff\xfe"), "setup.sh", "UTF-8"
    ),
    bundle("setup-folder", as_folder("environment/setup.sh"), "setup.sh", "not a file"),
    bundle(
        "trajectory-folder",
        as_folder("solution/trajectory.jsonl"),
        "trajectory.jsonl",
        "not a file",
    ),
    bundle("f2p-file", as_file("tests/f2p"), "f2p", "not a folder"),
    bundle("repo-file", as_file("environment/repo"), "repo", "not a folder"),
    # numeric bounds in task.toml
    bundle(
        "memory-huge",
        toml_sub("memory_mb = 2048", "memory_mb = 100000000000000000"),
        "task.toml",
        "resources.memory_mb",
        "from 64",
    ),
    bundle(
        "memory-float",
        toml_sub("memory_mb = 2048", "memory_mb = 1e17"),
        "task.toml",
        "resources.memory_mb",
    ),
    bundle(
        "cpu-huge",
        toml_sub("cpu_seconds = 600", "cpu_seconds = 1000000000000"),
        "task.toml",
        "resources.cpu_seconds",
    ),
    bundle(
        "file-huge",
        toml_sub("max_file_mb = 256", "max_file_mb = 1e12"),
        "task.toml",
        "resources.max_file_mb",
    ),
    bundle(
        "agent-inf", toml_sub("agent_s = 300", "agent_s = inf"), "task.toml", "timeouts.agent_s"
    ),
    bundle(
        "agent-nan", toml_sub("agent_s = 300", "agent_s = nan"), "task.toml", "timeouts.agent_s"
    ),
    bundle(
        "tests-negative", toml_sub("tests_s = 120", "tests_s = -1"), "task.toml", "timeouts.tests_s"
    ),
    bundle(
        "setup-huge", toml_sub("setup_s = 60", "setup_s = 1e300"), "task.toml", "timeouts.setup_s"
    ),
    bundle(
        "gui-width-huge",
        toml_add(GUI.format(files="repo").replace("[gui]", "[gui]\nwidth = 100000")),
        "task.toml",
        "gui.width",
    ),
]


def _other_bundle(scratch: Scratch) -> None:
    copy_good_task(scratch, GOOD_TASK)


def _task_link_out(scratch: Scratch) -> None:
    copy_good_task(scratch, GOOD_TASK)
    (scratch.root / "tasks2").mkdir()
    os.symlink(scratch.root / "tasks" / GOOD_TASK, scratch.root / "tasks2" / GOOD_TASK)


def task_arg(
    case_id: str,
    value: str,
    *expect: str,
    build: Callable[[Scratch], None] | None = None,
    extra: tuple[str, ...] = (),
) -> Case:
    return Case(
        f"task-{case_id}", (*RUN, f"task={value}", *extra), ("task", *expect, "fix:"), build=build
    )


TASK_CASES: list[Case] = [
    task_arg("absolute", f"{{tmp}}/tasks/{GOOD_TASK}", "not a task id", build=_other_bundle),
    task_arg("dotdot", f"../tasks/{GOOD_TASK}", "not a task id"),
    task_arg("dotdot-inside", f"{GOOD_TASK}/../{GOOD_TASK}", "not a task id"),
    task_arg("dot-slash", f"./{GOOD_TASK}", "not a task id"),
    task_arg("trailing-slash", f"{GOOD_TASK}/", "not a task id"),
    task_arg("dotdot-only", "..", "not a task id"),
    task_arg("uppercase", "Smoke-Scratch", "not a task id"),
    task_arg("space", "'a b'", "not a task id"),
    task_arg("tilde", "~root", "not a valid override"),
    task_arg("too-long", "a" * 80, "not a task id"),
    task_arg("unknown", "no-such-task", "no task"),
    task_arg(
        "symlinked-bundle",
        GOOD_TASK,
        "outside the tasks directory",
        build=_task_link_out,
        extra=("paths.tasks_dir={tmp}/tasks2",),
    ),
    Case(
        "suite-tasks-path",
        (*RUN, "suite.tasks=[../../etc]"),
        ("suite.tasks", "not a task id", "fix:"),
    ),
    Case(
        "suite-tasks-absolute",
        (*RUN, "suite.tasks=[/tmp/x]"),
        ("suite.tasks", "not a task id", "fix:"),
    ),
]
