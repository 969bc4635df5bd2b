"""Acceptance b (links): an adversarial agent plants symlinks to the hidden tests, the
reference solution, the ledger and realcli's own ``/proc/self`` files, in its workspace and in
its agent CLI's HOME, absolute and relative; the run finishes and not one byte of any target
is in the run folder (native files, test output, snapshots, artifacts).

The agent is told the host paths (as if it had read them from ``/proc/self/mountinfo``, which
no longer shows them: test_sandbox_host_paths.py). What stops it: :mod:`realcli.util.safe_fs`
(fd-relative ``O_NOFOLLOW`` opens; links copied as links), used by every host-side read or
copy of an agent's tree (docs/security.md, "Links and special files")."""

from __future__ import annotations

import json
import os
import shutil
import threading
import uuid
from functools import partial
from pathlib import Path

import pytest

from realcli.grading.testrun import run_test_set
from realcli.harness.install import InstallError, agents_dir, find_install
from realcli.ledger import read_ledger
from realcli.progress import Snapshotter
from realcli.sandbox import SandboxOptions, make_sandbox
from realcli.schema.events import WarningEvent, WarningType
from tests.conftest import run_realcli
from tests.security.conftest import TASK, MarkedTasks, run_folder_bytes

pytestmark = pytest.mark.sandbox

ENV_SECRET = f"host-environ-secret-{uuid.uuid4().hex}"
LEDGER_SIGNATURE = b'"kind": "header", "schema_version"'
UP = "../" * 24  # enough ".." to reach / from any host folder: a relative link to a host path
FDS = range(3, 24)  # realcli's open files (the ledger among them) seen through /proc/self/fd


def _targets(marked: MarkedTasks) -> dict[str, str]:
    """Link name -> target: every host file an agent would want, absolute and relative."""
    tests, solution = str(marked.tests_marker), str(marked.solution_marker)
    return {
        "abs-tests": tests,
        "rel-tests": UP + tests.lstrip("/"),
        "abs-solution": solution,
        "rel-solution": UP + solution.lstrip("/"),
        "tests-dir": str(marked.task_dir / "tests"),
        "environ": "/proc/self/environ",
        "cmdline": "/proc/self/cmdline",
        **{f"fd{n}": f"/proc/self/fd/{n}" for n in FDS},
    }


def _plant(folder: str, targets: dict[str, str], pattern: str = "{}") -> str:
    """One shell command planting each link as ``folder/<pattern with its name>``."""
    links = (f'ln -sfn "{t}" "{folder}/{pattern.format(n)}"' for n, t in targets.items())
    return f'mkdir -p "{folder}" && ' + " && ".join(links)


def codex_installed() -> bool:
    try:
        find_install("codex", agents_dir())
    except InstallError:
        return False
    return True


def _run(
    tmp: Path, env: dict[str, str], marked: MarkedTasks, harness: str, cmds: list[str]
) -> Path:
    script = tmp / "plant.jsonl"
    actions = [{"action": "shell", "cmd": c} for c in cmds]
    actions.append({"action": "message", "text": "planted"})
    script.write_text("".join(json.dumps(a) + "\n" for a in actions))
    env = {**env, "REALCLI_TASKS_DIR": str(marked.tasks_dir), "REALCLI_LEAK_PROBE": ENV_SECRET}
    args = ["run", f"harness={harness}", "model=scripted", f"model.script={script}", f"task={TASK}"]
    proc = run_realcli(args, env, tmp)
    assert proc.returncode == 0, proc.stderr[-3000:]
    [run_dir] = [p.parent for p in (tmp / "runs").glob("*/*/verdict.json")]
    return run_dir


def _assert_nothing_copied_through_links(run_dir: Path, marked: MarkedTasks) -> int:
    """No target's bytes anywhere in the run folder; the number of files searched."""
    searched = 0
    for path, data in run_folder_bytes(run_dir):
        searched += 1
        for secret in (marked.tests_secret, marked.solution_secret, ENV_SECRET.encode()):
            assert secret not in data, f"{path} holds a link target's bytes"
        if path.name != "ledger.jsonl":
            assert LEDGER_SIGNATURE not in data, f"{path} is a copy of the ledger"
    return searched


def test_workspace_links_are_never_followed_builtin(
    tmp_path: Path, realcli_env: dict[str, str], marked_tasks: MarkedTasks
) -> None:
    cmds = [
        _plant("/app/leaks", _targets(marked_tasks)),
        "ln -sfn ../ledger.jsonl /app/rel-ledger && ln -sfn ../verdict.json /app/rel-verdict",
    ]
    run_dir = _run(tmp_path, realcli_env, marked_tasks, "builtin", cmds)
    workspace = run_dir / "workspace"
    assert (workspace / "leaks" / "abs-tests").is_symlink()  # the agent's links stay links
    assert (workspace / "rel-ledger").is_symlink()
    assert _assert_nothing_copied_through_links(run_dir, marked_tasks) > 10
    assert (run_dir / "verdict.json").is_file()


@pytest.mark.skipif(not codex_installed(), reason="codex is not installed")
def test_home_and_workspace_links_are_never_followed_codex(
    tmp_path: Path, realcli_env: dict[str, str], marked_tasks: MarkedTasks
) -> None:
    """Codex's native files are ``~/.codex/sessions/**/rollout-*.jsonl``, ``config.toml`` and
    its model catalog: links planted under exactly those names, and the config replaced by a
    link to the ledger's fd, are all left out with a ``skipped_link`` warning."""
    sessions = "$HOME/.codex/sessions"
    targets = _targets(marked_tasks)
    relative = {n: t for n, t in targets.items() if n.startswith("rel-")}
    cmds = [
        _plant(sessions, targets, "rollout-{}.jsonl"),
        _plant(f"{sessions}/2026", relative, "rollout-{}.jsonl"),
        'ln -sfn /proc/self/fd/5 "$HOME/.codex/config.toml"',
        _plant("/app/leaks", targets),
        "ln -sfn ../ledger.jsonl /app/rel-ledger",
    ]
    run_dir = _run(tmp_path, realcli_env, marked_tasks, "codex", cmds)
    native = run_dir / "native" / "codex" / "home" / ".codex"
    assert any(native.glob("sessions/**/rollout-*.jsonl")), "codex's own rollout is kept"
    assert not (native / "config.toml").exists()
    assert not list(native.rglob("rollout-abs-*")) and not list(native.rglob("rollout-fd*"))
    assert _assert_nothing_copied_through_links(run_dir, marked_tasks) > 10
    warnings = [e for e in read_ledger(run_dir / "ledger.jsonl").events if e.kind == "warning"]
    links = [w for w in warnings if isinstance(w, WarningEvent)]
    assert any(w.warning_type is WarningType.skipped_link for w in links), warnings
    listed = " ".join(p for w in links for p in w.paths)
    assert ".codex/config.toml (symlink)" in listed
    assert ".codex/sessions/rollout-abs-tests.jsonl (symlink)" in listed
    assert ".codex/sessions/2026/rollout-rel-solution.jsonl (symlink)" in listed


FORGED_XML = (
    '<testsuites><testsuite><testcase classname="f2p.test_measure" name="test_forged"'
    ' file=".realcli_tests/f2p/test_measure.py"/></testsuite></testsuites>'
)
SWAP_OUT = """
import os as _os, shutil as _shutil
_shutil.rmtree("/app/.realcli_out", ignore_errors=True)
_os.symlink({target!r}, "/app/.realcli_out")
"""


def test_grading_output_folder_swapped_for_a_link_is_not_read(
    tmp_path: Path, marked_tasks: MarkedTasks
) -> None:
    """The code under test replaces ``.realcli_out`` (where pytest writes its JUnit XML) with
    a link to a host folder holding a forged report: the host does not read through it, so
    the round has no results instead of the forged pass."""
    forged = tmp_path / "forged"
    forged.mkdir()
    (forged / "round-1.f2p.xml").write_text(FORGED_XML)
    workspace = tmp_path / "ws"
    shutil.copytree(marked_tasks.task_dir / "environment" / "repo", workspace, symlinks=True)
    init = workspace / "intervals" / "__init__.py"
    init.write_text(init.read_text() + SWAP_OUT.format(target=str(forged)))
    run = run_test_set(
        tests_dir=marked_tasks.task_dir / "tests",
        test_set="f2p",
        workspace=workspace,
        out_dir=tmp_path / "out",
        round_no=1,
        options=SandboxOptions(workspace=workspace),
        make_sandbox=partial(make_sandbox, "local"),
        timeout_s=120,
    )
    assert not any(r.nodeid.endswith("test_forged") for r in run.results)
    assert run.results == ()
    assert not run.xml_path.exists()


def test_snapshots_never_store_a_link_target_even_under_a_race(tmp_path: Path) -> None:
    """A background process of the agent flips a workspace file between a regular file and
    a link to a host secret while snapshots are taken: git (which opens files without
    ``O_NOFOLLOW``) runs in a sandbox that sees only the workspace, so no snapshot ever
    holds the secret's bytes."""
    secret = f"host-secret-{uuid.uuid4().hex}".encode()
    (tmp_path / "secret.txt").write_bytes(secret)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "f").write_text("honest 0")
    snapshotter = Snapshotter(workspace, tmp_path / "snapshots.git")
    stop = threading.Event()

    def flip() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            tmp = tmp_path / f".t{n}"  # made outside, renamed in: only "f" ever changes
            if n % 2:
                os.symlink(tmp_path / "secret.txt", tmp)
            else:
                tmp.write_text(f"honest {n}")
            os.replace(tmp, workspace / "f")

    flipper = threading.Thread(target=flip, daemon=True)
    flipper.start()
    try:
        for step in range(25):
            snapshotter.snapshot(round=1, step=step, call_id=None, force=step == 0)
    finally:
        stop.set()
        flipper.join()
    [(_, objects)] = [x for x in run_folder_bytes(tmp_path) if x[0].name == "snapshots.git"]
    assert secret not in objects
    assert b"honest" in objects
