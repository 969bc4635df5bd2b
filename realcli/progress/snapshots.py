"""Workspace snapshots in a shadow git repository, one commit per file-changing tool call.

The repository is bare and lives in the run folder (``snapshots.git``); every git command runs
with ``GIT_DIR`` at it and ``GIT_WORK_TREE`` at the workspace, so no ``.git`` is ever created
in the workspace and a ``.git`` the workspace has of its own is neither read nor written (git
never tracks a path named ``.git``). Its index (``snapshots.git/index``) persists between
snapshots, so a snapshot re-hashes only files whose stat data changed.

What a snapshot holds: every regular file, symlink and executable bit under the workspace,
including files its ``.gitignore`` ignores (``git add --all --force``), byte for byte (the
repository's ``info/attributes`` switches off every content filter a workspace's
``.gitattributes`` could ask for). What it cannot hold: empty directories, sockets and FIFOs,
and the contents of a nested git repository (a sub-folder with its own ``.git`` is stored as a
gitlink, as git does).

``git add`` (the one command that reads the workspace) runs in a sandbox that sees only the
workspace and the repository: a link the agent swaps in while git reads is never followed to
a host file (``docs/security.md``, "Links and special files").

No user or system git configuration is read (``GIT_CONFIG_GLOBAL=/dev/null``,
``GIT_CONFIG_NOSYSTEM=1``); author and committer are fixed.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from realcli.sandbox import SandboxOptions, make_sandbox
from realcli.schema.events import SnapshotEvent
from realcli.util.errors import RealcliError

__all__ = ["SNAPSHOT_REF", "SnapshotError", "Snapshotter", "git_env", "restore_snapshot"]

SNAPSHOT_REF = "refs/heads/snapshots"
ADD_TIMEOUT_S = 300.0
"""Longest a snapshot's ``git add`` may take (a huge workspace, or a FIFO swapped in)."""
ADD_ATTEMPTS = 3
_GIT_MOUNT = "/run/realcli/snapshots.git"
_WORK_MOUNT = "/run/realcli/workspace"
_ATTRIBUTES = (
    "# realcli: store and restore every file byte for byte, whatever .gitattributes says\n"
    "* -text -crlf -eol -filter -ident -working-tree-encoding -export-ignore -export-subst\n"
)
_CONFIG = {
    "core.autocrlf": "false",
    "core.safecrlf": "false",
    "core.filemode": "true",
    "core.symlinks": "true",
    "core.ignorecase": "false",
    "core.quotepath": "false",
    "gc.auto": "0",  # no garbage collection pauses in the middle of a run
}


class SnapshotError(RealcliError):
    """A git command of the snapshot repository failed."""


def git_env(git_dir: Path, work_tree: Path | None = None) -> dict[str, str]:
    """The environment for git over the shadow repository: no inherited ``GIT_*`` variables,
    no user or system config, a fixed identity."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_DIR=str(git_dir),
        GIT_INDEX_FILE=str(git_dir / "index"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_TERMINAL_PROMPT="0",
        GIT_AUTHOR_NAME="realcli",
        GIT_AUTHOR_EMAIL="realcli@localhost",
        GIT_COMMITTER_NAME="realcli",
        GIT_COMMITTER_EMAIL="realcli@localhost",
        LC_ALL="C",
    )
    if work_tree is not None:
        env["GIT_WORK_TREE"] = str(work_tree)
    return env


def _git(
    args: Sequence[str],
    env: Mapping[str, str],
    cwd: Path | None = None,
    ok_codes: tuple[int, ...] = (0,),
) -> str:
    proc = subprocess.run(
        ["git", *args],
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        encoding="utf-8",
        errors="replace",  # file names need not be UTF-8
        check=False,
    )
    if proc.returncode not in ok_codes:
        raise SnapshotError(
            str(env.get("GIT_DIR", "")),
            f"git {args[0]}",
            f"exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-300:]}",
            "check that git is installed and the run folder is writable",
        )
    return proc.stdout


def _init_repository(git_dir: Path) -> None:
    env = git_env(git_dir)
    if not (git_dir / "HEAD").is_file():
        _git(["init", "--quiet", "--bare", str(git_dir)], env)
    for key, value in _CONFIG.items():
        _git(["config", key, value], env)
    info = git_dir / "info"
    info.mkdir(exist_ok=True)
    (info / "attributes").write_text(_ATTRIBUTES, encoding="utf-8")


class Snapshotter:
    """Commit the workspace to ``git_dir`` when it changed; see the module docstring.

    ``snapshot`` is thread-safe and cheap when nothing changed (one ``git add``); it is meant
    to be called after every tool call of an agent.
    """

    def __init__(self, workspace: Path, git_dir: Path) -> None:
        self.workspace = workspace.resolve()
        self.git_dir = git_dir.resolve()
        self._lock = threading.Lock()
        _init_repository(self.git_dir)
        self._env = git_env(self.git_dir, self.workspace)
        head = _git(["rev-parse", "--verify", "--quiet", SNAPSHOT_REF], self._env, ok_codes=(0, 1))
        self._commit: str | None = head.strip() or None
        self._tree: str | None = None
        self.last_paths: tuple[str, ...] = ()
        """The paths the last snapshot added or changed (not the removed ones)."""
        if self._commit:
            self._tree = _git(["rev-parse", f"{self._commit}^{{tree}}"], self._env).strip()

    def _add(self) -> str:
        """``git add`` of the whole workspace, run in a sandbox that sees only the workspace
        and the repository: git opens files without ``O_NOFOLLOW``, so a file the agent's
        background process swaps for a link (or a FIFO) between git's ``lstat`` and its
        ``open`` is followed inside the sandbox, never to a host file (and a FIFO cannot
        block realcli: the command has a timeout)."""
        env = {
            **{k: v for k, v in self._env.items() if k.startswith(("GIT_", "LC_"))},
            "GIT_DIR": _GIT_MOUNT,
            "GIT_INDEX_FILE": f"{_GIT_MOUNT}/index",
            "GIT_WORK_TREE": _WORK_MOUNT,
        }
        sandbox = make_sandbox(
            "local",
            SandboxOptions(
                workspace=self.workspace,
                workdir=_WORK_MOUNT,
                rw_binds=((self.git_dir, _GIT_MOUNT),),
                env=env,
            ),
        )
        args = ["add", "--all", "--force", "--verbose", "--ignore-errors"]
        for _ in range(ADD_ATTEMPTS):  # a file that vanished mid-walk fails git add (128)
            result = sandbox.exec(["git", *args], timeout_s=ADD_TIMEOUT_S)
            if result.returncode in (0, 1) or result.timed_out:
                break
        if result.timed_out or result.returncode not in (0, 1):
            raise SnapshotError(
                str(self.git_dir),
                "git add",
                f"exit {result.returncode}{' (timed out)' if result.timed_out else ''}: "
                f"{(result.stderr or result.stdout).strip()[-300:]}",
                "check that git is installed and the run folder is writable",
            )
        return result.stdout

    @property
    def last_commit(self) -> str | None:
        return self._commit

    def snapshot(
        self, *, round: int, step: int, call_id: str | None, force: bool = False
    ) -> SnapshotEvent | None:
        """Commit the workspace if its tree differs from the last snapshot's (or ``force``:
        the initial snapshot); None when nothing changed. ``seq`` is 0: the ledger writer
        numbers events."""
        with self._lock:
            started = time.perf_counter()
            # --verbose lists each path whose entry changed ("add 'x'", "remove 'x'"); the
            # index always holds the last snapshot's tree, so that is the diff to it.
            # --ignore-errors: an unreadable file is left out (exit 1), the rest is staged.
            staged = self._add()
            lines = staged.splitlines()
            changed = sum(line.startswith(("add '", "remove '")) for line in lines)
            added = tuple(ln[5:-1] for ln in lines if ln.startswith("add '") and ln.endswith("'"))
            if not changed and not force and self._tree is not None:
                return None  # the index, hence the tree, is the last snapshot's
            tree = _git(["write-tree"], self._env, cwd=self.workspace).strip()
            if tree == self._tree and not force:
                return None
            parent = ["-p", self._commit] if self._commit else []
            message = f"round {round} step {step} call {call_id or '-'}"
            commit = _git(["commit-tree", tree, *parent, "-m", message], self._env).strip()
            _git(
                ["update-ref", SNAPSHOT_REF, commit, *([self._commit] if self._commit else [])],
                self._env,
            )
            self._commit, self._tree = commit, tree
            self.last_paths = added
            duration_ms = (time.perf_counter() - started) * 1000
        return SnapshotEvent(
            seq=0,
            round=round,
            step=step,
            call_id=call_id,
            commit=commit,
            tree=tree,
            changed_files=changed,
            duration_ms=duration_ms,
        )

    def restore(self, commit: str, dest: Path) -> None:
        restore_snapshot(self.git_dir, commit, dest)


def restore_snapshot(git_dir: Path, commit: str, dest: Path) -> None:
    """Materialise snapshot ``commit`` into ``dest`` (created if missing, must be empty):
    files, symlinks and executable bits, as they were."""
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise SnapshotError(str(dest), None, "not empty", "restore into an empty folder")
    env = git_env(git_dir.resolve())
    archive = subprocess.Popen(
        ["git", "-c", "tar.umask=0022", "archive", "--format=tar", commit],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert archive.stdout is not None
    untar = subprocess.run(
        ["tar", "-x", "-f", "-", "-C", str(dest)],
        stdin=archive.stdout,
        capture_output=True,
        check=False,
    )
    archive.stdout.close()
    err = archive.stderr.read().decode(errors="replace") if archive.stderr else ""
    if archive.wait() != 0 or untar.returncode != 0:
        raise SnapshotError(
            str(git_dir),
            commit,
            f"restore failed: {(err or untar.stderr.decode(errors='replace')).strip()[-300:]}",
            "check that the commit is a snapshot of this run",
        )
