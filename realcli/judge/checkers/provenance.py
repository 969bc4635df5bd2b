"""``checker = "provenance"``: the deliverable image is a genuine capture of the run's
display (:func:`realcli.judge.provenance.classify`): the bytes of a GUI-service screenshot,
or the pixels of the host's witness capture right after the shell call that wrote it."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from realcli.judge.base import CHECKERS
from realcli.judge.checkers.common import ClauseChecker, judgement
from realcli.judge.context import RunEvidence
from realcli.judge.provenance import Provenance, classify
from realcli.schema.base import Frozen
from realcli.schema.judgement import ClauseJudgement, ClauseStatus, Evidence
from realcli.schema.task_spec import Clause, Deliverable

__all__ = ["ProvenanceArgs", "ProvenanceChecker", "shot_evidence"]


class ProvenanceArgs(Frozen):
    allow_crop: bool = Field(
        False, description="a crop/resize/recolour of a genuine capture (derived) satisfies it"
    )


def shot_evidence(run: RunEvidence, rel: str) -> tuple[str, tuple[Evidence, ...], Provenance]:
    """(status, evidence, provenance) of the workspace image ``rel``."""
    prov = classify(run, rel)
    evidence = tuple(prov.evidence)
    shot = prov.shot
    if shot is not None and not any(e.kind == "screenshot" for e in evidence):
        evidence = (
            Evidence(
                kind="screenshot",
                quote=f"{shot.source} capture {shot.width}x{shot.height} ({shot.path})",
                path=shot.path,
                seq=shot.seq,
                sha256=shot.sha256,
            ),
            *evidence,
        )
    return str(prov.status), evidence, prov


@CHECKERS.register("provenance")
class ProvenanceChecker(ClauseChecker):
    """genuine (captured or witnessed): satisfied, citing the capture's sha256 and seq;
    derived: partial (satisfied with ``allow_crop``); unbacked, missing, bad image: false."""

    name = "provenance"
    Args = ProvenanceArgs
    needs_trajectory = True

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        status, evidence, prov = shot_evidence(run, deliverable.path)
        detail = f"{deliverable.path}: {status} ({prov.detail})"
        if prov.genuine:
            return judgement(clause, self.name, "satisfied", detail, evidence)
        if status == "derived":
            verdict: ClauseStatus = "satisfied" if args.allow_crop else "partial"
            return judgement(clause, self.name, verdict, detail, evidence)
        return judgement(clause, self.name, "false", detail, evidence)
