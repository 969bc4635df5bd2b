"""LocalSandbox (bubblewrap) against the sandbox contract, plus bwrap-specific checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sandbox_contract import MakeSandbox, SandboxContract

from realcli.sandbox import SANDBOXES, LocalSandbox, SandboxOptions, make_sandbox
from realcli.util.errors import ConfigError

pytestmark = pytest.mark.sandbox


class TestLocalSandbox(SandboxContract):
    @pytest.fixture
    def make_sandbox(self, tmp_path: Path) -> MakeSandbox:
        workspace = tmp_path / "workspace"
        workspace.mkdir()

        def make(**changes: Any) -> LocalSandbox:
            return LocalSandbox(SandboxOptions(**{"workspace": workspace, **changes}))

        return make


def test_registry_builds_local() -> None:
    sandbox = make_sandbox("local", SandboxOptions(workspace=Path("/tmp")))
    assert isinstance(sandbox, LocalSandbox) and SANDBOXES["local"] is LocalSandbox
    with pytest.raises(ConfigError, match=r"sandbox.kind: no sandbox backend 'locl'.*'local'"):
        make_sandbox("locl", SandboxOptions(workspace=Path("/tmp")))


def test_curated_etc_never_binds_whole_etc(tmp_path: Path) -> None:
    args = LocalSandbox(SandboxOptions(workspace=tmp_path)).bwrap_options()
    binds = [args[i + 1] for i, a in enumerate(args) if a in ("--ro-bind", "--bind")]
    assert "/etc" not in binds and "/etc/shadow" not in binds and "/etc/ssl" not in binds
    assert "/etc/passwd" in binds
    assert not any(b == "/work" or b == "/root" or b.startswith("/home") for b in binds)


def test_with_ro_binds_returns_new_sandbox(tmp_path: Path) -> None:
    base = LocalSandbox(SandboxOptions(workspace=tmp_path))
    derived = base.with_ro_binds((tmp_path, "/extra"))
    assert base.options.ro_binds == () and derived.options.ro_binds == ((tmp_path, "/extra"),)
    assert type(derived) is LocalSandbox


def test_options_validate() -> None:
    with pytest.raises(ValueError, match="workdir"):
        SandboxOptions(workspace=Path("/tmp"), workdir="app")
    with pytest.raises(ValueError, match="ro_binds"):
        SandboxOptions(workspace=Path("/tmp"), ro_binds=((Path("/tmp"), "rel"),))
