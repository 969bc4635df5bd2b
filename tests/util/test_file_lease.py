"""FileLease: one holder at a time across real processes, with and without flock (the
lease file alone, as on a file system without locks); a dead holder's lease is taken over at
once on its host, another host's only once its heartbeat is stale."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import time
from pathlib import Path

import pytest

from realcli.util.file_lease import FileLease, LeaseHeld, read_holder

ROUNDS = 40


def _contend(base: str, use_flock: bool, log: str, rounds: int) -> None:
    """Take the lease ``rounds`` times; inside, append enter/exit marks to ``log``."""
    done = 0
    while done < rounds:
        lease = FileLease(Path(base), use_flock=use_flock)
        try:
            lease.acquire()
        except LeaseHeld:
            time.sleep(0.001)
            continue
        try:
            with open(log, "a") as fh:
                fh.write(f"+{os.getpid()}\n")
            time.sleep(0.002)
            with open(log, "a") as fh:
                fh.write(f"-{os.getpid()}\n")
        finally:
            lease.release()
        done += 1


@pytest.mark.parametrize("use_flock", [True, False], ids=["flock+lease", "lease-only"])
def test_lease_excludes_across_processes(tmp_path: Path, use_flock: bool) -> None:
    log = tmp_path / "log.txt"
    ctx = mp.get_context("spawn")
    procs = [
        ctx.Process(target=_contend, args=(str(tmp_path / "k"), use_flock, str(log), ROUNDS))
        for _ in range(4)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    marks = log.read_text().split()
    assert len(marks) == 2 * 4 * ROUNDS  # nothing lost
    inside = None
    for mark in marks:  # strictly alternating enter/exit of one holder: never two at once
        if mark[0] == "+":
            assert inside is None, f"{mark} entered while {inside} held the lease"
            inside = mark[1:]
        else:
            assert inside == mark[1:]
            inside = None
    assert not (tmp_path / "k.lease").exists()


def _hold_forever(base: str, use_flock: bool) -> None:
    FileLease(Path(base), use_flock=use_flock).acquire()
    time.sleep(600)


@pytest.mark.parametrize("use_flock", [True, False], ids=["flock+lease", "lease-only"])
def test_dead_holder_on_this_host_is_taken_over_at_once(tmp_path: Path, use_flock: bool) -> None:
    base = tmp_path / "k"
    proc = mp.get_context("spawn").Process(target=_hold_forever, args=(str(base), use_flock))
    proc.start()
    deadline = time.monotonic() + 30
    while read_holder(base.with_name("k.lease"))[0] is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    with pytest.raises(LeaseHeld, match=f"pid {proc.pid}"):
        FileLease(base, use_flock=use_flock).acquire()
    assert proc.pid is not None
    os.kill(proc.pid, signal.SIGKILL)
    proc.join(10)
    lease = FileLease(base, use_flock=use_flock, stale_after_s=3600)
    lease.acquire()  # no heartbeat wait: its pid is gone
    holder, _ = read_holder(base.with_name("k.lease"))
    assert holder is not None and holder.pid == os.getpid()
    lease.release()


def _foreign_lease(path: Path, age_s: float) -> None:
    path.write_text(
        json.dumps(
            {
                "host": "node-elsewhere",
                "boot_id": "x",
                "pid": 1,
                "started": "1",
                "token": "feedfacefeedface",
                "acquired_at": time.time() - age_s,
            }
        )
    )
    os.utime(path, (time.time() - age_s, time.time() - age_s))


def test_other_host_lease_is_held_until_its_heartbeat_is_stale(tmp_path: Path) -> None:
    base = tmp_path / "k"
    _foreign_lease(base.with_name("k.lease"), age_s=5)
    with pytest.raises(LeaseHeld, match="node-elsewhere"):
        FileLease(base, stale_after_s=60).acquire()
    _foreign_lease(base.with_name("k.lease"), age_s=90)
    with FileLease(base, stale_after_s=60):
        holder, _ = read_holder(base.with_name("k.lease"))
        assert holder is not None and holder.host != "node-elsewhere"
    assert not base.with_name("k.lease").exists()
    assert not list(tmp_path.glob("k.lease.stale-*"))


def test_heartbeat_keeps_a_long_lease_fresh(tmp_path: Path) -> None:
    base = tmp_path / "k"
    with FileLease(base, heartbeat_s=0.1, stale_after_s=60):
        path = base.with_name("k.lease")
        os.utime(path, (time.time() - 50, time.time() - 50))
        time.sleep(0.4)
        _, age = read_holder(path)
        assert age is not None and age < 5


def test_lost_lease_is_reported(tmp_path: Path) -> None:
    base = tmp_path / "k"
    lost: list[str] = []
    lease = FileLease(base, heartbeat_s=0.05, on_lost=lost.append)
    lease.acquire()
    base.with_name("k.lease").unlink()  # as a takeover of a suspended holder would
    _foreign_lease(base.with_name("k.lease"), age_s=0)
    time.sleep(0.3)
    lease.release()
    assert lease.lost and "node-elsewhere" in lost[0]
    assert base.with_name("k.lease").exists()  # not ours: left alone
