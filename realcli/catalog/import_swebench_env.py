"""A SWE-bench row's environment: the repository at ``base_commit`` from a local clone, and
the per-repo/version install commands as the instance's setup script and Dockerfile.

The checkout is the tree of ``base_commit`` (no ``.git``: no later commit, no gold
patch, no other branch reaches the bundle); ``environment/setup.sh`` makes a fresh one-commit
repository of it in the workspace, so the agent has ``git diff``/``git status`` and a
``git log`` that shows only the base. Install commands come from a small built-in table of
repos verified here (the SWE-bench harness' ``MAP_REPO_VERSION_TO_SPECS`` form: ``python``,
``pre_install``, ``install``, ``pip_packages``) or from ``--install``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from realcli.catalog.import_report import ImportReport

__all__ = [
    "BASE_IMAGE",
    "INSTALL_SPECS",
    "InstallSpec",
    "RepoError",
    "checkout",
    "find_clone",
    "patch_problem",
    "write_environment",
]

BASE_IMAGE = "realcli-base:bookworm"
"""realcli's base image (realcli.sandbox.docker_base): the instance image builds over it."""


@dataclass(frozen=True)
class InstallSpec:
    python: str | None = None
    pre_install: tuple[str, ...] = ()
    install: str | None = None
    pip_packages: tuple[str, ...] = ()
    note: str = ""


INSTALL_SPECS: dict[str, dict[str, InstallSpec]] = {
    "benjaminp/six": {
        "*": InstallSpec(
            note="pure Python, no dependencies: the tests import six.py from the checkout"
            " (verified by tests/catalog/test_import_swebench.py)"
        )
    },
    "psf/requests": {
        "*": InstallSpec(
            python="3.9",
            install="python -m pip install .",
            pip_packages=("pytest",),
            note="as the SWE-bench harness has it (SPECS_REQUESTS); not run here",
        )
    },
}
"""repo -> version (``*``: every version) -> install commands."""


class RepoError(Exception):
    """The clone is missing or lacks the commit (the message says which and what to do)."""

    def __init__(self, field: str, problem: str, fix: str) -> None:
        super().__init__(problem)
        self.field, self.problem, self.fix = field, problem, fix


def _git(clone: Path, *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", "-C", str(clone), *args], input=data, capture_output=True, check=False
    )


def find_clone(repos: Path, repo: str) -> Path:
    """``repos/<owner>__<name>`` or ``repos/<owner>/<name>``, a git clone."""
    owner, name = repo.split("/", 1)
    for cand in (repos / f"{owner}__{name}", repos / owner / name):
        if cand.is_dir() and _git(cand, "rev-parse", "--git-dir").returncode == 0:
            return cand
    raise RepoError(
        "repo",
        f"no git clone of {repo} under {repos} (looked for {owner}__{name}/ and {owner}/{name}/)",
        f"clone it there (git clone <url> {repos / f'{owner}__{name}'}) or pass another --repos",
    )


def _commit(clone: Path, base_commit: str) -> str:
    done = _git(clone, "rev-parse", "--verify", "--quiet", f"{base_commit}^{{commit}}")
    if done.returncode != 0:
        raise RepoError(
            "base_commit",
            f"{clone} has no commit {base_commit}",
            f"fetch it into the clone (git -C {clone} fetch origin {base_commit})",
        )
    return done.stdout.decode().strip()


def checkout(clone: Path, base_commit: str, dest: Path) -> str:
    """Write the tree of ``base_commit`` into ``dest`` (no .git); return the full commit id.
    Through a throw-away index and ``checkout-index``, not ``git archive``: that would drop
    the files a ``.gitattributes`` marks ``export-ignore`` (often the tests)."""
    sha = _commit(clone, base_commit)
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="realcli-swebench-") as tmp:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(tmp) / "index")}
        for args in (
            ["read-tree", sha],
            ["checkout-index", "--all", "--force", f"--prefix={dest.resolve()}/"],
        ):
            done = subprocess.run(
                ["git", "-C", str(clone), *args], env=env, capture_output=True, check=False
            )
            if done.returncode != 0:
                why = done.stderr.decode(errors="replace").strip()[-300:]
                raise RepoError("base_commit", f"git {args[0]} of {sha} failed: {why}", "check it")
    return sha


def patch_problem(repo_dir: Path, diff: str) -> str | None:
    """Why ``diff`` does not apply to ``repo_dir`` (``git apply --check``), or None."""
    done = subprocess.run(
        ["git", "apply", "--check", "--whitespace=nowarn", "-"],
        cwd=repo_dir,
        input=diff.encode(),
        capture_output=True,
        check=False,
    )
    if done.returncode == 0:
        return None
    return done.stderr.decode(errors="replace").strip().splitlines()[-1][:300]


_SETUP = """#!/usr/bin/env bash
# SWE-bench instance {instance_id}: the workspace becomes a git repository whose only commit
# is the base ({repo}@{sha}), so the agent has `git diff` and `git status`; no later
# commit of the project exists here.
set -euo pipefail
git init -q .
git add -A -f
git -c user.name=swebench -c user.email=swebench@localhost \\
  commit -q --no-verify -m "{repo} at {sha}"
"""


def _spec(repo: str, version: str | None, given: tuple[str, ...]) -> InstallSpec | None:
    if given:
        return InstallSpec(install=" && ".join(given), note="given with --install")
    by_version = INSTALL_SPECS.get(repo, {})
    return by_version.get(version or "*") or by_version.get("*")


def write_environment(
    bundle: Path,
    *,
    instance_id: str,
    repo: str,
    version: str | None,
    sha: str,
    install: tuple[str, ...],
    report: ImportReport,
) -> str | None:
    """Write ``environment/setup.sh`` and, when there are install commands, the instance's
    ``environment/Dockerfile``; return the Dockerfile's bundle path (or None)."""
    env = bundle / "environment"
    (env / "setup.sh").write_text(
        _SETUP.format(instance_id=instance_id, repo=repo, sha=sha), encoding="utf-8"
    )
    report.became("base_commit", f"environment/repo: the tree of {sha} (no history)")
    report.became("base_commit", "environment/setup.sh: a one-commit git repo of the base")
    spec = _spec(repo, version, install)
    if spec is None:
        report.cannot(
            "version",
            f"install commands unknown for repo {repo} version {version}",
            "realcli's table knows " + ", ".join(sorted(INSTALL_SPECS)),
            "give --install 'CMD' (repeatable; the harness' MAP_REPO_VERSION_TO_SPECS install"
            " line), or install what the tests import into realcli's Python",
        )
        return None
    report.metadata["install"] = spec.note or "table"
    runs = [*spec.pre_install]
    if spec.install:
        runs.append(spec.install)
    if spec.pip_packages:
        runs.append("python -m pip install " + " ".join(shlex.quote(p) for p in spec.pip_packages))
    if spec.python:
        report.cannot(
            "version",
            f"python {spec.python}",
            "SWE-bench runs this instance on that Python; realcli grades with its own Python"
            " (first on PATH in both sandboxes)",
            "check the tests pass on realcli's Python (`realcli tasks check`)",
        )
    if not runs:
        report.became("version", f"no install step ({spec.note}): realcli's base image serves")
        return None
    lines = [
        f"# SWE-bench instance image for {instance_id} ({repo} {version}), over realcli's base",
        f"FROM {BASE_IMAGE}",
        "WORKDIR /app",
        "COPY repo /app",
        *(f"RUN {cmd}" for cmd in runs),
    ]
    (env / "Dockerfile").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report.became("version", f"environment/Dockerfile: {len(runs)} RUN line(s) ({spec.note})")
    for cmd in runs:
        if any(w in cmd for w in ("pip install", "apt-get", "conda ", "npm ")):
            report.cannot(
                "environment/Dockerfile",
                f"RUN {cmd}",
                "downloads packages: realcli builds images without network (and its base image"
                " has python3 without pip)",
                f"build the image where the registry is reachable (docker build -t swebench/"
                f"{instance_id} environment/), then set [environment] image to that tag; or"
                " vendor wheels into environment/ and use pip install --no-index --find-links",
            )
        elif cmd.split()[:1] == ["python"]:
            report.cannot(
                "environment/Dockerfile",
                f"RUN {cmd}",
                "realcli's base image has `python3`, no `python`",
                "write python3 in --install",
            )
    return "environment/Dockerfile"
