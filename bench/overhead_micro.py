"""Micro-measurements that explain where realcli's per-run time goes."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from overhead_common import PYTHON, REALCLI, TESTS_MOUNT, median, run_quiet, scratch, timed
from overhead_suite import Suite

from realcli.grading.testrun import collect_test_ids, pytest_argv
from realcli.runner.inventory import expected_tests
from realcli.runner.workspace import apply_reference, prepare_workspace, sandbox_options
from realcli.sandbox import make_sandbox


def grading_argv(tests_dir: Path, workdir: str, junit: str) -> list[str]:
    """realcli's pytest command line for the f2p set."""
    return pytest_argv(tests_dir, ["f2p"], workdir, [junit])


def add_inventory(
    add: Callable[[str, str, Callable[[], object]], None], task: Any, tmp: Path
) -> None:
    """The expected-test inventory a task's first run on a machine computes, and its parts."""
    make = partial(make_sandbox, "local")
    n_shell = sum(type(a).__name__ == "ShellAction" for a in task.reference_actions())

    def whole() -> None:
        with scratch("bench-inv-") as d:
            expected_tests(task, make, d)

    def replay() -> None:
        with scratch("bench-inv-") as d:
            prepare_workspace(task, d / "ws", make)
            apply_reference(task, d / "ws", make)

    ref_ws = tmp / "reference"
    prepare_workspace(task, ref_ws, make)
    apply_reference(task, ref_ws, make)

    def collect() -> None:
        collect_test_ids(
            tests_dir=task.tests_dir,
            workspace=ref_ws,
            options=sandbox_options(task, ref_ws),
            make_sandbox=make,
            timeout_s=task.spec.timeouts.tests_s,
        )

    add("inventory", "expected_tests(), no cache: the whole first-run step", whole)
    add("inventory", f"prepare_workspace + apply_reference ({n_shell} shell actions)", replay)
    add("inventory", "collect_test_ids(): one sandboxed pytest --collect-only", collect)


def micro(suite: Suite, n: int) -> list[dict[str, Any]]:
    """hyperfine-style: one warm-up each, then ``n`` timed rounds; the variants of a group
    run round-robin (host and sandbox alternate), so load from other jobs hits them alike."""
    from realcli.gateway import Gateway
    from realcli.gateway.backends import NoopBackend
    from realcli.harness.builtin import AGENT_MOUNT, AGENT_SCRIPT, agent_binds
    from realcli.sandbox import LocalSandbox, SandboxOptions
    from realcli.sandbox.local import INSIDE_SCRIPT

    items: list[tuple[str, str, Callable[[], object]]] = []

    def add(group: str, name: str, fn: Callable[[], object]) -> None:
        items.append((group, name, fn))

    task = max(suite.tasks, key=lambda t: sum(1 for _ in t.tests_dir.rglob("test_*.py")))
    with scratch("bench-micro-") as tmp:
        ws = tmp / "ws"
        shutil.copytree(task.repo_dir, ws, symlinks=True)
        shutil.copytree(task.tests_dir, ws / TESTS_MOUNT)
        res = task.spec.resources
        opts = SandboxOptions(
            workspace=ws, workdir=task.spec.workdir, memory_mb=res.memory_mb,
            cpu_seconds=res.cpu_seconds, max_file_mb=res.max_file_mb,
        )  # fmt: skip
        sb = LocalSandbox(opts)
        bwrap = shutil.which("bwrap") or "/usr/bin/bwrap"
        full = sb.bwrap_options()

        def sbx(argv: list[str], s: Any = sb) -> Callable[[], object]:
            def go() -> None:
                r = s.exec(argv, timeout_s=120)
                if r.returncode not in (0, 1):
                    raise RuntimeError(f"sandboxed {argv} failed: {r.stdout}{r.stderr}")

            return go

        def host(argv: list[str], **kw: Any) -> Callable[[], object]:
            return lambda: run_quiet(argv, **kw)

        add("bwrap", "host: `true` (process spawn, no sandbox)", host(["true"]))
        add("bwrap", "bwrap --ro-bind / / true", host([bwrap, "--ro-bind", "/", "/", "true"]))
        add(
            "bwrap", "bwrap --ro-bind / / --unshare-all true",
            host([bwrap, "--ro-bind", "/", "/", "--unshare-all", "true"]),
        )  # fmt: skip
        add("bwrap", "bwrap <realcli's options> true", host([bwrap, *full, "true"]))
        add("bwrap", "LocalSandbox.exec(['true'])  (realcli's path)", sbx(["true"]))

        add("python", "host: venv python -c pass", host([PYTHON, "-c", "pass"]))
        add("python", "sandbox: venv python -c pass", sbx(["python", "-c", "pass"]))
        sys_py = ["/usr/bin/python3", "-I", "-S", "-c", "pass"]
        add("python", "host: /usr/bin/python3 -I -S -c pass", host(sys_py))
        add("python", "sandbox: /usr/bin/python3 -I -S -c pass", sbx(sys_py))
        imp = ["-c", "import pytest"]
        add("python", "host: venv python -c 'import pytest'", host([PYTHON, *imp]))
        add("python", "sandbox: venv python -c 'import pytest'", sbx(["python", *imp]))

        plain = [PYTHON, "-m", "pytest", f"{TESTS_MOUNT}/f2p"]
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        add("pytest", f"host: floor `pytest f2p` ({task.id})", host(plain, cwd=ws, env=env))
        junit = ws / ".realcli_out" / "f2p.xml"
        junit.parent.mkdir()
        workdir = task.spec.workdir
        host_argv = grading_argv(task.tests_dir, str(ws), f"--junitxml={junit}")
        host_argv = [PYTHON if a == "python" else a for a in host_argv]
        add("pytest", "host: realcli's grading pytest command", host(host_argv, cwd=ws, env=env))
        inside = grading_argv(task.tests_dir, workdir, f"--junitxml={workdir}/.realcli_out/f.xml")
        graded = sb.with_options(env={"PYTHONDONTWRITEBYTECODE": "1"})
        add("pytest", "sandbox: the same, as realcli grades", sbx(inside, graded))

        agent = ["/usr/bin/python3", "-I", str(AGENT_SCRIPT), "--help"]
        add("agent", "host: builtin_agent.py --help (its imports)", host(agent))
        agent_sb = sb.with_ro_binds(*agent_binds())  # the script and its sibling modules
        agent_in = ["/usr/bin/python3", "-I", AGENT_MOUNT, "--help"]
        add("agent", "sandbox: builtin_agent.py --help", sbx(agent_in, agent_sb))
        launcher = ["/usr/bin/python3", "-I", "-S", str(INSIDE_SCRIPT), "--help"]
        add("agent", "host: gateway launcher inside.py --help (its imports)", host(launcher))
        launcher_sb = sb.with_ro_binds((INSIDE_SCRIPT, "/run/realcli/inside.py"))
        launcher_in = ["/usr/bin/python3", "-I", "-S", "/run/realcli/inside.py", "--help"]
        add("agent", "sandbox: inside.py --help", sbx(launcher_in, launcher_sb))

        def gateway() -> None:
            with scratch("bench-gw-") as d, Gateway(NoopBackend(), lambda _e: None) as gw:
                gw.start(d / "gw.sock")

        add("agent", "Gateway start + stop (in-process, no call)", gateway)

        copy_to = tmp / "copy"

        def cp_r() -> None:
            shutil.rmtree(copy_to, ignore_errors=True)
            run_quiet(["cp", "-r", str(ws), str(copy_to)])

        def copytree() -> None:
            shutil.rmtree(copy_to, ignore_errors=True)
            shutil.copytree(ws, copy_to, symlinks=True)

        n_files = sum(1 for p in ws.rglob("*") if p.is_file())
        add("copy", f"cp -r workspace ({n_files} files) + rm", cp_r)
        add("copy", "shutil.copytree workspace + rm", copytree)
        add("realcli", "git rev-parse HEAD (once per run)", host(["git", "rev-parse", "HEAD"]))
        add("realcli", "realcli --version", host([REALCLI, "--version"]))
        add(
            "realcli", "python -c 'import realcli.runner.app' (Hydra etc.)",
            host([PYTHON, "-c", "import realcli.runner.app, realcli.runner.execute"]),
        )  # fmt: skip

        add_inventory(add, task, tmp)

        rows: list[dict[str, Any]] = []
        for group in dict.fromkeys(g for g, _, _ in items):
            members = [(name, fn) for g, name, fn in items if g == group]
            times: dict[str, list[float]] = {name: [] for name, _ in members}
            for _, fn in members:
                fn()  # warm-up
            for _ in range(n):
                for name, fn in members:
                    times[name].append(timed(fn))
            for name, xs in times.items():
                rows.append(
                    {"group": group, "name": name, "median_s": median(xs), "min_s": min(xs)}
                )
                print(f"  {group:8s} {name:60s} {median(xs) * 1000:8.1f} ms", flush=True)
    return rows
