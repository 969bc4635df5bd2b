"""Fixtures for the judge tests: fresh copies of the session's replay of a hybrid task
(``lightsout_replay``, tests/conftest.py) that a test may edit (plant a cheat, break a file);
small constructed run folders (tests/judge/run_builder.py) and the test-only stand-in checkers
and detectors."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.judge.run_builder import RunBuilder
from tests.judge.stand_ins import registered


@pytest.fixture
def replay_copy(lightsout_replay: Path, tmp_path: Path) -> Path:
    """A copy of the replay run folder under runs/<experiment>/<key>/ that a test may edit,
    without the judgements `realcli run` wrote."""
    dest = tmp_path / "runs" / "default" / lightsout_replay.name
    shutil.copytree(lightsout_replay, dest, symlinks=True)
    shutil.rmtree(dest / "judgements", ignore_errors=True)  # judged at run time
    return dest


@pytest.fixture
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test-only checkers and detector (tests/judge/stand_ins.py), for this test only."""
    with registered(monkeypatch):
        yield


@pytest.fixture(scope="session")
def honest_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small constructed honest hybrid run (built once; copy it before editing)."""
    return RunBuilder(tmp_path_factory.mktemp("honest")).honest().finish()


@pytest.fixture
def copy_run(tmp_path: Path) -> Callable[[Path], Path]:
    def copy(src: Path) -> Path:
        dest = tmp_path / "copy" / src.name
        shutil.copytree(src, dest, symlinks=True)
        return dest

    return copy


@pytest.fixture
def build(tmp_path: Path) -> Callable[..., RunBuilder]:
    counter = iter(range(1000))

    def make(**kw: object) -> RunBuilder:
        return RunBuilder(tmp_path / f"b{next(counter)}", **kw)  # type: ignore[arg-type]

    return make
