"""TaskSpec: the validated form of a task bundle's ``task.toml``."""

from __future__ import annotations

import posixpath
import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from realcli.schema.atoms import ATOMS
from realcli.schema.base import Frozen

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

WORKDIR_ROOT = "/app"
"""Every task's workdir is this folder or one below it: the sandbox mounts realcli's own
files elsewhere (/run/realcli, /tmp, /usr...), and a workdir there would shadow them."""

_DAY_S = 86400.0


def _path_error(problem: str, fix: str) -> PydanticCustomError:
    """A validation error whose ``fix`` the one-line message uses (see util.validation)."""
    return PydanticCustomError("bundle_path", "{problem}", {"problem": problem, "fix": fix})


def bundle_relative(value: str, what: str, fix: str) -> str:
    """``value`` as a plain relative path that stays inside the folder it is relative to: not
    empty, not absolute, no ``..`` part, no ``.``/empty part, no backslash or NUL."""
    parts = value.split("/")
    if not value or value.startswith("/"):
        raise _path_error(f"{what} {value!r} must be a relative path", fix)
    if "\\" in value or "\0" in value or any(p in ("", ".", "..") for p in parts):
        raise _path_error(f"{what} {value!r} must stay inside (no '..', '.', '//')", fix)
    return value


def _selector(value: str, what: str) -> str:
    file_part = value.split("::", 1)[0]
    bundle_relative(file_part, what, "use a path under tests/f2p/, e.g. 'f2p/test_x.py::test_y'")
    return value


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
            _selector(sel, "test selector")
        return v


class Clause(Frozen):
    """One atomic, checkable requirement of a deliverable, decided by a named checker of the
    judge layer (``realcli.judge.checkers``): an F2P test, a file/format/schema check, a value
    check against hidden anchors, a screenshot-provenance check, a visual check of a genuine
    capture, or ``unjudged`` when no program can decide it (then only the agent judge can)."""

    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    text: str = Field(description="the requirement, as the rubric states it")
    critical: bool = Field(False, description="a failed critical clause fails the deliverable")
    test: str | None = Field(
        None, description="the F2P selector that decides it (f2p/...); None: needs a judge"
    )
    checker: str | None = Field(
        None,
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="registered clause checker (test, file, value, provenance, visual, "
        "unjudged); default: test when `test` is set, else unjudged",
    )
    args: dict[str, Any] = Field(
        default_factory=dict, description="the checker's parameters (validated by the checker)"
    )
    channel: Literal["cli", "gui"] | None = Field(
        None,
        description="the channel this clause must be achieved through (gui: doing it on the "
        "CLI side instead is a CLI bypass of a GUI requirement)",
    )

    @property
    def checker_name(self) -> str:
        if self.checker is not None:
            return self.checker
        return "test" if self.test is not None else "unjudged"

    @field_validator("test")
    @classmethod
    def _f2p(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith("f2p/"):
            raise ValueError(f"clause test {v!r} must be an F2P selector (start with 'f2p/')")
        if v is not None:
            _selector(v, "clause test")
        return v


class Deliverable(Frozen):
    path: str = Field(description="relative to the workdir")
    kind: str = Field("file", description="file, image, screenshot, report, ...")
    description: str = ""
    clauses: tuple[Clause, ...] = ()
    evidence: Literal["none", "screenshot"] = Field(
        "none",
        description="screenshot: the deliverable is (or includes) a screenshot that must come "
        "from the run's display (its sha256 is in the ledger's screenshot events)",
    )
    format: str | None = Field(
        None,
        pattern=r"^[a-z0-9]+$",
        description="the file format the format check parses (json, png, csv, text, svg, "
        "toml, ...); default: from the path's suffix",
    )
    metrics: tuple[str, ...] = Field(
        (),
        description="numbers in this deliverable that must come from a computation in the "
        "trajectory (the hard-coded metric detector checks them): JSON pointers (RFC 6901) "
        "for JSON files, or 're:<regex>' whose first group is the number (text files)",
    )

    @field_validator("path")
    @classmethod
    def _inside_workspace(cls, v: str) -> str:
        return bundle_relative(
            v, "deliverable path", "name a file inside the workspace, relative to the workdir"
        )


class P1Atom(Frozen):
    """Something the task needs that only one channel can provide (WeaveBench P1)."""

    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    channel: Literal["cli", "gui"]
    text: str
    atom: str | None = Field(
        None, description="the catalogue atom (realcli.schema.atoms, e.g. 'V2') this requirement is"
    )

    @field_validator("atom")
    @classmethod
    def _known_atom(cls, v: str | None) -> str | None:
        if v is not None and v not in ATOMS:
            raise ValueError(f"unknown atom {v!r}: use one of {', '.join(ATOMS)}")
        return v


class GuiApp(Frozen):
    """A GUI application the task starts on the run's display, in a sandbox of its own that
    shares only the display (its files stay out of the agent's reach)."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    argv: tuple[str, ...] = Field(min_length=1, description="command; {app} = its files dir")
    window: str = Field(description="window title to wait for (xdotool search --name)")
    files: str | None = Field(
        None, description="folder under environment/ mounted read-only at /run/realcli/app"
    )
    workspace: bool = Field(
        False,
        description="mount the agent's workspace read-only at /run/realcli/workspace in the "
        "app's sandbox, so the app can reflect what the agent did on the CLI side",
    )

    @field_validator("files")
    @classmethod
    def _inside_environment(cls, v: str | None) -> str | None:
        if v is None:
            return v
        return bundle_relative(v, "gui app files", "name a folder under environment/, e.g. gui_app")


class GuiSpec(Frozen):
    width: int = Field(1280, ge=320, le=7680)
    height: int = Field(800, ge=240, le=4320)
    apps: tuple[GuiApp, ...] = ()


class TestSetSpec(Frozen):
    """How one test set (F2P or P2P) runs and is scored.

    ``pytest`` (the default): the bundle's ``tests/<set>/`` files run under realcli's guarded
    pytest; each test is a result and sub-steps group them. ``score_file``: ``command`` runs in
    a fresh copy of the workspace (the bundle's ``tests/`` mounted read-only at
    ``<workdir>/.realcli_tests``) and writes ``score_file`` (JSON ``{"obtained": x, "max": y}``);
    the set's step score is ``(obtained - initial) / (max - initial)`` with ``initial`` the
    score of the task's initial state (recorded by ``tasks check``). ``text``: LongCLI-Bench's
    run-tests.sh convention: ``command`` writes ``<set>_output.txt`` and the task's parser
    script turns it into ``score_file`` (``{"is_pass": 0|1, "step_score": s}``, already
    normalised by the task).
    """

    __test__ = False
    parser: Literal["pytest", "score_file", "text"] = "pytest"
    command: str | None = Field(
        None,
        description="score_file/text: the shell command that grades (run with `sh -c` from "
        "the workdir; $TEST_DIR is the read-only tests mount)",
    )
    score_file: str | None = Field(
        None,
        description="score_file/text: the JSON file the command writes, relative to the "
        "workdir (e.g. 'test_output/f2p_score.json')",
    )
    max_score: float | None = Field(
        None, gt=0, description="score_file: the maximum when the score file gives none"
    )
    initial_score: float | None = Field(
        None,
        ge=0,
        description="score_file: the initial state's score (written by `tasks check`); None: 0",
    )
    location: Literal["bundle", "workspace"] = Field(
        "bundle",
        description="pytest: run the bundle's tests/<set>/ files (bundle) or test ids of the "
        "repository's own test suite inside the workspace, with its own conftest (workspace; "
        "SWE-bench's FAIL_TO_PASS / PASS_TO_PASS)",
    )
    ids: tuple[str, ...] = Field(
        (), description="pytest location=workspace: the node ids, relative to the workdir"
    )

    @model_validator(mode="after")
    def _consistent(self) -> TestSetSpec:
        if self.parser != "pytest" and not (self.command and self.score_file):
            raise ValueError(f"a {self.parser} test set needs `command` and `score_file`")
        if self.parser == "pytest" and (self.command or self.score_file):
            raise ValueError("a pytest test set takes no `command` or `score_file`")
        if self.location == "workspace" and not self.ids:
            raise ValueError("a location='workspace' test set needs its `ids`")
        if self.score_file is not None:
            bundle_relative(self.score_file, "score_file", "name a file under the workdir")
        return self


class TestSets(Frozen):
    """The task's two test sets; ``p2p = false`` in task.toml (None here): the task has no
    P2P set (LongCLI-Bench's null ``parser_results_p2p``), which ``tasks check`` flags."""

    __test__ = False
    f2p: TestSetSpec = TestSetSpec()
    p2p: TestSetSpec | None = TestSetSpec()

    @field_validator("p2p", mode="before")
    @classmethod
    def _false_is_none(cls, v: Any) -> Any:
        return None if v is False else v


class EnvironmentSpec(Frozen):
    """What ``sandbox=docker`` runs the task in (``sandbox=local`` ignores it)."""

    dockerfile: str | None = Field(
        None,
        description="the task's Dockerfile, relative to the bundle (its folder is the build "
        "context), e.g. 'environment/Dockerfile'; None: realcli's base image",
    )
    image: str | None = Field(
        None, description="a local image name to run in instead of building the Dockerfile"
    )

    @field_validator("dockerfile")
    @classmethod
    def _inside(cls, v: str | None) -> str | None:
        if v is None:
            return v
        return bundle_relative(v, "dockerfile", "name a file inside the bundle")


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
        (), description="at least one for a pytest F2P set; a score-file F2P set has none"
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
            raise _path_error(f"workdir {v!r} has characters other than letters, digits, _./-", fix)
        if posixpath.normpath(v) != v or "/../" in f"{v}/":
            raise _path_error(f"workdir {v!r} is not a normalised path", fix)
        if v != WORKDIR_ROOT and not v.startswith(WORKDIR_ROOT + "/"):
            raise _path_error(f"workdir {v!r} is outside {WORKDIR_ROOT}", fix)
        return v

    @model_validator(mode="after")
    def _check_dependencies(self) -> TaskSpec:
        ids = [s.id for s in self.substeps]
        if self.tests.f2p.parser == "pytest" and not ids:
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
