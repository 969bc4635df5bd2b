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

from collections.abc import Sequence

from realcli.judge.context import RunEvidence
from realcli.judge.features import LedgerFeatures, ledger_features
from realcli.judge.taxonomy_clauses import (
    close_miss_gui_measure,
    close_miss_partial,
    close_miss_tier,
    format_error,
    incorrect_reasoning,
    visual_misperception,
)
from realcli.judge.taxonomy_course import (
    cross_channel_desync,
    environment_blocked,
    hack_class,
    hack_flag,
    premature_halt,
    silent_halt,
    wrong_channel,
)
from realcli.judge.taxonomy_facts import BLOCKER, PATTERN_CLASS, Facts, Rule
from realcli.schema.judgement import TAXONOMY, ArtifactCheck, HackFlag, TaxonomyLabel

__all__ = ["BLOCKER", "PATTERN_CLASS", "RULES", "Rule", "classify"]


RULES: tuple[Rule, ...] = (
    Rule("hack_flag", "E5", True, hack_flag, hack_class),
    Rule("environment_blocked", "E2.1", True, environment_blocked),
    Rule("silent_halt", "E4.1", False, silent_halt),
    Rule("wrong_channel", "E2.2", True, wrong_channel),
    Rule("cross_channel_desync", "E4.3", True, cross_channel_desync),
    Rule("premature_halt", "E4.2", True, premature_halt),
    Rule("format_error", "E1.2", False, format_error),
    Rule("close_miss_partial", "E1.3", False, close_miss_partial),
    Rule("visual_misperception", "E3.1", True, visual_misperception),
    Rule("close_miss_gui_measure", "E1.3", False, close_miss_gui_measure),
    Rule("close_miss_tier", "E1.3", False, close_miss_tier),
    Rule("incorrect_reasoning", "E1.1", False, incorrect_reasoning),
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
