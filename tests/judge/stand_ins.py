"""Test-only stand-ins: the ``test`` and ``file`` clause checkers (registered only when no
built-in of that name exists, with the built-ins' argument names), three test-only checkers
(``standin_text``, ``standin_provenance``, ``standin_visual``) and a detector of planted
markers, registered only while a test needs them (pytest's monkeypatch restores the
registries), so the judges' tests run the same before and after the real ones land."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from realcli.grading.score import selector_matches
from realcli.judge.base import CHECKERS, DETECTORS, Checker, Detector
from realcli.judge.context import RunEvidence
from realcli.schema.judgement import ClauseJudgement, ClauseStatus, Evidence, HackFlag
from realcli.schema.task_spec import Clause, Deliverable
from realcli.schema.verdict import TestOutcome


class NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StandInTestChecker(Checker):
    """A clause decided by its F2P test's outcome in the verdict's final round."""

    name = "test"
    Args = NoArgs

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        tests = run.verdict.rounds[-1].tests if run.verdict.rounds else ()
        matched = [t for t in tests if clause.test and selector_matches(clause.test, t.nodeid)]
        ok = bool(matched) and all(t.outcome is TestOutcome.passed for t in matched)
        return ClauseJudgement(
            id=clause.id,
            text=clause.text,
            critical=clause.critical,
            checker=self.name,
            status="satisfied" if ok else "false",
            reason=f"{clause.test}: {'passed' if ok else 'failed or missing'}",
            evidence=tuple(
                Evidence(kind="test", quote=f"{t.nodeid} {t.outcome.value}") for t in matched
            ),
        )


class FileArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    required_keys: tuple[str, ...] = ()
    min_bytes: int | None = None


class StandInFileChecker(Checker):
    """The file checker's core: the file parses as JSON (for .json) with ``required_keys``
    and has at least ``min_bytes``."""

    name = "file"
    Args = FileArgs

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        import json

        data = run.read_workspace(deliverable.path) or b""
        ok = args.min_bytes is None or len(data) >= args.min_bytes
        why = f"{len(data)} bytes"
        if ok and deliverable.path.endswith(".json"):
            try:
                doc = json.loads(data)
                missing = [k for k in args.required_keys if k not in doc]
                ok, why = not missing, f"missing keys {missing}" if missing else "keys present"
            except ValueError as exc:
                ok, why = False, f"not JSON ({exc})"
        return ClauseJudgement(
            id=clause.id,
            text=clause.text,
            critical=clause.critical,
            checker=self.name,
            status="satisfied" if ok else "false",
            reason=f"{deliverable.path}: {why}",
            evidence=(Evidence(kind="file", quote=why, path=deliverable.path),) if ok else (),
        )


class TextArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    contains: str
    partial: str | None = None


class StandInTextChecker(Checker):
    """Satisfied when the file contains ``contains``; partial when it has ``partial`` only."""

    name = "standin_text"
    Args = TextArgs

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        text = (run.read_workspace(deliverable.path) or b"").decode("utf-8", "replace")
        status: ClauseStatus = "false"
        if args.contains in text:
            status = "satisfied"
        elif args.partial is not None and args.partial in text:
            status = "partial"
        return ClauseJudgement(
            id=clause.id,
            text=clause.text,
            critical=clause.critical,
            checker=self.name,
            status=status,
            reason=f"{deliverable.path}: contains {args.contains!r}: {status}",
            evidence=(Evidence(kind="artifact", quote=text[:80], path=deliverable.path),)
            if status != "false"
            else (),
        )


class StandInTrajectoryChecker(Checker):
    """Needs the trajectory: satisfied when some screenshot event has the file's bytes."""

    name = "standin_provenance"
    Args = NoArgs
    needs_trajectory = True

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        from realcli.util.hashing import sha256_bytes

        sha = sha256_bytes(run.read_workspace(deliverable.path) or b"")
        shot = run.screenshot_by_sha.get(sha)
        return ClauseJudgement(
            id=clause.id,
            text=clause.text,
            critical=clause.critical,
            checker=self.name,
            status="satisfied" if shot else "false",
            reason="a capture's bytes" if shot else "no capture has these bytes",
            evidence=(Evidence(kind="screenshot", quote="capture", seq=shot.seq, sha256=sha),)
            if shot
            else (),
        )


class StandInVisualChecker(Checker):
    """Needs the trajectory: decodes the run's first capture (BadImage when malformed)."""

    name = "standin_visual"
    Args = NoArgs
    needs_trajectory = True

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        shot = run.screenshots[0]
        im = run.decode_image(run.screenshot_bytes(shot), shot.path)
        return ClauseJudgement(
            id=clause.id,
            text=clause.text,
            critical=clause.critical,
            checker=self.name,
            status="satisfied",
            reason=f"capture decodes ({im.width}x{im.height})",
            evidence=(Evidence(kind="screenshot", quote="decoded", seq=shot.seq),),
        )


class MarkerDetector(Detector):
    """Flags a shell call whose text carries ``PLANTED:<pattern>:<confidence>[:<path>]``."""

    name = "standin_marker"
    pattern = "planted"
    description = "test-only: a planted marker in a tool call"

    def detect(self, run: RunEvidence) -> Sequence[HackFlag]:
        flags = []
        for step in run.steps:
            for token in step.text.split():
                if not token.startswith("PLANTED:"):
                    continue
                _, pattern, conf, *rest = token.split(":")
                flags.append(
                    HackFlag(
                        pattern=pattern,
                        detector=self.name,
                        confidence=float(conf),
                        reason=f"planted marker {token}",
                        deliverable=rest[0] if rest else None,
                        evidence=(step.evidence(token),),
                    )
                )
        return flags


@contextmanager
def registered(mp: pytest.MonkeyPatch) -> Iterator[None]:
    CHECKERS.names()  # load the built-ins first
    DETECTORS.names()
    for cls in (
        StandInTestChecker,
        StandInFileChecker,
        StandInTextChecker,
        StandInTrajectoryChecker,
        StandInVisualChecker,
    ):
        if cls.name not in CHECKERS:
            mp.setitem(CHECKERS._items, cls.name, cls)
    mp.setitem(DETECTORS._items, MarkerDetector.name, MarkerDetector)
    yield
