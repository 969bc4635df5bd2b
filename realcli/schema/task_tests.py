"""How a task's test sets (F2P and P2P) run and are scored: ``[tests.f2p]`` and
``[tests.p2p]`` in ``task.toml``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from realcli.schema.base import Frozen
from realcli.schema.task_paths import bundle_relative, tests_mount_point

__all__ = ["TestSetSpec", "TestSets"]


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
    patch: str | None = Field(
        None,
        description="pytest location=workspace: a unified diff under tests/ (e.g. 'test.patch', "
        "SWE-bench's test_patch) applied with `git apply` to the grading copy before the ids run",
    )
    tests_mount: str | None = Field(
        None,
        description="score_file/text: an absolute path where the bundle's tests/ is also "
        "mounted read-only (e.g. '/tests', which LongCLI-Bench's run-tests.sh hard-codes); "
        "$TEST_DIR then points there",
    )

    @model_validator(mode="after")
    def _consistent(self) -> TestSetSpec:
        if self.parser != "pytest" and not (self.command and self.score_file):
            raise ValueError(f"a {self.parser} test set needs `command` and `score_file`")
        if self.parser == "pytest" and (self.command or self.score_file):
            raise ValueError("a pytest test set takes no `command` or `score_file`")
        if self.location == "workspace" and not self.ids:
            raise ValueError("a location='workspace' test set needs its `ids`")
        if self.location == "workspace" and self.parser != "pytest":
            raise ValueError("location='workspace' is for pytest test sets only")
        if self.patch is not None and self.location != "workspace":
            raise ValueError("`patch` is for location='workspace' test sets only")
        if self.tests_mount is not None and self.parser == "pytest":
            raise ValueError("`tests_mount` is for score_file/text test sets only")
        if self.score_file is not None:
            bundle_relative(self.score_file, "score_file", "name a file under the workdir")
        if self.patch is not None:
            bundle_relative(self.patch, "patch", "name a file under tests/, e.g. 'test.patch'")
        if self.tests_mount is not None:
            tests_mount_point(self.tests_mount)
        return self

    @property
    def bundle_pytest(self) -> bool:
        """The bundle's own ``tests/<set>/`` files under realcli's hardened pytest."""
        return self.parser == "pytest" and self.location == "bundle"


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
