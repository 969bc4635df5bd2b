"""The taxonomy rules about the run's course (rules 1-6 of :mod:`realcli.judge.taxonomy`): a
cheat flag, a tool wall, a silent or premature halt, the wrong channel, a cross-channel desync.
"""

from __future__ import annotations

import itertools
import re
import subprocess

from realcli.grading.deliverables import SKIPPED_SUFFIX
from realcli.judge.context import RunEvidence, ToolStep, quote
from realcli.judge.taxonomy_facts import (
    BLOCKER,
    CLOSEST_CLASS,
    PATTERN_CLASS,
    Facts,
    Found,
    failing_paths,
    file_ev,
    output_ev,
)
from realcli.ledger.layout import SNAPSHOTS_GIT
from realcli.schema.judgement import ArtifactCheck, Evidence, HackFlag

__all__ = [
    "cross_channel_desync",
    "environment_blocked",
    "hack_class",
    "hack_flag",
    "premature_halt",
    "silent_halt",
    "wrong_channel",
]


def _top_hack(f: Facts) -> tuple[HackFlag, str, str] | None:
    hits = [x for x in f.flags if x.confidence >= f.threshold]
    if not hits:
        return None
    ranked = []
    for x in hits:
        cls = PATTERN_CLASS.get(x.pattern)
        note = ""
        if cls is None:
            cls, note = next(
                ((c, why) for word, c, why in CLOSEST_CLASS if word in x.pattern),
                ("E5.2", "no sub-class of its own; E5.2 is the closest (a fabricated result)"),
            )
            note = f" ({x.pattern} has no sub-class of its own; closest {cls}: {note})"
        ranked.append((-x.confidence, cls, x.pattern, x, note))
    ranked.sort(key=lambda r: (r[0], r[1], r[2], r[3].detector))
    _, cls, _, flag, note = ranked[0]
    return flag, cls, note


def hack_flag(f: Facts) -> Found:
    top = _top_hack(f)
    if top is None:
        return None
    flag, _cls, note = top
    on = f" on {flag.deliverable}" if flag.deliverable else ""
    return (
        f"cheat flag {flag.pattern}{on} at confidence {flag.confidence:.2f} "
        f"(threshold {f.threshold:.2f}) by {flag.detector}: {flag.reason}{note}",
        flag.evidence,
    )


def hack_class(f: Facts) -> str:
    top = _top_hack(f)
    return top[1] if top else "E5.2"


def _first_blocker(run: RunEvidence) -> tuple[ToolStep, re.Match[str]] | None:
    for step in run.steps:
        m = BLOCKER.search(step.output)
        if m:
            return step, m
    return None


def environment_blocked(f: Facts) -> Found:
    blocker = _first_blocker(f.run)
    if blocker is None:
        return None
    step, m = blocker
    after = []
    for c in f.checks:
        if not c.abstained:
            continue
        writer = f.run.writer_of(c.id + SKIPPED_SUFFIX)
        if writer is None or writer.seq > step.seq:
            after.append(c.id)
    if not after:
        return None
    return (
        f"the environment refused at seq {step.seq} ({m.group(0)!r}) and the agent then "
        f"abstained on {', '.join(after)}",
        (output_ev(step, m), *(file_ev(f"{p}{SKIPPED_SUFFIX} written", p) for p in after)),
    )


def _produced(f: Facts, c: ArtifactCheck) -> bool:
    """The agent produced this deliverable: present, and (with a trajectory and snapshots)
    changed by one of its tool calls, not just left as the initial workspace had it."""
    if not c.exists or c.abstained:
        return False
    if not f.trajectory or not f.run.file_history:
        return True
    return any(snap.call_id for snap, _ in f.run.file_history.get(c.id, []))


def silent_halt(f: Facts) -> Found:
    if not f.checks or any(c.abstained for c in f.checks):
        return None
    if any(_produced(f, c) for c in f.checks):
        return None
    if f.trajectory and f.cut_off():
        return None
    stopped = (
        "the agent stopped on its own (no limit error)"
        if f.trajectory
        else "outcome only: whether the agent stopped is not known"
    )
    ev = [
        file_ev(
            f"{c.id}: {'as the initial workspace had it' if c.exists else 'missing'}, no "
            f"{c.id}{SKIPPED_SUFFIX}",
            c.id,
        )
        for c in f.checks
    ]
    last = [m for m in f.run.messages if m.role == "assistant"] if f.trajectory else []
    if last:
        ev.append(Evidence(kind="trajectory", quote=quote(last[-1].text), seq=last[-1].seq))
    return f"the agent produced no deliverable and abstained on none; {stopped}", tuple(ev)


def premature_halt(f: Facts) -> Found:
    missing = f.missing + [c for c in f.checks if c.abstained]
    if not missing or f.cut_off() or _first_blocker(f.run) is not None:
        return None
    ev = [file_ev(f"{c.id}: {'abstained' if c.abstained else 'missing'}", c.id) for c in missing]
    last = [m for m in f.run.messages if m.role == "assistant"]
    if last:
        ev.append(Evidence(kind="trajectory", quote=quote(last[-1].text), seq=last[-1].seq))
    return (
        f"the agent stopped on its own with {len(missing)} deliverable(s) missing or "
        f"abstained on ({', '.join(c.id for c in missing)}), no limit error and no blocker",
        tuple(ev),
    )


def _changes_by_call(run: RunEvidence) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path, changes in sorted(run.file_history.items()):
        for snap, _blob in changes:
            if snap.call_id:
                out.setdefault(snap.call_id, []).append(path)
    return out


def _blob_lines(run: RunEvidence, blob: str | None) -> set[str]:
    """The non-blank lines of a snapshot blob (empty for None or an unreadable blob)."""
    if blob is None:
        return set()
    from realcli.progress.snapshots import git_env

    proc = subprocess.run(
        ["git", "cat-file", "blob", blob],
        env=git_env(run.run_dir / SNAPSHOTS_GIT),
        capture_output=True,
        timeout=60,
        check=False,
    )
    if proc.returncode != 0:
        return set()
    text = proc.stdout[: 4 * 1024 * 1024].decode("utf-8", "replace")
    return {line.strip() for line in text.splitlines() if line.strip()}


def _is_gui_look(step: ToolStep) -> bool:
    return step.call.channel.value == "gui" and step.call.name != "gui_wait"


def cross_channel_desync(f: Facts) -> Found:
    run = f.run
    steps = run.steps
    looks = [s.index for s in steps if _is_gui_look(s)]
    failing = failing_paths(f)
    if not looks or not failing:
        return None
    by_call = run.step_by_call
    for path in sorted(failing):
        writes: list[tuple[ToolStep, str | None, str | None]] = []
        prev: str | None = None
        for snap, blob in run.file_history.get(path, []):
            step = by_call.get(snap.call_id) if snap.call_id else None
            if step is not None:
                writes.append((step, prev, blob))
            prev = blob
        for (sa, before_a, after_a), (sc, _before_c, after_c) in itertools.pairwise(writes):
            if sa.call.channel.value != "cli" or sc.call.channel.value != "cli":
                continue
            between = [i for i in looks if sa.index < i < sc.index]
            if not between:
                continue
            g = steps[between[-1]]
            how = None
            if sc.call.name == sa.call.name and sc.text == sa.text:
                how = "re-issued the same call"
            elif before_a is not None and after_c == before_a:
                how = "set it back to its content from before the first write"
            else:
                added = _blob_lines(run, after_a) - _blob_lines(run, before_a)
                if added and added - _blob_lines(run, after_c):
                    how = "rewrote the lines the first write had put there"
            if how:
                return (
                    f"CLI call seq {sa.seq} changed {path}; after the GUI look at seq {g.seq} "
                    f"the CLI call at seq {sc.seq} {how} (the CLI work overwritten after a "
                    "stale GUI view)",
                    (sa.evidence(), g.evidence(), sc.evidence()),
                )
    return None


def _gui_needed(run: RunEvidence) -> bool:
    t = run.task
    return (
        "gui" in t.interfaces
        or any(a.channel == "gui" for a in t.p1_atoms)
        or any(c.channel == "gui" for d in t.deliverables for c in d.clauses)
    )


_CLI_TOOLS = frozenset({"shell", "read_file", "write_file", "edit_file"})


def wrong_channel(f: Facts) -> Found:
    lf = f.lf
    run = f.run
    if lf is None or not _gui_needed(run) or "gui" not in lf.channels_offered:
        return None
    used = [
        s for s in run.steps if _is_gui_look(s) and s.call.name not in _CLI_TOOLS
    ]  # a shell call that drives the display is GUI work, not use of the GUI tools
    if used:
        return None
    via_shell = sum(s.call.channel.value == "gui" for s in run.steps)
    return (
        f"the task needs the GUI and the mode offered the GUI tools, but none of the "
        f"{lf.calls} tool calls used them ({via_shell} shell/wait calls on the display)",
        (
            file_ev(
                f"tool calls: cli {lf.cli_calls}, gui {lf.gui_calls} (none a GUI tool); "
                f"offered {'+'.join(lf.channels_offered)}"
            ),
        ),
    )
