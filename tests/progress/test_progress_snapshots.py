"""Snapshotter: a shadow git repository of the workspace, real git, no sandbox."""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from realcli.progress import SNAPSHOT_REF, SnapshotError, Snapshotter, restore_snapshot


def _git(cwd: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@t",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@t",
    )
    out = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _files(root: Path) -> dict[str, tuple[bytes | str, bool]]:
    """relative path -> (bytes, or the link target, executable?) for every file and link."""
    found: dict[str, tuple[bytes | str, bool]] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        if path.is_symlink():
            found[rel] = (os.readlink(path), False)
        elif path.is_file():
            found[rel] = (path.read_bytes(), bool(path.stat().st_mode & stat.S_IXUSR))
    return found


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "pkg").mkdir(parents=True)
    (ws / "pkg" / "mod.py").write_text("X = 1\n")
    (ws / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (ws / "run.sh").chmod(0o755)
    (ws / "link").symlink_to("pkg/mod.py")
    (ws / "crlf.txt").write_bytes(b"a\r\nb\r\n")
    return ws


def test_initial_snapshot_then_unchanged_trees_are_deduplicated(
    workspace: Path, tmp_path: Path
) -> None:
    snap = Snapshotter(workspace, tmp_path / "snapshots.git")
    first = snap.snapshot(round=1, step=0, call_id=None, force=True)
    assert first is not None and first.step == 0 and first.changed_files == 4
    assert first.seq == 0 and first.duration_ms > 0
    assert snap.snapshot(round=1, step=1, call_id="c1") is None  # nothing changed
    (workspace / "pkg" / "mod.py").write_text("X = 1\n")  # rewritten, same bytes
    assert snap.snapshot(round=1, step=2, call_id="c2") is None
    (workspace / "pkg" / "mod.py").write_text("X = 2\n")
    (workspace / "new.txt").write_text("n\n")
    second = snap.snapshot(round=1, step=3, call_id="c3")
    assert second is not None and second.changed_files == 2 and second.call_id == "c3"
    assert second.tree != first.tree
    forced = snap.snapshot(round=2, step=4, call_id=None, force=True)  # force: even unchanged
    assert forced is not None and forced.tree == second.tree and forced.changed_files == 0
    env_dir = tmp_path / "snapshots.git"
    assert not (workspace / ".git").exists()
    log = subprocess.run(
        ["git", "--git-dir", str(env_dir), "rev-list", "--parents", SNAPSHOT_REF],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    chain = [line.split() for line in log if line]
    assert [c[0] for c in chain] == [forced.commit, second.commit, first.commit]
    assert chain[0][1:] == [second.commit] and chain[2][1:] == []  # a parent chain


def test_ignored_files_are_captured_and_a_deletion_counts(workspace: Path, tmp_path: Path) -> None:
    (workspace / ".gitignore").write_text("*.log\nbuild/\n")
    (workspace / "debug.log").write_text("log\n")
    (workspace / "build").mkdir()
    (workspace / "build" / "out.bin").write_bytes(b"\x00\x01")
    snap = Snapshotter(workspace, tmp_path / "snapshots.git")
    first = snap.snapshot(round=1, step=0, call_id=None, force=True)
    assert first is not None
    restored = tmp_path / "restored"
    restore_snapshot(tmp_path / "snapshots.git", first.commit, restored)
    assert (restored / "debug.log").read_text() == "log\n"
    assert (restored / "build" / "out.bin").read_bytes() == b"\x00\x01"
    (workspace / "debug.log").unlink()
    gone = snap.snapshot(round=1, step=1, call_id="rm")
    assert gone is not None and gone.changed_files == 1


def test_the_workspace_own_git_repository_is_untouched(workspace: Path, tmp_path: Path) -> None:
    _git(workspace, "init", "-q")
    _git(workspace, "add", "pkg/mod.py")
    _git(workspace, "commit", "-q", "-m", "agent's own commit")
    (workspace / ".gitattributes").write_text("*.txt text eol=lf\n*.py export-ignore\n")
    before = {p.relative_to(workspace): p.read_bytes() for p in (workspace / ".git").rglob("*")
              if p.is_file()}  # fmt: skip
    status = _git(workspace, "status", "--porcelain")
    snap = Snapshotter(workspace, tmp_path / "snapshots.git")
    event = snap.snapshot(round=1, step=0, call_id=None, force=True)
    (workspace / "pkg" / "mod.py").write_text("X = 3\n")
    assert snap.snapshot(round=1, step=1, call_id="c") is not None
    (workspace / "pkg" / "mod.py").write_text("X = 1\n")
    after = {p.relative_to(workspace): p.read_bytes() for p in (workspace / ".git").rglob("*")
             if p.is_file()}  # fmt: skip
    assert after == before
    assert _git(workspace, "status", "--porcelain") == status
    assert event is not None
    restored = tmp_path / "restored"
    restore_snapshot(tmp_path / "snapshots.git", event.commit, restored)
    assert not (restored / ".git").exists()
    # byte for byte, whatever the workspace's .gitattributes asks for (eol, export-ignore)
    assert (restored / "crlf.txt").read_bytes() == b"a\r\nb\r\n"
    assert (restored / "pkg" / "mod.py").read_text() == "X = 1\n"


def test_restore_round_trip_keeps_bytes_links_and_the_executable_bit(
    workspace: Path, tmp_path: Path
) -> None:
    snap = Snapshotter(workspace, tmp_path / "snapshots.git")
    first = snap.snapshot(round=1, step=0, call_id=None, force=True)
    original = _files(workspace)
    (workspace / "run.sh").chmod(0o644)  # only the mode changes: a new snapshot
    mode_only = snap.snapshot(round=1, step=1, call_id="chmod")
    assert mode_only is not None and mode_only.changed_files == 1
    assert first is not None
    restored = tmp_path / "restored"
    snap.restore(first.commit, restored)
    assert _files(restored) == original
    assert original["run.sh"][1] and original["link"] == ("pkg/mod.py", False)
    later = tmp_path / "later"
    snap.restore(mode_only.commit, later)
    assert not _files(later)["run.sh"][1]
    with pytest.raises(SnapshotError, match="not empty"):
        snap.restore(first.commit, restored)


def test_a_new_snapshotter_continues_the_chain(workspace: Path, tmp_path: Path) -> None:
    git_dir = tmp_path / "snapshots.git"
    first = Snapshotter(workspace, git_dir).snapshot(round=1, step=0, call_id=None, force=True)
    again = Snapshotter(workspace, git_dir)
    assert first is not None and again.last_commit == first.commit
    assert again.snapshot(round=1, step=1, call_id=None) is None


def test_concurrent_snapshots_are_serialised(workspace: Path, tmp_path: Path) -> None:
    snap = Snapshotter(workspace, tmp_path / "snapshots.git")
    snap.snapshot(round=1, step=0, call_id=None, force=True)
    events = []
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        try:
            for i in range(5):
                (workspace / f"t{k}-{i}.txt").write_text(f"{k} {i}\n")
                event = snap.snapshot(round=1, step=1 + k * 5 + i, call_id=f"{k}-{i}")
                if event is not None:
                    events.append(event)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # a file caught half-written by one snapshot is changed again in the next: >= 20
    assert all(e.changed_files >= 1 for e in events)
    assert sum(e.changed_files for e in events) >= 20
    final = snap.snapshot(round=1, step=99, call_id=None, force=True)
    assert final is not None
    restored = tmp_path / "restored"
    snap.restore(final.commit, restored)
    assert len(list(restored.glob("t*-*.txt"))) == 20
    chain = subprocess.run(
        ["git", "--git-dir", str(tmp_path / "snapshots.git"), "rev-list", SNAPSHOT_REF],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert len(chain) == len(events) + 2  # initial + every event + final, one linear chain


def test_file_names_that_are_not_utf8_or_need_quoting(workspace: Path, tmp_path: Path) -> None:
    raw = os.fsencode(workspace) + b"/caf\xe9 'x'.txt"
    with open(raw, "wb") as f:
        f.write(b"latin-1 name\n")
    (workspace / "sp ace\ttab.txt").write_text("t\n")
    snap = Snapshotter(workspace, tmp_path / "snapshots.git")
    event = snap.snapshot(round=1, step=0, call_id=None, force=True)
    assert event is not None and event.changed_files == 6
    restored = tmp_path / "restored"
    snap.restore(event.commit, restored)
    with open(os.fsencode(restored) + b"/caf\xe9 'x'.txt", "rb") as f:
        assert f.read() == b"latin-1 name\n"
    assert (restored / "sp ace\ttab.txt").read_text() == "t\n"
