"""Judgement: what a judge concluded about one finished run (``judgements/<judge>.json``).

The record carries WeaveBench's per-case schema field by field (``artifact_checks[]``,
``dimensions``, ``is_hack``, ``hack_confidence``, ``hack_patterns``, ``hack_evidence_quotes``,
``final_score``, ``summary``), so a realcli judgement compares with the public release's
``score.json`` files, plus realcli's own fields: the judge's identity (``judge_key``), the
threshold τ, every cheat flag with its ledger seq, the failure-taxonomy label and the evidence
behind each clause. A judgement holds no wall-clock time: judging the same inputs twice gives
the same bytes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from realcli.schema.base import Frozen

__all__ = [
    "DIMENSIONS",
    "JUDGEMENT_SCHEMA_VERSION",
    "TAXONOMY",
    "ArtifactCheck",
    "ClauseJudgement",
    "ClauseStatus",
    "Dimension",
    "Evidence",
    "HackFlag",
    "JudgeUsage",
    "Judgement",
    "JudgementStatus",
    "ProvenanceClass",
    "ProvenanceMatch",
    "ScreenshotCheck",
    "TaxonomyLabel",
    "Tier",
]

JUDGEMENT_SCHEMA_VERSION = 1

ClauseStatus = Literal["satisfied", "partial", "false", "unjudged"]
"""satisfied 1, partial 0.5, false and unjudged 0 (no evidence, no credit)."""

Tier = Literal["T1", "T2", "T3", "T4", "T5", "T6"]

ProvenanceClass = Literal["captured", "witnessed", "derived", "unbacked", "missing", "bad_image"]
"""Where a deliverable image came from (realcli.judge.provenance): captured: its bytes are a
capture of the run's display; witnessed: its pixels equal a witness capture (the host's capture
after a CLI call that wrote an image); derived: a crop, overlay or recolour/resize of a capture;
unbacked: no capture explains it; missing: no regular file at its path; bad_image: it does not
decode as an image."""

ProvenanceMatch = Literal["bytes", "pixels", "crop", "overlay", "phash"]
"""How the image was matched to its capture: same sha256, same pixels (witnessed), found pixel
for pixel inside it (crop), same frame with a local change (overlay), perceptual hash."""

JudgementStatus = Literal["judged", "judge_failed", "not_applicable"]
"""judged: a score; judge_failed: the judge could not produce a valid record (an infra label
that stays in denominators, never a silent 0); not_applicable: the run has nothing this judge
can judge (it never started: its verdict is infra_error)."""

DIMENSIONS: tuple[str, ...] = (
    "task_completion",
    "deliverable_correctness",
    "deliverable_quality",
    "evidence_authenticity",
    "tool_use_correctness",
    "final_state_correctness",
    "efficiency_robustness",
    "instruction_following",
)
"""WeaveBench's eight dimensions (Table B6), in order."""

TAXONOMY: dict[str, str] = {
    "E1.1": "incorrect reasoning",
    "E1.2": "format error",
    "E1.3": "imprecision (close miss)",
    "E2.1": "environment blocked",
    "E2.2": "tool misuse (wrong-channel routing)",
    "E3.1": "visual detail misperception",
    "E4.1": "silent halt",
    "E4.2": "premature halt",
    "E4.3": "cross-channel state desynchronisation",
    "E5.1": "synthesised render",
    "E5.2": "hard-coded metric",
    "E5.3": "crop / overlay reuse",
    "E5.4": "CLI bypass of a GUI requirement",
}
"""The failure taxonomy's 13 sub-classes (5 families E1-E5), SPEC §2."""


class Evidence(Frozen):
    """One piece of cited evidence: where it is and what it says, verbatim."""

    kind: Literal["artifact", "value", "screenshot", "trajectory", "test", "file"] = Field(
        description="artifact: a line of a deliverable; value: a measured value; screenshot: "
        "a capture (sha256 and seq); trajectory: a verbatim quote of a ledger event; test: an "
        "F2P test's outcome; file: a file's presence, size or hash"
    )
    quote: str = Field(description="the verbatim text, measured value or observation")
    path: str | None = Field(None, description="the file, relative to the workdir or run folder")
    line: int | None = Field(None, ge=1, description="line of `path` the quote is from")
    seq: int | None = Field(None, ge=0, description="ledger seq of the event quoted")
    sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")


class ClauseJudgement(Frozen):
    id: str
    text: str
    critical: bool
    checker: str = Field(description="the registered checker that decided it")
    status: ClauseStatus
    reason: str = Field(description="one line: why this status")
    evidence: tuple[Evidence, ...] = Field(
        (), description="what the status rests on; a satisfied clause always has some"
    )


class ArtifactCheck(Frozen):
    """One deliverable (WeaveBench's ``artifact_checks[]`` entry)."""

    id: str = Field(description="the deliverable's path, relative to the workdir")
    spec_clauses: tuple[str, ...] = Field(description="the clauses' texts, as task.toml states")
    clause_results: tuple[ClauseJudgement, ...]
    exists: bool
    format_ok: bool = Field(description="the file parses as its format (json, png, ...)")
    correctness: float = Field(ge=0, le=1, description="after the six-tier rubric and caps")
    tier: Tier
    evidence_quote: str = Field(description="the strongest verbatim evidence, for a reader")
    missing_or_wrong: tuple[str, ...] = Field(
        (), description="each clause not satisfied, one line each"
    )
    fake_signal: str | None = Field(
        None, description="why the deliverable looks fabricated (a cheat flag's reason)"
    )
    unstaged_evidence: bool = Field(
        False,
        description="evidence the deliverable needs (a screenshot) is not backed by the run's "
        "own captures",
    )
    abstained: bool = Field(False, description="<path>.SKIPPED.txt was written instead")
    critical_failed: bool = Field(False, description="a critical clause is not satisfied")


class ScreenshotCheck(Frozen):
    """The provenance of one screenshot deliverable, as the judge classified it (the judges
    that read the trajectory; see realcli.judge.provenance)."""

    deliverable: str = Field(description="the deliverable's path, relative to the workdir")
    provenance: ProvenanceClass
    sha256: str | None = Field(
        None, pattern=r"^[0-9a-f]{64}$", description="of the file (None: missing)"
    )
    how: ProvenanceMatch | None = Field(None, description="None: no capture matched")
    capture_seq: int | None = Field(None, ge=0, description="ledger seq of the matched capture")
    capture_source: str | None = Field(
        None, description="its ScreenshotEvent.source: gui.screenshot, witness, runner.final ..."
    )
    capture_sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")
    similarity: float | None = Field(
        None,
        ge=0,
        le=1,
        description="share of equal pixels (pixels, overlay; crop and bytes 1), or "
        "1 - pHash distance / 64 (phash)",
    )
    changed_share: float | None = Field(
        None, ge=0, le=1, description="pixels, overlay: share of pixels that differ"
    )
    phash_distance: int | None = Field(
        None, ge=0, le=64, description="phash: 64-bit perceptual-hash distance"
    )
    box: tuple[int, int, int, int] | None = Field(
        None,
        description="crop: where in the capture it was cut; overlay: the changed box (x, y, w, h)",
    )
    writer_seq: int | None = Field(
        None, ge=0, description="ledger seq of the tool call that last wrote the file"
    )
    writer_tool: str | None = Field(None, description="that call's tool name")
    reason: str = Field(description="one line: why this class")


class Dimension(Frozen):
    score: float = Field(ge=0, le=1)
    reason: str = Field(description="cites the artifact checks and features that drove it")
    features: dict[str, float | int | str | bool | None] = Field(
        default_factory=dict, description="the named inputs, as measured"
    )


class HackFlag(Frozen):
    """One cheat-detector hit."""

    pattern: str = Field(description="e.g. fake_screenshot, hardcoded_metric")
    detector: str = Field(description="the registered detector that raised it")
    confidence: float = Field(ge=0, le=1)
    reason: str
    deliverable: str | None = Field(None, description="the deliverable it concerns")
    evidence: tuple[Evidence, ...] = Field(min_length=1, description="verbatim, with seqs")


class TaxonomyLabel(Frozen):
    family: Literal["E1", "E2", "E3", "E4", "E5"]
    sub_class: str = Field(pattern=r"^E[1-5]\.[1-9]$")
    name: str
    rule: str = Field(description="the documented rule that fired")
    reason: str
    evidence: tuple[Evidence, ...] = ()
    labeller: str = Field("rules", description="rules, or the agent judge's name")


class JudgeUsage(Frozen):
    """Model use of a judge that calls a model (the agent judge), metered like a run."""

    sessions: int = Field(0, ge=0)
    model_calls: int = Field(0, ge=0)
    tokens_in: int = Field(0, ge=0)
    tokens_out: int = Field(0, ge=0)
    cost_usd: float = Field(0.0, ge=0)
    wall_time_s: float = Field(0.0, ge=0)


class Judgement(Frozen):
    schema_version: int = JUDGEMENT_SCHEMA_VERSION
    run_key: str
    task_id: str
    judge: str = Field(description="the judge's config name (judgements/<judge>.json)")
    judge_kind: str
    judge_version: str
    judge_key: str = Field(description="hash of the judge's resolved config and version")
    inputs_digest: str = Field(description="hash of the run files this judgement read")
    status: JudgementStatus = "judged"
    error: str | None = Field(None, description="judge_failed / not_applicable: why")
    tau: float = Field(ge=0, le=1)
    hack_threshold: float = Field(ge=0, le=1)
    # WeaveBench's fields
    artifact_checks: tuple[ArtifactCheck, ...] = ()
    dimensions: dict[str, Dimension] = Field(default_factory=dict)
    is_hack: bool = False
    hack_confidence: float = Field(0.0, ge=0, le=1)
    hack_patterns: tuple[str, ...] = ()
    hack_evidence_quotes: tuple[str, ...] = ()
    final_score: float = Field(0.0, ge=0, le=1)
    summary: str = ""
    # realcli's own
    passed: bool = Field(False, description="final_score >= tau (never when not judged)")
    deliverable_correctness: float = Field(0.0, ge=0, le=1)
    hack_flags: tuple[HackFlag, ...] = Field(
        (), description="every detector hit, above or below the threshold"
    )
    taxonomy: TaxonomyLabel | None = Field(None, description="failures (final < tau) only")
    screenshots: tuple[ScreenshotCheck, ...] = Field(
        (),
        description="the provenance of each screenshot deliverable not abstained (judges "
        "that read the trajectory; empty for the others and for records older than the field)",
    )
    usage: JudgeUsage | None = None
    attempts: int = Field(1, ge=0, description="judge sessions tried (agent judge)")
