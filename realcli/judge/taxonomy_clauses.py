"""The taxonomy rules about what the deliverables got wrong (rules 7-12 of
:mod:`realcli.judge.taxonomy`): format, close misses, values misread off the screen, and the
incorrect reasoning that is left.
"""

from __future__ import annotations

import re

from realcli.judge.context import ToolStep
from realcli.judge.rubric import tier_of
from realcli.judge.taxonomy_facts import Facts, Found, failing_paths, file_ev
from realcli.schema.judgement import ArtifactCheck

__all__ = [
    "close_miss_gui_measure",
    "close_miss_partial",
    "close_miss_tier",
    "format_error",
    "incorrect_reasoning",
    "visual_misperception",
]


def _failing(f: Facts) -> list[tuple[ArtifactCheck, int]]:
    return [
        (c, i) for c in f.present for i, r in enumerate(c.clause_results) if r.status != "satisfied"
    ]


def _format_broken(c: ArtifactCheck) -> bool:
    return not c.format_ok or any(
        r.checker == "file" and r.status == "false" for r in c.clause_results
    )


def format_error(f: Facts) -> Found:
    failing = _failing(f)
    broken = [c for c in f.present if _format_broken(c)]
    if not broken or any(not _format_broken(c) for c, _ in failing):
        return None
    ev = [
        file_ev(f"{c.id}: {r.id}: {r.reason}", c.id)
        for c in broken
        for r in c.clause_results
        if r.checker == "file" and r.status == "false"
    ] + [file_ev(f"{c.id}: does not parse as its format", c.id) for c in broken if not c.format_ok]
    return (
        f"the format contract of {', '.join(c.id for c in broken)} is broken and every other "
        "deliverable is right (its value clauses fail with the format, not on their own)",
        tuple(ev),
    )


def close_miss_partial(f: Facts) -> Found:
    parts = [(c, r) for c in f.present for r in c.clause_results if r.status == "partial"]
    if not parts:
        return None
    ev = tuple(
        r.evidence[0] if r.evidence else file_ev(f"{c.id}: {r.id} partial", c.id) for c, r in parts
    )
    return (
        "partial clause(s), within the checker's partial tolerance: "
        + "; ".join(f"{c.id}:{r.id} ({r.reason})" for c, r in parts),
        ev,
    )


def _root_failing(f: Facts) -> ArtifactCheck | None:
    """The failing present deliverable written first (data flows from it), by the seq of the
    call that first changed it; task order when the snapshots do not say."""
    failing = failing_paths(f)
    cands = [c for c in f.present if c.id in failing]
    if not cands:
        return None
    order = {c.id: i for i, c in enumerate(f.checks)}

    def first_write(c: ArtifactCheck) -> tuple[int, int]:
        if not f.trajectory:
            return (0, order[c.id])
        seqs = [
            step.seq
            for snap, _ in f.run.file_history.get(c.id, [])
            if snap.call_id and (step := f.run.step_by_call.get(snap.call_id)) is not None
        ]
        return (min(seqs) if seqs else 1 << 62, order[c.id])

    return min(cands, key=first_write)


def _gui_rooted(f: Facts, *, only: bool) -> tuple[ArtifactCheck, list[str]] | None:
    """The root failing deliverable and its false GUI-channel value clauses, when it has
    some (``only``: when its failing clauses are all such: the wrong value was taken from the
    screen and nothing else is wrong with it)."""
    root = _root_failing(f)
    if root is None:
        return None
    by_path = {d.path: d for d in f.run.task.deliverables}
    clauses = by_path[root.id].clauses
    bad = [
        (r, c)
        for r, c in zip(root.clause_results, clauses, strict=False)
        if r.status != "satisfied"
    ]
    # an unjudged clause (its anchors out of reach) says nothing about the value read
    gui = [
        r.id
        for r, c in bad
        if c.channel == "gui" and r.checker not in _NOT_VALUES and r.status != "unjudged"
    ]
    if not gui or (only and len(gui) != len(bad)):
        return None
    return root, gui


_NOT_VALUES = frozenset({"file", "provenance", "unjudged"})
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*[A-Za-z0-9]")


def _tokens(text: str) -> set[str]:
    return {t for t in _TOKEN.findall(text) if len(t) >= 3 and any(ch.isdigit() for ch in t)}


def _transcribed(f: Facts, root: ArtifactCheck) -> tuple[ToolStep, str] | None:
    """A CLI call after a GUI capture that typed a literal (a token with a digit) which is
    in the deliverable and in no earlier tool output or user message: a value read by eye."""
    run = f.run
    content = _tokens((run.read_workspace(root.id) or b"").decode("utf-8", "replace"))
    if not content:
        return None
    seen: set[str] = set()
    for m in run.messages:
        if m.role == "user":
            seen |= _tokens(m.text)
    looked = False
    for step in run.steps:
        if step.call.channel.value == "gui" and "screenshot" in step.call.name:
            looked = True
        elif looked and step.call.channel.value == "cli":
            typed = sorted((_tokens(step.text) & content) - seen)
            if typed:
                return step, typed[0]
        seen |= _tokens(step.output)
    return None


def visual_misperception(f: Facts) -> Found:
    rooted = _gui_rooted(f, only=False)
    if rooted is None:
        return None
    root, ids = rooted
    typed = _transcribed(f, root)
    if typed is None:
        return None
    step, token = typed
    return (
        f"{root.id} ({', '.join(ids)}) holds a value read off the screen by eye and typed in: "
        f"{token!r} at seq {step.seq}, after a capture; the value is wrong",
        (step.evidence(token), *(file_ev(f"{root.id}: {i} false", root.id) for i in ids)),
    )


def close_miss_gui_measure(f: Facts) -> Found:
    rooted = _gui_rooted(f, only=True)
    if rooted is None:
        return None
    root, ids = rooted
    return (
        f"the first wrong deliverable, {root.id}, fails only its GUI-read clauses "
        f"({', '.join(ids)}): a measurement taken off the screen, slightly off",
        tuple(
            file_ev(f"{root.id}: {r.id}: {r.reason}", root.id)
            for r in root.clause_results
            if r.id in ids
        ),
    )


def close_miss_tier(f: Facts) -> Found:
    if not f.checks or any(c.critical_failed for c in f.present):
        return None
    dc = sum(c.correctness for c in f.checks) / len(f.checks)
    tier = tier_of(round(dc, 4))
    if tier not in ("T4", "T5"):
        return None
    return (
        f"deliverable correctness {dc:.2f} lands in {tier} with no critical clause failed: "
        "close, not there",
        tuple(file_ev(f"{c.id}: {c.correctness:.2f} {c.tier}", c.id) for c in f.checks),
    )


def incorrect_reasoning(f: Facts) -> Found:
    failing = _failing(f)
    ev = tuple(
        file_ev(f"{c.id}: {c.clause_results[i].id}: {c.clause_results[i].reason}", c.id)
        for c, i in failing
    )
    what = "; ".join(f"{c.id}:{c.clause_results[i].id}" for c, i in failing) or "none listed"
    return f"no more specific rule fired; failing clauses: {what}", ev
