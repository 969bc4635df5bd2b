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

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from realcli.grading.deliverables import SKIPPED_SUFFIX
from realcli.judge.artifacts import (
    DeliverableState,
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
from realcli.judge.features import LedgerFeatures, ledger_features
from realcli.judge.provenance import Provenance
from realcli.judge.provenance import classify as provenance_of
from realcli.judge.rubric import clause_credit, final_score
from realcli.judge.taxonomy import classify
from realcli.schema.judgement import DIMENSIONS, ArtifactCheck, Dimension, HackFlag, Judgement
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


# --- the dimensions ------------------------------------------------------------------------


def _ids(checks: Sequence[ArtifactCheck]) -> str:
    return ", ".join(c.id for c in checks) if checks else "none"


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 1.0


def _dim(score: float, reason: str, **features: float | int | str | bool | None) -> Dimension:
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
    dims["task_completion"] = _dim(
        _mean([present_share, facts.f2p_step]),
        f"present {len(present)}/{n} ({_ids(present)}); abstained {_ids(abstained)}; missing "
        f"{_ids(missing)}; F2P step {facts.f2p_step:.2f}{only}",
        deliverables=n,
        present=len(present),
        abstained=len(abstained),
        missing=len(missing),
        present_share=present_share,
        f2p_step=facts.f2p_step,
    )

    dc = sum(c.correctness for c in checks) / n if n else facts.f2p_step
    per = "; ".join(f"{c.id} {c.correctness:.2f} {c.tier}" for c in checks) or "no deliverables"
    dims["deliverable_correctness"] = _dim(
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
    dims["deliverable_quality"] = _dim(
        _mean(parts) if present else 0.0,
        f"format ok {fmt_ok}/{len(present)} present (not ok: {_ids(bad_fmt)}); non-critical "
        f"clauses credit {credit:g}/{len(noncrit)}{only}",
        format_ok=fmt_ok,
        present=len(present),
        noncritical_clauses=len(noncrit),
        noncritical_credit=credit,
    )

    fs_parts = [facts.p2p_step] if facts.p2p_total else []
    dims["final_state_correctness"] = _dim(
        _mean(fs_parts),
        f"P2P step {facts.p2p_step:.2f} over {facts.p2p_total} tests{only}",
        p2p_step=facts.p2p_step,
        p2p_total=facts.p2p_total,
    )

    path_share = 1 - len(facts.misplaced) / n if n else 1.0
    good_skips = facts.skip_files - len(facts.improper_skips)
    skip_share = good_skips / facts.skip_files if facts.skip_files else 1.0
    dims["instruction_following"] = _dim(
        _mean([path_share, skip_share]),
        f"misplaced: {', '.join(facts.misplaced) or 'none'}; abstentions proper "
        f"{good_skips}/{facts.skip_files} ({'; '.join(facts.improper_skips) or 'all proper'})"
        f"{only}",
        path_share=path_share,
        misplaced=len(facts.misplaced),
        skip_files=facts.skip_files,
        proper_skips=good_skips,
    )
    return dims


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
    base["evidence_authenticity"] = _dim(
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
    base["tool_use_correctness"] = _dim(
        _mean(tparts),
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
    base["final_state_correctness"] = _dim(
        _mean(fs),
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
    base["efficiency_robustness"] = _dim(
        _mean([1 - rep_share, 0.0 if limits else 1.0]),
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
    base["instruction_following"] = _dim(
        _mean([path_share, proper / skips if skips else 1.0, 1 - leak_conf]),
        f"{inst.reason}; leakage/injection/tampering flags: "
        f"{', '.join(sorted({f.pattern for f in leaks})) or 'none'} (max {leak_conf:.2f})",
        **inst.features,
        leakage_confidence=leak_conf,
    )
    return {name: base[name] for name in DIMENSIONS}


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
    mean = _mean([d.score for d in dims.values()])
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
