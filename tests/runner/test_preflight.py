"""Preflight: a program the task needs and its sandbox lacks ends the run as ``infra_error``
naming it (no agent session, no model call, no grading); ``tasks check`` fails its preflight
gate instead of blaming the task's tests; a present program lets the run go on."""

from __future__ import annotations

import json
import shutil
import uuid
from functools import partial
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.ledger import read_ledger
from realcli.runner.health import check_task
from realcli.runner.preflight import requirements
from realcli.sandbox import make_sandbox
from tests.conftest import TASKS, env_for, run_realcli

pytestmark = pytest.mark.sandbox

TASK = "smoke-bugfix-intervals"
ABSENT = "riscv64-linux-gnu-gcc"


def _bundle(tasks: Path, requires: list[str], dockerfile: str | None = None) -> Path:
    root = tasks / TASK
    shutil.copytree(TASKS / TASK, root)
    toml = root / "task.toml"
    text = toml.read_text().replace(
        'workdir = "/app"\n', f'workdir = "/app"\nrequires = {json.dumps(requires)}\n', 1
    )
    if dockerfile is not None:
        (root / "environment" / "Dockerfile").write_text(dockerfile)
        text += '\n[environment]\ndockerfile = "environment/Dockerfile"\n'
    toml.write_text(text)
    return root


def test_requirements_come_from_requires_and_the_dockerfile_under_docker(tmp_path: Path) -> None:
    dockerfile = (
        "FROM realcli-base:bookworm\n"
        "RUN apt-get update && \\\n"
        "    apt-get install -y --no-install-recommends gcc-riscv64-linux-gnu \\\n"
        "      qemu-system-misc=1:7.2 libfoo-dev && rm -rf /var/lib/apt/lists/*\n"
        "RUN pip install pytest\n"
    )
    task = load_task(_bundle(tmp_path, ["make"], dockerfile))
    local = [(r.program, r.source) for r in requirements(task, "local")]
    assert local == [("make", "task.toml: requires")]
    docker = [(r.program, r.source) for r in requirements(task, "docker")]
    assert docker == [
        ("make", "task.toml: requires"),
        ("riscv64-linux-gnu-gcc", "environment/Dockerfile:2 (apt package gcc-riscv64-linux-gnu)"),
        ("qemu-system-riscv64", "environment/Dockerfile:2 (apt package qemu-system-misc)"),
    ]  # libfoo-dev is not in the table: not guessed


def test_tasks_check_fails_preflight_before_the_test_gates(tmp_path: Path) -> None:
    root = _bundle(tmp_path, [ABSENT, "make"])
    health = check_task(root, partial(make_sandbox, "local"))
    assert not health.ok
    gate = health.gates[-1]  # the last gate run: nothing after it blamed the tests
    assert gate.name == "preflight (required programs)" and not gate.ok
    assert gate.detail.startswith(f"{ABSENT}: not found on PATH in the task's local sandbox")
    assert "needed by task.toml: requires" in gate.detail and "make" not in gate.detail
    assert not any(g.name.startswith("f2p on") for g in health.gates)


def test_a_missing_program_ends_the_run_as_infra_error_naming_it(
    tmp_path: Path, cache_dir: Path
) -> None:
    tasks = tmp_path / "tasks"
    _bundle(tasks, [ABSENT])
    env = env_for(tmp_path, cache_dir) | {"REALCLI_TASKS_DIR": str(tasks)}
    proc = run_realcli(["run", f"task={TASK}", "model=replay"], env, tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (verdict_path,) = (tmp_path / "runs").glob("*/*/verdict.json")
    verdict = json.loads(verdict_path.read_text())
    assert verdict["status"] == "infra_error", verdict
    assert verdict["error"].startswith(f"{ABSENT}: not found on PATH"), verdict["error"]
    assert "install it on the host, or run with sandbox=docker" in verdict["error"]
    ledger = read_ledger(verdict_path.parent / "ledger.jsonl")
    kinds = [e.kind for e in ledger.events]
    assert "model_call" not in kinds and "session" not in kinds and "grading" not in kinds
    errors = [e for e in ledger.events if e.kind == "error"]
    assert [e.error_type.value for e in errors] == ["missing_tool"]


def test_a_present_program_lets_the_run_go_on(tmp_path: Path, cache_dir: Path) -> None:
    tasks = tmp_path / "tasks"
    _bundle(tasks, ["make", "python3"])
    env = env_for(tmp_path, cache_dir) | {"REALCLI_TASKS_DIR": str(tasks)}
    proc = run_realcli(["run", f"task={TASK}", "model=replay"], env, tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (verdict_path,) = (tmp_path / "runs").glob("*/*/verdict.json")
    verdict = json.loads(verdict_path.read_text())
    assert (verdict["status"], verdict["passed"]) == ("graded", True), verdict


@pytest.mark.docker
def test_with_the_toolchain_in_its_image_the_run_goes_on(tmp_path: Path, cache_dir: Path) -> None:
    """The same requirement, met inside the task's own image under sandbox=docker."""
    tasks = tmp_path / "tasks"
    stand_in = (
        "FROM realcli-base:bookworm\n"
        f"RUN printf '#!/bin/sh\\necho stand-in cross compiler\\n' > /usr/local/bin/{ABSENT} \\\n"
        f"    && chmod +x /usr/local/bin/{ABSENT}\n"
    )
    _bundle(tasks, [ABSENT], stand_in)
    env = env_for(tmp_path, cache_dir) | {"REALCLI_TASKS_DIR": str(tasks)}
    args = ["run", f"task={TASK}", "model=replay", "sandbox=docker"]
    proc = run_realcli(args, env, tmp_path, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (verdict_path,) = (tmp_path / "runs").glob("*/*/verdict.json")
    verdict = json.loads(verdict_path.read_text())
    assert (verdict["status"], verdict["passed"]) == ("graded", True), verdict


def test_a_missing_tool_run_is_redone_once_the_program_is_there(
    tmp_path: Path, cache_dir: Path
) -> None:
    """The run never started, so a later sweep does it again (in the same folder, the same
    run key) instead of keeping the infra error for ever."""
    program = f"realcli-test-tool-{uuid.uuid4().hex[:8]}"
    tasks = tmp_path / "tasks"
    _bundle(tasks, [program])
    env = env_for(tmp_path, cache_dir) | {"REALCLI_TASKS_DIR": str(tasks)}
    args = ["run", f"task={TASK}", "model=replay"]
    first = run_realcli(args, env, tmp_path, timeout=600)
    assert first.returncode == 0, first.stderr[-2000:]
    (verdict_path,) = (tmp_path / "runs").glob("*/*/verdict.json")
    assert json.loads(verdict_path.read_text())["error_type"] == "missing_tool"
    tool = Path("/usr/local/bin") / program  # on the host's /usr, which the sandbox mounts
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(0o755)
    try:
        again = run_realcli(args, env, tmp_path, timeout=600)
    finally:
        tool.unlink()
    assert again.returncode == 0, again.stderr[-2000:]
    assert "ended missing_tool" in again.stderr + again.stdout
    (redone,) = (tmp_path / "runs").glob("*/*/verdict.json")
    assert redone == verdict_path
    verdict = json.loads(redone.read_text())
    assert (verdict["status"], verdict["passed"]) == ("graded", True), verdict
