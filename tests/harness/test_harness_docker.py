"""The harness contract under ``sandbox=docker`` for builtin, codex and claude_code: the same
scenarios as under ``local``, each agent (the builtin agent with the system Python, the
cached Codex and Claude Code CLIs, bind-mounted by their adapters) running in a container."""

from __future__ import annotations

import docker
import docker.errors
import pytest
import test_claude_code_harness as claude_code
import test_codex_harness as codex
import test_harness_contract_builtin as builtin


def _docker_down() -> str | None:
    try:
        docker.from_env(timeout=5).ping()
    except (docker.errors.DockerException, OSError) as exc:
        return f"dockerd does not answer ({exc}); start it with `bash scripts/dockerd.sh`"
    return None


_DOWN = _docker_down()
pytestmark = [
    pytest.mark.docker,
    pytest.mark.sandbox,
    pytest.mark.skipif(_DOWN is not None, reason=_DOWN or ""),
]


class TestBuiltinHarnessDocker(builtin.TestBuiltinHarnessContract):
    harness_overrides = ("harness=builtin", "sandbox=docker")


class TestCodexHarnessDocker(codex.TestCodexHarnessContract):
    harness_overrides = ("harness=codex", "sandbox=docker")


class TestClaudeCodeHarnessDocker(claude_code.TestClaudeCodeHarnessContract):
    harness_overrides = ("harness=claude_code", "sandbox=docker")


@pytest.mark.parametrize(
    "cls", [TestBuiltinHarnessDocker, TestCodexHarnessDocker, TestClaudeCodeHarnessDocker]
)
def test_overrides_choose_docker(cls: type) -> None:
    assert "sandbox=docker" in cls.harness_overrides
