"""Fixtures of the judges' tests: the stand-in checkers/detectors and an honest run folder."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from run_builder import RunBuilder
from stand_ins import registered


@pytest.fixture(autouse=True)
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with registered(monkeypatch):
        yield


@pytest.fixture(scope="session")
def honest_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An honest hybrid run (built once; copy it before editing)."""
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
        return RunBuilder(tmp_path / f"b{next(counter)}", **kw)

    return make
