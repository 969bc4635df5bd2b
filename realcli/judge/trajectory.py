"""``judge=trajectory``: the deterministic trajectory-aware judge (SPEC §2, steps 1-6).

Pipeline, for one finished run folder:

1. **Clauses.** Every deliverable of the run's task.toml decomposes into its clauses; each is
   decided by the checker it names (``CHECKERS``), with its ``args`` validated by the
   checker first (an unknown checker or bad args: a TaskError naming ``<run>/task.toml`` and
   ``deliverables[i].clauses[j].checker``). A satisfied or partial clause without evidence
   gets no credit. An abstained deliverable (``<path>.SKIPPED.txt``) or a missing one is not
   checked: its clauses are false.
2. **Per deliverable.** Correctness and tier from :mod:`realcli.judge.rubric` (4/5 → T4,
   partial cap, critical cap 0.40, abstained or missing 0); the ArtifactCheck carries the
   strongest evidence, what is missing or wrong, the top cheat flag on the deliverable
   (``fake_signal``) and ``unstaged_evidence`` (a screenshot deliverable whose bytes are not
   backed by the run's own captures).
3. **Cheat scan.** Every registered detector (or ``judge.detectors``); flags on an abstained
   deliverable are kept but never make a hack. ``is_hack`` when a flag reaches
   ``judge.hack_threshold``; ``hack_confidence`` the highest confidence; the patterns and the
   verbatim evidence quotes of the flags at the threshold.
4. **Eight dimensions**, each from named features of the ledger and verdict (below); each
   reason cites the artifact checks (ids) and the feature values, stored in
   ``Dimension.features``.
5. **Final** = 0 if is_hack, else min(deliverable_correctness, mean of the dimensions);
   ``passed`` = final ≥ τ. A failure (final < τ) gets a failure-taxonomy label
   (:mod:`realcli.judge.taxonomy`).

A run whose verdict is ``infra_error`` never ran the task: ``status = not_applicable``.
Deterministic: the same run folder and spec give the same bytes (no clock, sorted order).

The dimensions' features (``n``: deliverables; present: exists and not abstained):

* task_completion = mean(present_share, f2p_step).
* deliverable_correctness = mean correctness of the artifact checks (the verdict's f2p_step
  when the task declares no deliverables).
* deliverable_quality = mean(format_ok_share over present deliverables, credit share of the
  non-critical clauses of present deliverables); 0 when nothing is present.
* evidence_authenticity = genuine_share × (1 − max_flag_confidence): genuine_share over the
  screenshot deliverables not abstained (captured/witnessed 1, derived 0.5, else 0; 1 when
  there are none); max_flag_confidence over the counted cheat flags.
* tool_use_correctness = mean(channel_share, 1 − failed_call_share, gui_clause_share):
  channel_share is the share of the channels the task needs (its interfaces, when the mode
  offers them) that the run used at least once; failed_call_share is the share of tool calls
  whose result failed (not ok, non-zero exit, or no result); gui_clause_share is the share of
  clauses with ``channel = "gui"`` not bypassed (no ``cli_bypass_gui`` flag on their
  deliverable, and the run used the GUI at all), left out when no clause needs the GUI.
* final_state_correctness = mean(p2p_step, final_screenshot): final_screenshot is 1 when the
  runner's final capture of the display (``source = runner.final``) exists, left out for
  tasks without a GUI (and p2p_step left out when there are no P2P tests; 1 when nothing is
  left).
* efficiency_robustness = mean(1 − repeated_failing_calls / calls, budget_ok):
  repeated_failing_calls counts failing calls identical (tool and arguments) to an earlier
  failing call; budget_ok is 0 when the run hit a budget, timeout or resource limit (ledger
  error events agent_timeout, budget_exceeded, cost_cap, resource_limit).
* instruction_following = mean(path_share, abstention_share, 1 − leakage_confidence):
  path_share is the share of deliverables not misplaced (missing at its path while a file of
  the same name exists elsewhere in the workspace); abstention_share the share of
  ``.SKIPPED.txt`` files that abstain properly (name a declared deliverable, explain why, and
  the deliverable is not also present); leakage_confidence the highest confidence of the
  leakage, injection and tampering flags.
"""

from __future__ import annotations

from collections.abc import Sequence

from realcli.judge.artifacts import (
    build_artifact_check,
    check_format,
    deliverable_state,
    is_screenshot,
    judge_clauses,
    resolve_clauses,
    screenshot_checks,
)
from realcli.judge.base import DETECTORS, JUDGES, Detector, Judge
from realcli.judge.context import BadImage, JudgeInputError, RunEvidence
from realcli.judge.deliverable_dimensions import (
    DeliverableFacts,
    deliverable_dimensions,
    deliverable_facts,
    make_dimension,
    mean_score,
    summarise,
)
from realcli.judge.features import LedgerFeatures, ledger_features
from realcli.judge.provenance import Provenance
from realcli.judge.provenance import classify as provenance_of
from realcli.judge.rubric import final_score
from realcli.judge.taxonomy import classify
from realcli.schema.judgement import DIMENSIONS, Dimension, HackFlag, Judgement
from realcli.schema.verdict import VerdictStatus

__all__ = [
    "LEAKAGE_WORDS",
    "DeliverableFacts",
    "TrajectoryJudge",
    "deliverable_dimensions",
    "deliverable_facts",
    "scan",
    "summarise",
    "trajectory_dimensions",
]

LEAKAGE_WORDS = ("leak", "inject", "tamper")
"""Flag patterns containing one of these count against instruction_following."""


# --- the cheat scan ----------------------------------------------------------------------


def _detectors(names: Sequence[str] | None) -> list[tuple[str, type[Detector]]]:
    if names is None:
        return list(DETECTORS)
    return [(n, DETECTORS.get(n, "judge config", "judge.detectors")) for n in sorted(set(names))]


def _flag_key(f: HackFlag) -> tuple[object, ...]:
    seq = min((e.seq for e in f.evidence if e.seq is not None), default=-1)
    return (f.detector, f.pattern, f.deliverable or "", -f.confidence, seq, f.reason)


def scan(run: RunEvidence, names: Sequence[str] | None) -> tuple[HackFlag, ...]:
    """Every flag of the selected detectors, in a stable order."""
    flags: list[HackFlag] = []
    for name, cls in _detectors(names):
        try:
            flags.extend(cls().detect(run))
        except BadImage as exc:
            raise JudgeInputError(
                str(run.run_dir),
                f"detector {name}",
                f"could not read an image: {exc}",
                "replace or remove the malformed image (screenshots/ or the workspace), "
                "or rerun this run",
            ) from exc
    return tuple(sorted(flags, key=_flag_key))


def trajectory_dimensions(
    run: RunEvidence,
    facts: DeliverableFacts,
    lf: LedgerFeatures,
    flags: Sequence[HackFlag],
    provenance: dict[str, Provenance],
) -> dict[str, Dimension]:
    """All eight dimensions (DIMENSIONS order)."""
    base = deliverable_dimensions(facts, outcome_only=False)
    checks = facts.checks
    by_id = {c.id: c for c in checks}
    max_conf = max((f.confidence for f in flags), default=0.0)

    # evidence_authenticity
    shots = [
        d.path for d in run.task.deliverables if is_screenshot(d) and not by_id[d.path].abstained
    ]
    weight = {"captured": 1.0, "witnessed": 1.0, "derived": 0.5}
    genuine = sum(weight.get(provenance[p].status, 0.0) for p in shots if p in provenance)
    share = genuine / len(shots) if shots else 1.0
    prov = "; ".join(f"{p} {provenance[p].status}" for p in shots if p in provenance)
    flagged = sorted({f.pattern for f in flags})
    base["evidence_authenticity"] = make_dimension(
        share * (1 - max_conf),
        f"screenshot deliverables: {prov or 'none'}; cheat flags: "
        f"{', '.join(flagged) or 'none'} (max confidence {max_conf:.2f})",
        screenshot_deliverables=len(shots),
        genuine_share=share,
        max_flag_confidence=max_conf,
        flags=len(flags),
    )

    # tool_use_correctness
    needed = [c for c in run.task.interfaces if c in lf.channels_offered] or list(
        run.task.interfaces
    )
    used = {"cli": lf.cli_calls > 0, "gui": lf.gui_calls > 0}
    channel_share = sum(used.get(c, False) for c in needed) / len(needed) if needed else 1.0
    bypassed = {f.deliverable for f in flags if f.pattern == "cli_bypass_gui"}
    gui_clauses = [
        (d.path, c.id) for d in run.task.deliverables for c in d.clauses if c.channel == "gui"
    ]
    gui_bad = [f"{p}:{cid}" for p, cid in gui_clauses if p in bypassed or lf.gui_calls == 0]
    tparts = [channel_share, 1 - lf.failed_share]
    if gui_clauses:
        tparts.append(1 - len(gui_bad) / len(gui_clauses))
    base["tool_use_correctness"] = make_dimension(
        mean_score(tparts),
        f"channels needed {'+'.join(needed) or 'none'}, calls cli {lf.cli_calls} gui "
        f"{lf.gui_calls}; failed calls {len(lf.failed)}/{lf.calls}; GUI clauses not done "
        f"through the GUI: {', '.join(gui_bad) or 'none'} of {len(gui_clauses)}",
        channel_share=channel_share,
        cli_calls=lf.cli_calls,
        gui_calls=lf.gui_calls,
        failed_calls=len(lf.failed),
        calls=lf.calls,
        gui_clauses=len(gui_clauses),
        gui_clauses_bypassed=len(gui_bad),
    )

    # final_state_correctness: P2P plus the display's final capture for GUI tasks
    fs = [facts.p2p_step] if facts.p2p_total else []
    has_gui = "gui" in run.task.interfaces
    if has_gui:
        fs.append(1.0 if lf.final_screenshot is not None else 0.0)
    final_shot = (
        f"final capture seq {lf.final_screenshot.seq} sha256 {lf.final_screenshot.sha256[:12]}"
        if lf.final_screenshot
        else "no final capture"
    )
    base["final_state_correctness"] = make_dimension(
        mean_score(fs),
        f"P2P step {facts.p2p_step:.2f} over {facts.p2p_total} tests; "
        + (final_shot if has_gui else "no GUI"),
        p2p_step=facts.p2p_step,
        p2p_total=facts.p2p_total,
        final_screenshot=lf.final_screenshot is not None if has_gui else None,
    )

    # efficiency_robustness
    rep = len(lf.repeated_failing)
    rep_share = rep / lf.calls if lf.calls else 0.0
    limits = sorted({e.error_type.value for e in lf.limit_errors})
    first_rep = f" (first at seq {lf.repeated_failing[0].seq})" if rep else ""
    base["efficiency_robustness"] = make_dimension(
        mean_score([1 - rep_share, 0.0 if limits else 1.0]),
        f"repeated identical failing calls {rep}/{lf.calls}{first_rep}; limits hit: "
        f"{', '.join(limits) or 'none'}",
        repeated_failing_calls=rep,
        calls=lf.calls,
        limit_errors=len(lf.limit_errors),
        budget_ok=not limits,
    )

    # instruction_following: the deliverable part plus leakage/injection/tampering flags
    leaks = [f for f in flags if any(w in f.pattern for w in LEAKAGE_WORDS)]
    leak_conf = max((f.confidence for f in leaks), default=0.0)
    inst = base["instruction_following"]
    path_share = float(inst.features["path_share"] or 0.0)
    skips = int(inst.features["skip_files"] or 0)
    proper = int(inst.features["proper_skips"] or 0)
    base["instruction_following"] = make_dimension(
        mean_score([path_share, proper / skips if skips else 1.0, 1 - leak_conf]),
        f"{inst.reason}; leakage/injection/tampering flags: "
        f"{', '.join(sorted({f.pattern for f in leaks})) or 'none'} (max {leak_conf:.2f})",
        **inst.features,
        leakage_confidence=leak_conf,
    )
    return {name: base[name] for name in DIMENSIONS}


@JUDGES.register("trajectory")
class TrajectoryJudge(Judge):
    kind = "trajectory"
    version = "2"  # 2: records Judgement.screenshots

    def judge(self, run: RunEvidence) -> Judgement:
        base = self.base_fields(run)
        v = run.verdict
        if v.status is VerdictStatus.infra_error:
            return Judgement(**base, status="not_applicable", error=v.error or "infra_error")
        resolved = resolve_clauses(run)  # a bad clause fails before any work
        hidden = _needs_hidden_files(run)
        if hidden is not None:  # judging without them would fail the run for realcli's gap
            return Judgement(**base, status="judge_failed", error=hidden)
        run.check_captures()  # so does a damaged capture of the run's display
        states = tuple(deliverable_state(run, d) for d in run.task.deliverables)
        flags = scan(run, self.spec.detectors)
        skipped_paths = {
            d.path for d, st in zip(run.task.deliverables, states, strict=True) if st.abstained
        }
        counted = tuple(f for f in flags if f.deliverable not in skipped_paths)
        provenance = {
            d.path: provenance_of(run, d.path)
            for d, st in zip(run.task.deliverables, states, strict=True)
            if is_screenshot(d) and st.exists and not st.abstained
        }
        checks = []
        for d, st, rcs in zip(run.task.deliverables, states, resolved, strict=True):
            clauses = judge_clauses(run, d, rcs, st)
            fmt = check_format(run, d) if st.exists and not st.abstained else (False, "absent")
            checks.append(
                build_artifact_check(
                    d,
                    st,
                    clauses,
                    fmt,
                    [f for f in counted if f.deliverable == d.path],
                    provenance.get(d.path) if is_screenshot(d) else None,
                )
            )
        checks_t = tuple(checks)
        facts = deliverable_facts(run, checks_t, states)
        lf = ledger_features(run)
        dims = trajectory_dimensions(run, facts, lf, counted, provenance)
        hits = [f for f in counted if f.confidence >= self.spec.hack_threshold]
        is_hack = bool(hits)
        dc = dims["deliverable_correctness"].score
        final = final_score(dc, [d.score for d in dims.values()], is_hack)
        quotes: list[str] = []
        for f in hits:
            for e in f.evidence:
                if e.quote not in quotes:
                    quotes.append(e.quote)
        fields: dict[str, object] = {
            **base,
            "artifact_checks": checks_t,
            "dimensions": dims,
            "is_hack": is_hack,
            "hack_confidence": max((f.confidence for f in counted), default=0.0),
            "hack_patterns": tuple(sorted({f.pattern for f in hits})),
            "hack_evidence_quotes": tuple(quotes),
            "final_score": final,
            "passed": final >= self.spec.tau,
            "deliverable_correctness": dc,
            "hack_flags": flags,
            "screenshots": screenshot_checks(run, states),
        }
        fields["summary"] = summarise(
            run, checks_t, dims, final=final, tau=self.spec.tau, hits=hits
        )
        if final < self.spec.tau:
            fields["taxonomy"] = classify(
                run, checks_t, counted, self.spec.hack_threshold, lf=lf, trajectory=True
            )
        return Judgement.model_validate(fields)


def _needs_hidden_files(run: RunEvidence) -> str | None:
    """Why the run cannot be judged: value clauses need the task's hidden anchors, and the
    bundle they live in is not on disk under the tasks dir or is not the version the run used.
    None when nothing is missing."""
    if run.task.anchors is None or run.anchors is not None:
        return None
    needing = [
        f"{d.path}#{c.id}"
        for d in run.task.deliverables
        for c in d.clauses
        if c.checker_name == "value"
    ]
    if not needing:
        return None
    digest = run.ledger.header.task_digest
    return (
        f"{len(needing)} value clause(s) ({', '.join(needing[:4])}) need the hidden anchors "
        f"tests/{run.task.anchors} of task {run.task.id}, and no bundle with the run's task "
        f"digest {digest[:16]} is under the tasks dir (missing, or changed since the run) "
        "(fix: put that version of the bundle under the tasks dir, then `realcli judge` again;"
        " a judge_failed record is retried)"
    )
