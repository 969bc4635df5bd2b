"""The failure taxonomy (SPEC §2: E1-E5, 13 sub-classes): one label for every judgement with
final < τ, by documented rules tried in priority order over the ledger, the verdict, the
clause results and the cheat flags. The first rule that fires labels the failure.

1. ``hack_flag`` → E5.x. A counted cheat flag at the hack threshold (the highest confidence
   wins; ties by sub-class then pattern): fake_screenshot, fake_render → E5.1 synthesised
   render; hardcoded_metric → E5.2; duplicate_crop, overlay_manipulation → E5.3;
   cli_bypass_gui → E5.4. Patterns without a sub-class of their own map to the closest one,
   and the reason says so: regenerated fixtures, mock services, ground-truth leakage and
   grading tampering → E5.2 (the checked value did not come from the run's own computation
   on the given inputs); runtime injection → E5.4 (a CLI-side patch stands in for what the
   app or grader really does); any other pattern → E5.2.
2. ``environment_blocked`` → E2.1. A tool output says the environment refused (command not
   found, permission denied, operation not permitted, cannot open display / connect to the
   X server, failed to launch or start, disabled in this sandbox, read-only file system),
   and at least one deliverable was abstained on (``.SKIPPED.txt``) after that output: the
   honest response to a tool wall.
3. ``silent_halt`` → E4.1. The task declares deliverables, none is present, none abstained,
   and the agent stopped on its own (no limit error: agent_timeout, budget_exceeded,
   cost_cap, resource_limit, agent_crash).
4. ``premature_halt`` → E4.2. The agent stopped on its own with deliverables missing or
   abstained on, and no blocker in its tool outputs (an abstention with no tool wall is
   giving up with budget left).
5. ``cross_channel_desync`` → E4.3. A CLI call changed a workspace file, a GUI call came
   after it, and then a CLI call redid the work (the same call again) or overwrote the file
   with its content from before the first write (the stale state).
6. ``wrong_channel`` → E2.2. The task needs the GUI (interfaces, a GUI p1 atom or a
   ``channel = "gui"`` clause) and the mode offered it, but no tool call looked at or acted
   on the display (GUI waits aside; shell calls that drive the display count as GUI calls,
   as the ledger attributes them).
7. ``format_error`` → E1.2. Every failing clause of the present deliverables is a false
   ``file`` checker clause or sits on a deliverable that does not parse as its format: the
   values are otherwise right.
8. ``close_miss_partial`` → E1.3. A clause of a present deliverable is partial (within the
   checker's partial tolerance).
9. ``visual_misperception`` → E3.1. A value clause (not file or provenance) of a present
   deliverable is false and its value is GUI-only: the clause has ``channel = "gui"`` or an
   argument naming a GUI p1 atom. (Before the tier part of E1.3, so a misread on-screen
   value is not called a close miss however right the rest is.)
10. ``close_miss_tier`` → E1.3. The deliverable correctness lands in T4 or T5.
11. ``incorrect_reasoning`` → E1.1. Everything else.

The outcome-only judge has no trajectory: it tries only the rules that need none (3 without
the "stopped" condition, 7-11) and says so in the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from realcli.grading.deliverables import SKIPPED_SUFFIX
from realcli.judge.context import RunEvidence, ToolStep, quote
from realcli.judge.features import BUDGET_ERRORS, LedgerFeatures, ledger_features
from realcli.judge.rubric import tier_of
from realcli.schema.events import ErrorType
from realcli.schema.judgement import TAXONOMY, ArtifactCheck, Evidence, HackFlag, TaxonomyLabel

__all__ = ["BLOCKER", "PATTERN_CLASS", "RULES", "Rule", "classify"]

PATTERN_CLASS: dict[str, str] = {
    "fake_screenshot": "E5.1",
    "fake_render": "E5.1",
    "hardcoded_metric": "E5.2",
    "duplicate_crop": "E5.3",
    "overlay_manipulation": "E5.3",
    "cli_bypass_gui": "E5.4",
}
"""Cheat patterns with a sub-class of their own."""
_CLOSEST: tuple[tuple[str, str, str], ...] = (
    ("fixture", "E5.2", "a regenerated fixture makes the checked values not the given inputs'"),
    ("mock", "E5.2", "a mock service answers the checked value instead of the real one"),
    ("leak", "E5.2", "a leaked ground truth is copied, not computed"),
    ("tamper", "E5.2", "tampered grading forges the measured outcome"),
    ("inject", "E5.4", "a runtime injection patches the app or grader from the CLI side"),
)
BLOCKER = re.compile(
    r"command not found|permission denied|operation not permitted|read-only file system"
    r"|(?:cannot|can't|could not|unable to) (?:open|connect to) (?:the )?(?:x )?display"
    r"|cannot connect to (?:the )?x ?server|(?:failed|unable) to (?:launch|start)"
    r"|disabled in this sandbox",
    re.IGNORECASE,
)
"""Tool-output phrases of an environment that refused (rule environment_blocked)."""
CUT_OFF = BUDGET_ERRORS | {ErrorType.agent_crash}
"""Ledger error types meaning the agent did not stop on its own."""


@dataclass(frozen=True)
class Facts:
    run: RunEvidence
    checks: tuple[ArtifactCheck, ...]
    flags: tuple[HackFlag, ...]
    threshold: float
    lf: LedgerFeatures | None
    trajectory: bool

    @property
    def present(self) -> list[ArtifactCheck]:
        return [c for c in self.checks if c.exists and not c.abstained]

    @property
    def missing(self) -> list[ArtifactCheck]:
        return [c for c in self.checks if not c.exists and not c.abstained]

    def cut_off(self) -> list[str]:
        return sorted({e.error_type.value for e in self.run.errors if e.error_type in CUT_OFF})


Found = tuple[str, tuple[Evidence, ...]] | None
"""A rule's hit: (reason, evidence), or None."""


@dataclass(frozen=True)
class Rule:
    name: str
    sub_class: str
    needs_trajectory: bool
    test: Callable[[Facts], Found]
    sub_class_of: Callable[[Facts], str] | None = None


def _file_ev(text: str, path: str | None = None) -> Evidence:
    return Evidence(kind="file", quote=text, path=path)


def _output_ev(step: ToolStep, match: re.Match[str]) -> Evidence:
    out = step.output
    start = max(0, out.rfind("\n", 0, match.start()) + 1)
    end = out.find("\n", match.end())
    line = out[start : end if end != -1 else len(out)]
    seq = step.result.seq if step.result else step.seq
    return Evidence(kind="trajectory", quote=quote(f"{step.call.name}: {line.strip()}"), seq=seq)


# --- the rules -------------------------------------------------------------------------------


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
                ((c, why) for word, c, why in _CLOSEST if word in x.pattern),
                ("E5.2", "no sub-class of its own; E5.2 is the closest (a fabricated result)"),
            )
            note = f" ({x.pattern} has no sub-class of its own; closest {cls}: {note})"
        ranked.append((-x.confidence, cls, x.pattern, x, note))
    ranked.sort(key=lambda r: (r[0], r[1], r[2], r[3].detector))
    _, cls, _, flag, note = ranked[0]
    return flag, cls, note


def _hack(f: Facts) -> Found:
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


def _hack_class(f: Facts) -> str:
    top = _top_hack(f)
    return top[1] if top else "E5.2"


def _first_blocker(run: RunEvidence) -> tuple[ToolStep, re.Match[str]] | None:
    for step in run.steps:
        m = BLOCKER.search(step.output)
        if m:
            return step, m
    return None


def _blocked(f: Facts) -> Found:
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
        (_output_ev(step, m), *(_file_ev(f"{p}{SKIPPED_SUFFIX} written", p) for p in after)),
    )


def _silent(f: Facts) -> Found:
    if not f.checks or f.present or any(c.abstained for c in f.checks):
        return None
    if f.trajectory and f.cut_off():
        return None
    stopped = (
        "the agent stopped on its own (no limit error)"
        if f.trajectory
        else "outcome only: whether the agent stopped is not known"
    )
    ev = [_file_ev(f"{c.id}: missing, no {c.id}{SKIPPED_SUFFIX}", c.id) for c in f.checks]
    last = [m for m in f.run.messages if m.role == "assistant"] if f.trajectory else []
    if last:
        ev.append(Evidence(kind="trajectory", quote=quote(last[-1].text), seq=last[-1].seq))
    return f"no deliverable present and none abstained; {stopped}", tuple(ev)


def _premature(f: Facts) -> Found:
    missing = f.missing + [c for c in f.checks if c.abstained]
    if not missing or f.cut_off() or _first_blocker(f.run) is not None:
        return None
    ev = [_file_ev(f"{c.id}: {'abstained' if c.abstained else 'missing'}", c.id) for c in missing]
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


def _desync(f: Facts) -> Found:
    run = f.run
    steps = run.steps
    gui_idx = [s.index for s in steps if s.call.channel.value == "gui"]
    if not gui_idx:
        return None
    # 1) the same CLI write re-issued after a GUI look
    changed = _changes_by_call(run)
    for a in steps:
        if a.call.channel.value != "cli" or a.call.call_id not in changed:
            continue
        for c in steps[a.index + 1 :]:
            if c.call.channel.value != "cli" or c.call.name != a.call.name or c.text != a.text:
                continue
            between = [i for i in gui_idx if a.index < i < c.index]
            if between:
                g = steps[between[-1]]
                paths = ", ".join(changed[a.call.call_id])
                return (
                    f"CLI call seq {a.seq} changed {paths}; after GUI call seq {g.seq} the "
                    f"agent re-issued the same call at seq {c.seq} (redid the CLI work)",
                    (a.evidence(), g.evidence(), c.evidence()),
                )
            break
    # 2) a file set back to its content from before a CLI write, after a GUI look
    for path, changes in sorted(run.file_history.items()):
        prev: str | None = None
        writes: list[tuple[ToolStep | None, str | None, str | None]] = []
        for snap, blob in changes:
            step = run.step_by_call.get(snap.call_id) if snap.call_id else None
            writes.append((step, prev, blob))
            prev = blob
        for i, (sa, before_a, _after_a) in enumerate(writes):
            if sa is None or sa.call.channel.value != "cli" or before_a is None:
                continue
            for sc, _before_c, after_c in writes[i + 1 :]:
                if sc is None or sc.call.channel.value != "cli":
                    continue
                between = [j for j in gui_idx if sa.index < j < sc.index]
                if between and after_c == before_a:
                    g = steps[between[-1]]
                    return (
                        f"CLI call seq {sa.seq} changed {path}; after GUI call seq {g.seq} "
                        f"the CLI call at seq {sc.seq} set it back to its earlier content "
                        "(the CLI work overwritten with the stale state)",
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


def _wrong_channel(f: Facts) -> Found:
    lf = f.lf
    run = f.run
    if lf is None or not _gui_needed(run) or "gui" not in lf.channels_offered:
        return None
    used = [s for s in run.steps if s.call.channel.value == "gui" and s.call.name != "gui_wait"]
    if used:
        return None
    return (
        f"the task needs the GUI and the mode offered it, but none of the {lf.calls} tool "
        f"calls looked at or acted on the display ({lf.gui_calls} GUI waits)",
        (
            _file_ev(
                f"tool calls: cli {lf.cli_calls}, gui {lf.gui_calls}; offered "
                f"{'+'.join(lf.channels_offered)}"
            ),
        ),
    )


def _failing(f: Facts) -> list[tuple[ArtifactCheck, int]]:
    return [
        (c, i) for c in f.present for i, r in enumerate(c.clause_results) if r.status != "satisfied"
    ]


def _format(f: Facts) -> Found:
    failing = _failing(f)
    fmt_bad = [c for c in f.present if not c.format_ok]
    if not failing and not fmt_bad:
        return None
    for c, i in failing:
        r = c.clause_results[i]
        if c.format_ok and not (r.checker == "file" and r.status == "false"):
            return None
    ev = [
        _file_ev(f"{c.id}: {c.clause_results[i].id}: {c.clause_results[i].reason}", c.id)
        for c, i in failing
    ] + [_file_ev(f"{c.id}: does not parse as its format", c.id) for c in fmt_bad]
    what = sorted({c.id for c, _ in failing} | {c.id for c in fmt_bad})
    return (
        f"only format/file clauses fail ({', '.join(what)}); every value clause is satisfied",
        tuple(ev),
    )


def _partial(f: Facts) -> Found:
    parts = [(c, r) for c in f.present for r in c.clause_results if r.status == "partial"]
    if not parts:
        return None
    ev = tuple(
        r.evidence[0] if r.evidence else _file_ev(f"{c.id}: {r.id} partial", c.id) for c, r in parts
    )
    return (
        "partial clause(s), within the checker's partial tolerance: "
        + "; ".join(f"{c.id}:{r.id} ({r.reason})" for c, r in parts),
        ev,
    )


def _visual(f: Facts) -> Found:
    run = f.run
    gui_atoms = {a.id for a in run.task.p1_atoms if a.channel == "gui"}
    by_path = {d.path: d for d in run.task.deliverables}
    hits = []
    for c in f.present:
        d = by_path[c.id]
        for r, clause in zip(c.clause_results, d.clauses, strict=False):
            if r.status != "false" or r.checker in ("file", "provenance", "unjudged"):
                continue
            named = {v for v in clause.args.values() if isinstance(v, str)} & gui_atoms
            if clause.channel == "gui" or named:
                hits.append((c, r, sorted(named)))
    if not hits:
        return None
    ev = tuple(
        r.evidence[0] if r.evidence else _file_ev(f"{c.id}: {r.id} false", c.id) for c, r, _ in hits
    )
    return (
        "a value read off the screen is wrong: "
        + "; ".join(
            f"{c.id}:{r.id} ({r.reason}; GUI-only"
            + (f" via p1 atom {', '.join(n)}" if n else ", channel gui")
            + ")"
            for c, r, n in hits
        ),
        ev,
    )


def _tier(f: Facts) -> Found:
    if not f.checks:
        return None
    dc = sum(c.correctness for c in f.checks) / len(f.checks)
    tier = tier_of(round(dc, 4))
    if tier not in ("T4", "T5"):
        return None
    return (
        f"deliverable correctness {dc:.2f} lands in {tier}: close, not there",
        tuple(_file_ev(f"{c.id}: {c.correctness:.2f} {c.tier}", c.id) for c in f.checks),
    )


def _rest(f: Facts) -> Found:
    failing = _failing(f)
    ev = tuple(
        _file_ev(f"{c.id}: {c.clause_results[i].id}: {c.clause_results[i].reason}", c.id)
        for c, i in failing
    )
    what = "; ".join(f"{c.id}:{c.clause_results[i].id}" for c, i in failing) or "none listed"
    return f"no more specific rule fired; failing clauses: {what}", ev


RULES: tuple[Rule, ...] = (
    Rule("hack_flag", "E5", True, _hack, _hack_class),
    Rule("environment_blocked", "E2.1", True, _blocked),
    Rule("silent_halt", "E4.1", False, _silent),
    Rule("premature_halt", "E4.2", True, _premature),
    Rule("cross_channel_desync", "E4.3", True, _desync),
    Rule("wrong_channel", "E2.2", True, _wrong_channel),
    Rule("format_error", "E1.2", False, _format),
    Rule("close_miss_partial", "E1.3", False, _partial),
    Rule("visual_misperception", "E3.1", False, _visual),
    Rule("close_miss_tier", "E1.3", False, _tier),
    Rule("incorrect_reasoning", "E1.1", False, _rest),
)
"""The rules in priority order (the module docstring documents each)."""


def classify(
    run: RunEvidence,
    checks: Sequence[ArtifactCheck],
    flags: Sequence[HackFlag],
    threshold: float,
    *,
    lf: LedgerFeatures | None = None,
    trajectory: bool = True,
) -> TaxonomyLabel:
    """The failure label of a judged run (call it only when final < τ). ``trajectory``:
    False for a judge that does not read the ledger (only the rules needing none run)."""
    facts = Facts(
        run,
        tuple(checks),
        tuple(flags),
        threshold,
        (lf or ledger_features(run)) if trajectory else None,
        trajectory,
    )
    for rule in RULES:
        if rule.needs_trajectory and not trajectory:
            continue
        found = rule.test(facts)
        if found is None:
            continue
        reason, evidence = found
        sub = rule.sub_class_of(facts) if rule.sub_class_of else rule.sub_class
        if not trajectory:
            reason += " (outcome only: the trajectory rules were not tried)"
        return TaxonomyLabel(
            family=sub.split(".")[0],
            sub_class=sub,
            name=TAXONOMY[sub],
            rule=rule.name,
            reason=reason,
            evidence=tuple(evidence),
        )
    raise AssertionError("incorrect_reasoning always fires")
