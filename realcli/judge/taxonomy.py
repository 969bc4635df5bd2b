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
3. ``silent_halt`` → E4.1. The task declares deliverables, the agent produced none (each is
   missing or as the initial workspace had it) and abstained on none, and it stopped on its
   own (no limit error: agent_timeout, budget_exceeded, cost_cap, resource_limit,
   agent_crash).
4. ``wrong_channel`` → E2.2. The task needs the GUI (interfaces, a GUI p1 atom or a
   ``channel = "gui"`` clause) and the mode offered the GUI tools, but no call used one
   (waits aside). Shell calls that drive the display (``xdotool``, ``xwininfo``) are GUI work
   in the ledger, but not use of the GUI tools. Before premature_halt: missing GUI
   deliverables are then a consequence of the routing.
5. ``cross_channel_desync`` → E4.3. A deliverable that fails was changed by a CLI call, the
   GUI was looked at, and the next change of that deliverable, again by a CLI call, redid
   the work (the same call), set it back to its content from before, or rewrote the lines
   the first change had put there: the CLI work overwritten after a (stale) GUI view.
   Before premature_halt: an agent that stops right after such an overwrite stopped
   because it believed the (wrong) fix was done.
6. ``premature_halt`` → E4.2. The agent stopped on its own with deliverables missing or
   abstained on, and no blocker in its tool outputs (an abstention with no tool wall is
   giving up with budget left).
7. ``format_error`` → E1.2. Some present deliverable breaks its format contract (does not
   parse as its format, or a ``file`` checker clause is false) and every failing clause of
   the run sits on such a deliverable: the rest is right, and its value clauses fail with
   the format, not on their own.
8. ``close_miss_partial`` → E1.3. A clause of a present deliverable is partial (within the
   checker's partial tolerance).
9. ``visual_misperception`` → E3.1. The root failing deliverable (the failing present
   deliverable first written in the trajectory) fails a GUI-channel value clause (not a
   file, provenance or unjudged one), and a CLI call after a GUI capture typed a literal
   into it (a token with a digit that is in the deliverable and in no earlier tool output or
   user message): a value read off the screen by eye, and read wrong (what depends on it
   may fail too).
10. ``close_miss_gui_measure`` → E1.3. The root failing deliverable fails only GUI-channel
    value clauses, without a value typed by eye: a measurement taken off the screen (by
    code, from a capture) that is slightly off.
11. ``close_miss_tier`` → E1.3. No critical clause failed and the deliverable correctness
    lands in T4 or T5.
12. ``incorrect_reasoning`` → E1.1. Everything else (the values the run computed are wrong
    while what it read is right).

The outcome-only judge has no trajectory: it tries only the rules that need none (3 without
the "stopped" condition, 7, 8, 10 with the task's deliverable order, 11, 12) and says so in
the reason.
"""

from __future__ import annotations

import itertools
import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from realcli.grading.deliverables import SKIPPED_SUFFIX
from realcli.judge.context import RunEvidence, ToolStep, quote
from realcli.judge.features import BUDGET_ERRORS, LedgerFeatures, ledger_features
from realcli.judge.rubric import tier_of
from realcli.ledger.layout import SNAPSHOTS_GIT
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


def _produced(f: Facts, c: ArtifactCheck) -> bool:
    """The agent produced this deliverable: present, and (with a trajectory and snapshots)
    changed by one of its tool calls, not just left as the initial workspace had it."""
    if not c.exists or c.abstained:
        return False
    if not f.trajectory or not f.run.file_history:
        return True
    return any(snap.call_id for snap, _ in f.run.file_history.get(c.id, []))


def _silent(f: Facts) -> Found:
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
        _file_ev(
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


def _failing_paths(f: Facts) -> set[str]:
    return {c.id for c in f.present if any(r.status != "satisfied" for r in c.clause_results)}


def _desync(f: Facts) -> Found:
    run = f.run
    steps = run.steps
    looks = [s.index for s in steps if _is_gui_look(s)]
    failing = _failing_paths(f)
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


def _wrong_channel(f: Facts) -> Found:
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
            _file_ev(
                f"tool calls: cli {lf.cli_calls}, gui {lf.gui_calls} (none a GUI tool); "
                f"offered {'+'.join(lf.channels_offered)}"
            ),
        ),
    )


def _failing(f: Facts) -> list[tuple[ArtifactCheck, int]]:
    return [
        (c, i) for c in f.present for i, r in enumerate(c.clause_results) if r.status != "satisfied"
    ]


def _format_broken(c: ArtifactCheck) -> bool:
    return not c.format_ok or any(
        r.checker == "file" and r.status == "false" for r in c.clause_results
    )


def _format(f: Facts) -> Found:
    failing = _failing(f)
    broken = [c for c in f.present if _format_broken(c)]
    if not broken or any(not _format_broken(c) for c, _ in failing):
        return None
    ev = [
        _file_ev(f"{c.id}: {r.id}: {r.reason}", c.id)
        for c in broken
        for r in c.clause_results
        if r.checker == "file" and r.status == "false"
    ] + [_file_ev(f"{c.id}: does not parse as its format", c.id) for c in broken if not c.format_ok]
    return (
        f"the format contract of {', '.join(c.id for c in broken)} is broken and every other "
        "deliverable is right (its value clauses fail with the format, not on their own)",
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


def _root_failing(f: Facts) -> ArtifactCheck | None:
    """The failing present deliverable written first (data flows from it), by the seq of the
    call that first changed it; task order when the snapshots do not say."""
    failing = _failing_paths(f)
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


def _visual(f: Facts) -> Found:
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
        (step.evidence(token), *(_file_ev(f"{root.id}: {i} false", root.id) for i in ids)),
    )


def _gui_measure(f: Facts) -> Found:
    rooted = _gui_rooted(f, only=True)
    if rooted is None:
        return None
    root, ids = rooted
    return (
        f"the first wrong deliverable, {root.id}, fails only its GUI-read clauses "
        f"({', '.join(ids)}): a measurement taken off the screen, slightly off",
        tuple(
            _file_ev(f"{root.id}: {r.id}: {r.reason}", root.id)
            for r in root.clause_results
            if r.id in ids
        ),
    )


def _tier(f: Facts) -> Found:
    if not f.checks or any(c.critical_failed for c in f.present):
        return None
    dc = sum(c.correctness for c in f.checks) / len(f.checks)
    tier = tier_of(round(dc, 4))
    if tier not in ("T4", "T5"):
        return None
    return (
        f"deliverable correctness {dc:.2f} lands in {tier} with no critical clause failed: "
        "close, not there",
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
    Rule("wrong_channel", "E2.2", True, _wrong_channel),
    Rule("cross_channel_desync", "E4.3", True, _desync),
    Rule("premature_halt", "E4.2", True, _premature),
    Rule("format_error", "E1.2", False, _format),
    Rule("close_miss_partial", "E1.3", False, _partial),
    Rule("visual_misperception", "E3.1", True, _visual),
    Rule("close_miss_gui_measure", "E1.3", False, _gui_measure),
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
