"""Constants and small helpers shared by the overhead benchmark's modules."""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "bench" / "out"
BEGIN = "<!-- bench/overhead.py:begin (generated: edit bench/overhead.py, not this part) -->"
END = "<!-- bench/overhead.py:end -->"
TARGET_RATIO = 1.3
TARGET_RERUN = 0.10
TESTS_MOUNT = ".realcli_tests"
PYTHON = str(Path(sys.prefix) / "bin" / "python")  # what `python` is inside the sandbox too
REALCLI = str(Path(sys.prefix) / "bin" / "realcli")


# --------------------------------------------------------------------------- small helpers
def median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else math.nan


def geomean(xs: Sequence[float]) -> float:
    return math.exp(statistics.fmean(math.log(x) for x in xs)) if xs else math.nan


def run_quiet(argv: Sequence[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, check=False, **kw)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def ts(value: str) -> float:
    """A ledger timestamp (ISO 8601, UTC) as POSIX seconds."""
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


@contextlib.contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def machine() -> dict[str, Any]:
    sha = run_quiet(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT).stdout.strip()
    status = run_quiet(["git", "status", "--porcelain"], cwd=ROOT).stdout.splitlines()
    ours = ("bench/", "docs/benchmarks.md")  # this benchmark's own files do not count
    dirty = [line[3:] for line in status if not line[3:].startswith(ours)]
    bwrap = run_quiet(["bwrap", "--version"]).stdout.strip()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "git_sha": sha + (f" (+ uncommitted changes in {len(dirty)} files)" if dirty else ""),
        "dirty_files": dirty,
        "bwrap": bwrap,
        "loadavg_start": os.getloadavg(),
    }
