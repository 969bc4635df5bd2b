"""The builtin agent is a script plus stdlib-only sibling modules, mounted together: every
module it imports is the standard library or a sibling the harness mounts beside it, and in a
real sandbox given only those binds it starts (``python3 -I`` puts no folder on sys.path)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from realcli.harness.builtin import AGENT_MODULES, AGENT_MOUNT, AGENT_SCRIPT, agent_binds
from realcli.sandbox import LocalSandbox, SandboxOptions

SIBLINGS = {Path(m).stem for m in AGENT_MODULES}
FILES = [AGENT_SCRIPT, *(AGENT_SCRIPT.with_name(m) for m in AGENT_MODULES)]


def _imports(path: Path) -> set[str]:
    """Top-level names of every module ``path`` imports (relative ones as their name)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[0])
    return names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_agent_files_import_only_the_stdlib_and_their_mounted_siblings(path: Path) -> None:
    assert path.is_file(), f"{path} is in AGENT_MODULES but does not exist"
    foreign = _imports(path) - set(sys.stdlib_module_names) - SIBLINGS - {"__future__"}
    assert not foreign, f"{path.name} imports {sorted(foreign)}: stdlib or a mounted sibling only"


def test_every_sibling_the_script_imports_is_mounted() -> None:
    imported = _imports(AGENT_SCRIPT) - set(sys.stdlib_module_names) - {"__future__"}
    assert imported == SIBLINGS
    mounted = {dest for _, dest in agent_binds()}
    folder = AGENT_MOUNT.rsplit("/", 1)[0]
    assert mounted == {AGENT_MOUNT, *(f"{folder}/{m}" for m in AGENT_MODULES)}


@pytest.mark.sandbox
def test_the_script_starts_in_a_sandbox_with_only_its_binds(tmp_path: Path) -> None:
    sandbox = LocalSandbox(SandboxOptions(workspace=tmp_path)).with_ro_binds(*agent_binds())
    result = sandbox.exec(["/usr/bin/python3", "-I", AGENT_MOUNT, "--help"], timeout_s=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: builtin_agent") and "--channels" in result.stdout
    # without its siblings it cannot start: the binds are what makes it work
    bare = LocalSandbox(SandboxOptions(workspace=tmp_path)).with_ro_binds(agent_binds()[0])
    broken = bare.exec(["/usr/bin/python3", "-I", AGENT_MOUNT, "--help"], timeout_s=120)
    assert broken.returncode != 0 and "builtin_tools" in broken.stderr
