"""What a task asks for and how it is checked: its deliverables, their clauses (each decided
by a named checker of the judge layer) and the P1 atoms only one channel can provide."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from realcli.schema.atoms import ATOMS
from realcli.schema.base import Frozen
from realcli.schema.task_paths import bundle_relative, checked_selector

__all__ = ["Clause", "Deliverable", "P1Atom"]


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
            checked_selector(v, "clause test")
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
