"""The deliverable facts of a judged run (clause results, formats, paths, abstentions) and
the dimensions they decide, shared by the trajectory and the outcome-only judge; the
one-paragraph summary of a judgement.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from realcli.grading.deliverables import SKIPPED_SUFFIX
from realcli.judge.artifacts import DeliverableState
from realcli.judge.context import RunEvidence
from realcli.judge.rubric import clause_credit
from realcli.schema.judgement import ArtifactCheck, Dimension, HackFlag

__all__ = [
    "DeliverableFacts",
    "check_ids",
    "deliverable_dimensions",
    "deliverable_facts",
    "make_dimension",
    "mean_score",
    "summarise",
]


def check_ids(checks: Sequence[ArtifactCheck]) -> str:
    return ", ".join(c.id for c in checks) if checks else "none"


def mean_score(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 1.0


def make_dimension(
    score: float, reason: str, **features: float | int | str | bool | None
) -> Dimension:
    rounded = {k: round(v, 4) if isinstance(v, float) else v for k, v in sorted(features.items())}
    return Dimension(score=round(min(1.0, max(0.0, score)), 4), reason=reason, features=rounded)


@dataclass(frozen=True)
class DeliverableFacts:
    """What the deliverable-only dimensions read (both judges)."""

    checks: tuple[ArtifactCheck, ...]
    states: tuple[DeliverableState, ...]
    misplaced: tuple[str, ...] = ()
    improper_skips: tuple[str, ...] = ()
    skip_files: int = 0
    f2p_step: float = 0.0
    p2p_step: float = 0.0
    p2p_total: int = 0

    @property
    def present(self) -> tuple[ArtifactCheck, ...]:
        return tuple(c for c in self.checks if c.exists and not c.abstained)


def _workspace_files(run: RunEvidence) -> list[str]:
    """Every regular file of the workspace, relative and sorted (links are not followed,
    ``.git`` is skipped)."""
    ws = run.workspace
    if ws is None:
        return []
    out = []
    for root, dirs, files in os.walk(ws, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        base = Path(root)
        for name in files:
            p = base / name
            if not p.is_symlink() and p.is_file():
                out.append(p.relative_to(ws).as_posix())
    return sorted(out)


def deliverable_facts(
    run: RunEvidence, checks: tuple[ArtifactCheck, ...], states: tuple[DeliverableState, ...]
) -> DeliverableFacts:
    declared = {d.path for d in run.task.deliverables}
    files = _workspace_files(run)
    names: dict[str, list[str]] = {}
    for rel in files:
        names.setdefault(rel.rsplit("/", 1)[-1], []).append(rel)
    misplaced = []
    for d, st in zip(run.task.deliverables, states, strict=True):
        if not st.exists and not st.abstained:
            elsewhere = [p for p in names.get(d.path.rsplit("/", 1)[-1], []) if p != d.path]
            if elsewhere:
                misplaced.append(f"{d.path} (found at {elsewhere[0]})")
    skips = [p for p in files if p.endswith(SKIPPED_SUFFIX)]
    improper = []
    for p in skips:
        target = p[: -len(SKIPPED_SUFFIX)]
        if target not in declared:
            improper.append(f"{p}: names no declared deliverable")
        elif run.exists(target):
            improper.append(f"{p}: the deliverable is present too")
        elif not (run.read_workspace(p, limit=1024 * 1024) or b"").strip():
            improper.append(f"{p}: empty (no reason given)")
    v = run.verdict
    last = v.rounds[-1] if v.rounds else None
    return DeliverableFacts(
        checks=checks,
        states=states,
        misplaced=tuple(misplaced),
        improper_skips=tuple(improper),
        skip_files=len(skips),
        f2p_step=v.f2p_step,
        p2p_step=v.p2p_step or 0.0,
        p2p_total=last.p2p.total if last and last.p2p else 0,
    )


def deliverable_dimensions(facts: DeliverableFacts, *, outcome_only: bool) -> dict[str, Dimension]:
    """The dimensions computable from the deliverables and the test outcome alone:
    task_completion, deliverable_correctness, deliverable_quality, final_state_correctness
    (P2P part) and instruction_following (paths and abstention part)."""
    checks, present = facts.checks, facts.present
    n = len(checks)
    abstained = tuple(c for c in checks if c.abstained)
    missing = tuple(c for c in checks if not c.exists and not c.abstained)
    only = " (outcome only: from the deliverables and tests alone)" if outcome_only else ""
    dims: dict[str, Dimension] = {}

    present_share = len(present) / n if n else facts.f2p_step
    dims["task_completion"] = make_dimension(
        mean_score([present_share, facts.f2p_step]),
        f"present {len(present)}/{n} ({check_ids(present)}); abstained {check_ids(abstained)};"
        f" missing {check_ids(missing)}; F2P step {facts.f2p_step:.2f}{only}",
        deliverables=n,
        present=len(present),
        abstained=len(abstained),
        missing=len(missing),
        present_share=present_share,
        f2p_step=facts.f2p_step,
    )

    dc = sum(c.correctness for c in checks) / n if n else facts.f2p_step
    per = "; ".join(f"{c.id} {c.correctness:.2f} {c.tier}" for c in checks) or "no deliverables"
    dims["deliverable_correctness"] = make_dimension(
        dc,
        f"mean clause-rubric correctness: {per}"
        + ("" if n else f" (F2P step {facts.f2p_step:.2f})")
        + only,
        mean_correctness=dc,
        critical_failed=sum(c.critical_failed for c in checks),
        deliverables=n,
    )

    fmt_ok = sum(c.format_ok for c in present)
    noncrit = [r for c in present for r in c.clause_results if not r.critical]
    credit = sum(clause_credit(r.status) for r in noncrit)
    parts = [fmt_ok / len(present)] if present else []
    if present and noncrit:
        parts.append(credit / len(noncrit))
    bad_fmt = tuple(c for c in present if not c.format_ok)
    dims["deliverable_quality"] = make_dimension(
        mean_score(parts) if present else 0.0,
        f"format ok {fmt_ok}/{len(present)} present (not ok: {check_ids(bad_fmt)}); non-critical "
        f"clauses credit {credit:g}/{len(noncrit)}{only}",
        format_ok=fmt_ok,
        present=len(present),
        noncritical_clauses=len(noncrit),
        noncritical_credit=credit,
    )

    fs_parts = [facts.p2p_step] if facts.p2p_total else []
    dims["final_state_correctness"] = make_dimension(
        mean_score(fs_parts),
        f"P2P step {facts.p2p_step:.2f} over {facts.p2p_total} tests{only}",
        p2p_step=facts.p2p_step,
        p2p_total=facts.p2p_total,
    )

    path_share = 1 - len(facts.misplaced) / n if n else 1.0
    good_skips = facts.skip_files - len(facts.improper_skips)
    skip_share = good_skips / facts.skip_files if facts.skip_files else 1.0
    dims["instruction_following"] = make_dimension(
        mean_score([path_share, skip_share]),
        f"misplaced: {', '.join(facts.misplaced) or 'none'}; abstentions proper "
        f"{good_skips}/{facts.skip_files} ({'; '.join(facts.improper_skips) or 'all proper'})"
        f"{only}",
        path_share=path_share,
        misplaced=len(facts.misplaced),
        skip_files=facts.skip_files,
        proper_skips=good_skips,
    )
    return dims


def summarise(
    run: RunEvidence,
    checks: Sequence[ArtifactCheck],
    dims: dict[str, Dimension],
    *,
    final: float,
    tau: float,
    hits: Sequence[HackFlag],
    note: str = "",
) -> str:
    """One paragraph: deliverables, correctness, the weakest dimension, the cheat verdict,
    the final score against τ."""
    present = sum(c.exists and not c.abstained for c in checks)
    abstained = sum(c.abstained for c in checks)
    dc = sum(c.correctness for c in checks) / len(checks) if checks else 0.0
    mean = mean_score([d.score for d in dims.values()])
    weakest = min(dims.items(), key=lambda kv: (kv[1].score, kv[0]))[0] if dims else "none"
    if hits:
        pats = ", ".join(sorted({f.pattern for f in hits}))
        conf = max(f.confidence for f in hits)
        hack = f"cheat flags at the threshold ({pats}; confidence {conf:.2f}), so the score is 0"
    else:
        hack = "no cheat flag at the threshold"
    verdict = "passes" if final >= tau else "fails"
    return (
        f"{run.task.id}: {len(checks)} deliverables, {present} present, {abstained} abstained; "
        f"deliverable correctness {dc:.2f}, dimension mean {mean:.2f} over {len(dims)} "
        f"dimensions (weakest {weakest}); {hack}; final {final:.2f} {verdict} at τ "
        f"{tau:.2f}{note}."
    )
