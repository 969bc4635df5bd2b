"""The scripts realcli mounts into a sandbox and runs with the sandbox's own Python import only
the standard library (plus, for two of them, the one package their sandbox provides).

They run where realcli is not installed: ``inside.py`` and ``docker_inside.py`` (the
launchers), ``builtin_agent.py`` (the built-in agent), ``pytest_guard.py`` (with the grading
sandbox's pytest), ``mcp_server.py`` (with the sandbox's ``mcp``) and the Harbor verifier
copied into imported tasks. import-linter cannot say "standard library only", so each file's
imports (top level and nested, and ``importlib.import_module``/``__import__`` of a literal
name) are read with :mod:`ast` and checked against :data:`sys.stdlib_module_names`.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from realcli.catalog import import_harbor_verifier
from realcli.grading.guard import GUARD_MOUNT, GUARD_SCRIPT
from realcli.harness.builtin import AGENT_MODULES, AGENT_MOUNT, AGENT_SCRIPT
from realcli.harness.cli_agent import GUI_MCP_MOUNT, GUI_MCP_SCRIPT
from realcli.sandbox import docker, local

REALCLI = Path(__file__).resolve().parents[1] / "realcli"

SCRIPTS: dict[str, tuple[Path, frozenset[str]]] = {
    # mount point in the sandbox: (the host file or folder, third-party packages it may use)
    local.INSIDE_MOUNT: (local.INSIDE_SCRIPT, frozenset()),
    docker.LAUNCHER_MOUNT: (docker.LAUNCHER_SCRIPT, frozenset()),
    # the agent imports its sibling modules, mounted beside it (by name as a script, relative
    # when the host imports it as realcli.harness.agents.builtin_agent)
    AGENT_MOUNT: (AGENT_SCRIPT, frozenset({".", *(Path(m).stem for m in AGENT_MODULES)})),
    **{
        f"{AGENT_MOUNT.rsplit('/', 1)[0]}/{m}": (AGENT_SCRIPT.with_name(m), frozenset())
        for m in AGENT_MODULES
    },
    GUARD_MOUNT: (GUARD_SCRIPT, frozenset({"pytest", "_pytest", "pluggy"})),
    GUI_MCP_MOUNT: (GUI_MCP_SCRIPT, frozenset({"mcp", "anyio"})),
    "<task>/tests/harbor_verify.py": (Path(import_harbor_verifier.__file__), frozenset()),
}
"""Every in-sandbox script. docker's forwarder is local's ``inside.py`` (same file)."""


def _imported(node: ast.AST) -> list[tuple[int, str]]:
    """(line, top-level module name) of each import in ``node``; '.' for a relative one."""
    found: list[tuple[int, str]] = []
    for n in ast.walk(node):
        if isinstance(n, ast.Import):
            found += [(n.lineno, a.name.split(".")[0]) for a in n.names]
        elif isinstance(n, ast.ImportFrom):
            found.append((n.lineno, "." if n.level else (n.module or "").split(".")[0]))
        elif (
            isinstance(n, ast.Call)
            and n.args
            and isinstance(n.args[0], ast.Constant)
            and isinstance(n.args[0].value, str)
            and (
                (isinstance(n.func, ast.Name) and n.func.id == "__import__")
                or (isinstance(n.func, ast.Attribute) and n.func.attr == "import_module")
            )
        ):
            found.append((n.lineno, n.args[0].value.split(".")[0]))
    return found


def non_stdlib_imports(script: Path, allowed: frozenset[str] = frozenset()) -> list[str]:
    """``file:line: module`` for each import that is neither the standard library nor in
    ``allowed``. A folder (a script split in parts, mounted together) may import its own
    parts by name."""
    files = sorted(script.rglob("*.py")) if script.is_dir() else [script]
    own = {f.stem for f in files} if script.is_dir() else set()
    problems = []
    for f in files:
        for line, name in _imported(ast.parse(f.read_text(encoding="utf-8"), str(f))):
            if name in sys.stdlib_module_names or name in allowed or name in own:
                continue
            why = "a relative import" if name == "." else name
            where = f.relative_to(REALCLI.parent) if f.is_relative_to(REALCLI.parent) else f
            problems.append(f"{where}:{line}: {why}")
    return problems


@pytest.mark.parametrize("mount", sorted(SCRIPTS))
def test_in_sandbox_script_imports_only_the_standard_library(mount: str) -> None:
    script, allowed = SCRIPTS[mount]
    assert script.exists(), f"{mount}: {script} is gone (update SCRIPTS)"
    assert non_stdlib_imports(script, allowed) == []


def test_every_script_mounted_into_a_sandbox_is_checked() -> None:
    """Each ``/run/realcli/....py`` mount point named in realcli's source is in SCRIPTS, so a
    new in-sandbox script cannot skip the check."""
    literal = re.compile(r"""["'](/run/realcli/[\w./-]+\.py)["']""")
    mounts = {m for p in REALCLI.rglob("*.py") for m in literal.findall(p.read_text("utf-8"))}
    assert mounts, "no mount points found: the scan is broken"
    assert mounts <= set(SCRIPTS), sorted(mounts - set(SCRIPTS))


def test_the_check_flags_third_party_realcli_and_relative_imports(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import json, requests\n"
        "from realcli.util import errors\n"
        "from . import sibling\n"
        "def f():\n"
        "    import yaml\n"
        "    return __import__('numpy.linalg')\n",
        encoding="utf-8",
    )
    found = [p.split(":", 1)[1] for p in non_stdlib_imports(bad)]
    assert found == ["1: requests", "2: realcli", "3: a relative import", "5: yaml", "6: numpy"]
    allowed = frozenset({"requests", "realcli", "yaml", "numpy"})
    assert non_stdlib_imports(bad, allowed) == [f"{bad}:3: a relative import"]
