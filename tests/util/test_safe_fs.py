"""realcli.util.safe_fs: no link below the root is ever followed, no special file is ever
opened, and a link swapped in while the host reads (a race) is never read through."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from realcli.util.safe_fs import (
    NotARegularFile,
    Skipped,
    copy_tree,
    lstat_under,
    read_bytes_under,
    remove_links,
    special_files,
    write_bytes_under,
)
from tests.conftest import make_socket_file

SECRET = b"host-secret-bytes"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """An agent's tree: files, a folder, links out (absolute, relative, to a folder), a FIFO
    and a socket; the host secret lives outside it."""
    (tmp_path / "secret.txt").write_bytes(SECRET)
    root = tmp_path / "root"
    (root / "pkg").mkdir(parents=True)
    (root / "a.txt").write_text("hello")
    (root / "pkg" / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(root / "pkg" / "run.sh", 0o755)
    os.symlink(tmp_path / "secret.txt", root / "abs")
    os.symlink("../secret.txt", root / "rel")
    os.symlink(tmp_path, root / "pkg" / "out")
    os.mkfifo(root / "pipe")
    make_socket_file(root / "pkg" / "sock")
    return root


def test_copy_keeps_links_as_links_and_leaves_special_files_out(tree: Path, tmp_path: Path) -> None:
    dest = tmp_path / "copy"
    skipped = copy_tree(tree, dest)
    assert skipped == [Skipped("pipe", "fifo"), Skipped("pkg/sock", "socket")]
    assert (dest / "a.txt").read_text() == "hello"
    assert stat.S_IMODE((dest / "pkg" / "run.sh").stat().st_mode) == 0o755
    assert os.readlink(dest / "abs") == str(tmp_path / "secret.txt")
    assert os.readlink(dest / "rel") == "../secret.txt"
    assert (dest / "pkg" / "out").is_symlink()
    assert not (dest / "pipe").exists() and not (dest / "pkg" / "sock").exists()
    no_links = copy_tree(tree, tmp_path / "copy2", symlinks="skip")
    assert {s.path for s in no_links} == {"abs", "rel", "pkg/out", "pipe", "pkg/sock"}


@pytest.mark.parametrize(
    ("rel", "kind"),
    [("abs", "symlink"), ("rel", "symlink"), ("pkg/out/secret.txt", "symlink"),
     ("pipe", "fifo"), ("pkg/sock", "socket"), ("a.txt/x", "other")],
)  # fmt: skip
def test_read_refuses_links_and_special_files(tree: Path, rel: str, kind: str) -> None:
    with pytest.raises(NotARegularFile) as caught:
        read_bytes_under(tree, rel)
    assert caught.value.skipped.kind == kind
    assert read_bytes_under(tree, "a.txt") == b"hello"
    with pytest.raises(NotARegularFile):
        read_bytes_under(tree, "a.txt", max_bytes=2)
    with pytest.raises(ValueError):
        read_bytes_under(tree, "../secret.txt")


def test_write_replaces_a_link_and_never_writes_through_one(tree: Path, tmp_path: Path) -> None:
    write_bytes_under(tree, "abs", b"png")
    assert (tmp_path / "secret.txt").read_bytes() == SECRET
    assert not (tree / "abs").is_symlink() and (tree / "abs").read_bytes() == b"png"
    with pytest.raises(NotARegularFile):
        write_bytes_under(tree, "pkg/out/secret.txt", b"png")
    assert (tmp_path / "secret.txt").read_bytes() == SECRET
    write_bytes_under(tree, "new/deep/shot.png", b"p")
    assert (tree / "new" / "deep" / "shot.png").read_bytes() == b"p"


def test_scan_lstat_and_remove_links(tree: Path, tmp_path: Path) -> None:
    assert special_files(tree) == [Skipped("pipe", "fifo"), Skipped("pkg/sock", "socket")]
    st = lstat_under(tree, "abs")
    assert st is not None and stat.S_ISLNK(st.st_mode)
    assert lstat_under(tree, "pkg/out/secret.txt") is None
    removed = remove_links(tree)
    assert {s.path for s in removed} == {"abs", "rel", "pkg/out", "pipe", "pkg/sock"}
    assert sorted(p.name for p in tree.rglob("*")) == ["a.txt", "pkg", "run.sh"]
    assert (tmp_path / "secret.txt").read_bytes() == SECRET


def test_a_link_swapped_in_during_reads_is_never_followed(tmp_path: Path) -> None:
    """A racing agent flips ``f`` between a regular file and a link to the secret (atomic
    renames) while the host reads and copies it: every read gets the file or refuses."""
    (tmp_path / "secret.txt").write_bytes(SECRET)
    root = tmp_path / "root"
    root.mkdir()
    stop = threading.Event()

    def flip() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            tmp = root / f".t{n}"
            if n % 2:
                os.symlink(tmp_path / "secret.txt", tmp)
            else:
                tmp.write_bytes(b"honest")
            os.replace(tmp, root / "f")

    flipper = threading.Thread(target=flip, daemon=True)
    flipper.start()
    seen: set[bytes] = set()
    try:
        for i in range(1500):
            try:
                seen.add(read_bytes_under(root, "f"))
            except (NotARegularFile, FileNotFoundError):
                seen.add(b"refused")
            if i % 100 == 0:
                copy = tmp_path / f"copy{i}"
                copy_tree(root, copy)
                for path in copy.rglob("*"):
                    if not path.is_symlink():
                        assert path.read_bytes() != SECRET
    finally:
        stop.set()
        flipper.join()
    assert SECRET not in seen
    assert b"honest" in seen and b"refused" in seen
