"""TaskSpec: the validated form of a task bundle's ``task.toml``.

Its parts live beside it, one concern each, and are importable from here as before:
``task_paths`` (path rules), ``task_tests`` (test sets), ``task_deliverables`` (deliverables,
clauses, P1 atoms) and ``task_environment`` (Docker environment, display and GUI apps).
"""

from __future__ import annotations

import posixpath
import re
from enum import StrEnum
from typing import Literal

from pydantic import Field, field_validator, model_validator

from realcli.schema.atoms import ATOMS
from realcli.schema.base import Frozen
from realcli.schema.task_deliverables import Clause, Deliverable, P1Atom
from realcli.schema.task_environment import EnvironmentSpec, GuiApp, GuiSpec
from realcli.schema.task_paths import WORKDIR_ROOT, bundle_relative, checked_selector, path_error
from realcli.schema.task_tests import TestSets, TestSetSpec

__all__ = [
    "TASK_ID_PATTERN",
    "WORKDIR_ROOT",
    "Category",
    "Clause",
    "Deliverable",
    "Domain",
    "EnvironmentSpec",
    "GuiApp",
    "GuiSpec",
    "P1Atom",
    "Resources",
    "SubStep",
    "TaskKind",
    "TaskSpec",
    "TestSetSpec",
    "TestSets",
    "Timeouts",
    "bundle_relative",
]

TASK_ID_PATTERN = r"^[a-z0-9][a-z0-9._-]{1,63}$"
_ID_PATTERN = TASK_ID_PATTERN

_DAY_S = 86400.0


class TaskKind(StrEnum):
    longcli = "longcli"
    weave = "weave"


class Category(StrEnum):
    from_scratch = "from_scratch"
    feature = "feature"
    bugfix = "bugfix"
    refactor = "refactor"


class Domain(StrEnum):
    DSK = "DSK"
    DOC = "DOC"
    GAM = "GAM"
    WEB = "WEB"
    DAV = "DAV"
    OPS = "OPS"
    SPA = "SPA"
    DES = "DES"


class Timeouts(Frozen):
    agent_s: float = Field(
        900.0, gt=0, le=7 * _DAY_S, description="wall clock for the agent, whole process tree"
    )
    tests_s: float = Field(
        300.0, gt=0, le=_DAY_S, description="wall clock for one test set (F2P or P2P)"
    )
    setup_s: float = Field(
        120.0, gt=0, le=_DAY_S, description="wall clock for environment/setup.sh"
    )


class Resources(Frozen):
    memory_mb: int = Field(4096, ge=64, le=1_048_576, description="memory limit (up to 1 TiB)")
    cpu_seconds: int = Field(
        3600, ge=1, le=604_800, description="CPU-time limit per process (RLIMIT_CPU)"
    )
    max_file_mb: int = Field(
        1024, ge=1, le=1_048_576, description="largest file a process may write"
    )
    max_processes: int = Field(
        1024,
        ge=16,
        le=1_000_000,
        description="processes and threads of a whole sandbox together (cgroup pids.max)",
    )
    disk_mb: int = Field(
        4096,
        ge=16,
        le=1_048_576,
        description="the run's workspace, all files together (its own filesystem of this size)",
    )


class SubStep(Frozen):
    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    title: str
    tests: tuple[str, ...] = Field(
        min_length=1,
        description="pytest selectors relative to tests/: f2p/test_x.py or f2p/test_x.py::test_y",
    )
    weight: float = Field(1.0, gt=0)
    depends_on: tuple[str, ...] = ()
    guidance: str | None = Field(
        None,
        description="the hint a human collaborator gives for this sub-step (interactive "
        "protocols); never a test name or the reference code",
    )

    @field_validator("tests")
    @classmethod
    def _f2p_only(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for sel in v:
            if not sel.startswith("f2p/"):
                raise ValueError(f"sub-step test selector {sel!r} must start with 'f2p/'")
            checked_selector(sel, "test selector")
        return v


class TaskSpec(Frozen):
    schema_version: Literal[1] = 1
    id: str = Field(pattern=_ID_PATTERN)
    version: str = "1.0.0"
    kind: TaskKind = TaskKind.longcli
    category: Category
    domain: Domain | None = None
    title: str
    suites: tuple[str, ...] = Field(default=(), description="suites this task belongs to")
    instruction: str = Field("instruction.md", description="relative to the bundle")
    workdir: str = Field(
        WORKDIR_ROOT,
        description=f"{WORKDIR_ROOT} or a folder below it (normalised, no '..')",
    )
    timeouts: Timeouts = Timeouts()
    resources: Resources = Resources()
    interfaces: tuple[Literal["cli", "gui"], ...] = ("cli",)
    substeps: tuple[SubStep, ...] = Field(
        (),
        description="at least one for a bundle pytest F2P set; a score-file or "
        "location='workspace' F2P set may have none (its step score is then the set's own)",
    )
    tests: TestSets = Field(TestSets(), description="how the F2P and P2P sets run and score")
    environment: EnvironmentSpec = EnvironmentSpec()
    requires: tuple[str, ...] = Field(
        (),
        description="programs the task needs on PATH inside its sandbox (preflight: a missing "
        "one is an infra_error naming it, never a graded failure)",
    )
    deliverables: tuple[Deliverable, ...] = ()
    provenance: tuple[str, ...] = Field((), description="URLs of the real user problem")
    gui: GuiSpec | None = Field(None, description="the display and GUI apps (hybrid tasks)")
    p1_atoms: tuple[P1Atom, ...] = Field((), description="what only one channel can provide")
    atoms: tuple[str, ...] = Field(
        (),
        description="the catalogue atoms (realcli.schema.atoms: K1..S2, WeaveBench Table A1) the "
        "task's specification requires; coverage (any-side, non-universal, depth) is computed "
        "from them",
    )
    inputs: tuple[str, ...] = Field(
        (),
        description="glob patterns (relative to the workdir) of given input files the agent "
        "must use as they are: changing one is a regenerated fixture",
    )
    anchors: str | None = Field(
        None,
        description="hidden anchors for value checks: a JSON file under tests/ (never in the "
        "sandbox while the agent works), e.g. 'anchors.json'",
    )
    endpoints: tuple[str, ...] = Field(
        (),
        description="host:port endpoints the task's own services answer on (checked by "
        "tests): a listener the agent starts there is a mock service",
    )

    @field_validator("atoms")
    @classmethod
    def _known_atoms(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [a for a in v if a not in ATOMS]
        if unknown:
            raise ValueError(f"unknown atoms {unknown}: use ids from {', '.join(ATOMS)}")
        if len(set(v)) != len(v):
            raise ValueError(f"atoms {list(v)} lists an atom twice")
        return v

    @field_validator("anchors")
    @classmethod
    def _anchors_inside(cls, v: str | None) -> str | None:
        if v is None:
            return v
        return bundle_relative(v, "anchors", "name a JSON file under tests/, e.g. anchors.json")

    @field_validator("instruction")
    @classmethod
    def _instruction_inside(cls, v: str) -> str:
        return bundle_relative(
            v, "instruction", "name a file inside the bundle, e.g. 'instruction.md'"
        )

    @field_validator("workdir")
    @classmethod
    def _workdir_under_root(cls, v: str) -> str:
        fix = f"use {WORKDIR_ROOT!r} or a folder below it, e.g. '{WORKDIR_ROOT}/project'"
        if not re.fullmatch(r"/[A-Za-z0-9_./-]+", v):
            raise path_error(f"workdir {v!r} has characters other than letters, digits, _./-", fix)
        if posixpath.normpath(v) != v or "/../" in f"{v}/":
            raise path_error(f"workdir {v!r} is not a normalised path", fix)
        if v != WORKDIR_ROOT and not v.startswith(WORKDIR_ROOT + "/"):
            raise path_error(f"workdir {v!r} is outside {WORKDIR_ROOT}", fix)
        return v

    @model_validator(mode="after")
    def _check_dependencies(self) -> TaskSpec:
        ids = [s.id for s in self.substeps]
        if self.tests.f2p.bundle_pytest and not ids:
            raise ValueError("a task whose F2P set is pytest needs at least one [[substeps]]")
        if len(set(ids)) != len(ids):
            raise ValueError(f"duplicate sub-step ids in {ids}")
        known = set(ids)
        for s in self.substeps:
            for dep in s.depends_on:
                if dep not in known:
                    raise ValueError(f"sub-step {s.id!r} depends on unknown sub-step {dep!r}")
        if "gui" in self.interfaces and self.gui is None:
            raise ValueError("a task whose interfaces include 'gui' needs a [gui] section")
        cited = {a.atom for a in self.p1_atoms if a.atom is not None}
        missing = sorted(cited - set(self.atoms))
        if missing:
            raise ValueError(f"p1_atoms cite atoms {missing} that the atoms list does not name")
        return self
