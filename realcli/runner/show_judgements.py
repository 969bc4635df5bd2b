"""``realcli show``'s judgement section: each judge's verdict on the run, readable.

For every ``judgements/<judge>.json`` of the run: the judge (name, kind, key), its status,
final score, pass and τ; per deliverable its tier and correctness and each clause with its
status, checker and first piece of evidence; the eight dimensions (in WeaveBench's order) with
score and reason; the
cheat flags; the taxonomy label. A judgement file that cannot be read is one line naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from realcli.judge.store import read_judgements
from realcli.schema.judgement import DIMENSIONS, Evidence, Judgement

__all__ = ["judgement_lines", "print_judgements"]

QUOTE_CHARS = 100
"""Evidence quotes, reasons and summaries are cut to about this many characters."""


def _cut(text: str, limit: int = QUOTE_CHARS) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def _evidence(e: Evidence) -> str:
    where = []
    if e.seq is not None:
        where.append(f"seq {e.seq}")
    if e.sha256:
        where.append(f"sha256 {e.sha256[:12]}")
    if e.path:
        where.append(e.path + (f":{e.line}" if e.line else ""))
    at = f" ({', '.join(where)})" if where else ""
    return f'{e.kind} "{_cut(e.quote)}"{at}'


def _flag(on: bool, name: str) -> str:
    return f" {name}" if on else ""


def judgement_lines(j: Judgement) -> list[str]:
    """The lines ``realcli show`` prints for one judgement (indented by two spaces)."""
    out = [
        f"  judgement  {j.judge} (kind {j.judge_kind}, key {j.judge_key[:12]},"
        f" v{j.judge_version})  {j.status}: final={j.final_score:.2f}"
        f" passed={int(j.passed)} tau={j.tau:.2f}"
        f" correctness={j.deliverable_correctness:.2f}"
    ]
    if j.error:
        out.append(f"    error      {_cut(j.error, 200)}")
    if j.summary:
        out.append(f"    summary    {_cut(j.summary, 200)}")
    for check in j.artifact_checks:
        marks = (
            _flag(not check.exists, "missing")
            + _flag(check.exists and not check.format_ok, "bad-format")
            + _flag(check.abstained, "abstained")
            + _flag(check.critical_failed, "critical-failed")
            + _flag(check.unstaged_evidence, "unstaged-evidence")
        )
        out.append(
            f"    deliverable {check.id}  {check.tier} correctness={check.correctness:.2f}{marks}"
        )
        if check.fake_signal:
            out.append(f"      fake       {_cut(check.fake_signal)}")
        clauses = check.clause_results
        id_w = max((len(c.id) for c in clauses), default=0)
        checker_w = max((len(c.checker) for c in clauses), default=0)
        for c in clauses:
            crit = "critical" if c.critical else "        "
            out.append(
                f"      {c.status:9s} {c.id:{id_w}s}  {c.checker:{checker_w}s}  {crit}"
                f"  {_cut(c.reason)}"
            )
            if c.evidence:
                more = f" (+{len(c.evidence) - 1} more)" if len(c.evidence) > 1 else ""
                out.append(f"      {'':9s} {'':{id_w}s}  evidence {_evidence(c.evidence[0])}{more}")
    if j.dimensions:
        out.append("    dimensions")
        name_w = max(len(name) for name in j.dimensions)
        known = [name for name in DIMENSIONS if name in j.dimensions]
        for name in known + sorted(set(j.dimensions) - set(known)):
            dim = j.dimensions[name]
            out.append(f"      {name:{name_w}s}  {dim.score:.2f}  {_cut(dim.reason)}")
    if j.hack_flags:
        verdict = (
            f"is_hack ({', '.join(j.hack_patterns)}, confidence {j.hack_confidence:.2f})"
            if j.is_hack
            else f"below the threshold {j.hack_threshold:.2f}"
        )
        out.append(f"    flags      {len(j.hack_flags)}: {verdict}")
        pattern_w = max(len(f.pattern) for f in j.hack_flags)
        for f in j.hack_flags:
            first = f.evidence[0]
            seq = f"seq {first.seq}" if first.seq is not None else "seq -"
            about = f" [{f.deliverable}]" if f.deliverable else ""
            out.append(
                f"      {f.pattern:{pattern_w}s}  {f.confidence:.2f}  {seq:9s}"
                f' "{_cut(first.quote)}"  ({f.detector}){about}'
            )
    if j.taxonomy is not None:
        t = j.taxonomy
        out.append(
            f"    taxonomy   {t.sub_class} {t.name} (rule {t.rule}, by {t.labeller}):"
            f" {_cut(t.reason, 200)}"
        )
    return out


def print_judgements(
    run_dir: Path, emit: Callable[[str], object] = print
) -> tuple[list[Judgement], list[str]]:
    """Print every judgement of ``run_dir`` and one line per unreadable judgement file."""
    judgements, problems = read_judgements(run_dir)
    lines: Iterable[str] = (line for j in judgements for line in judgement_lines(j))
    for line in lines:
        emit(line)
    for problem in problems:
        emit(f"  judgement  not shown: {problem}")
    if not judgements and not problems:
        emit("  judgement  none (`realcli judge RUN_KEY judge=NAME` judges the run)")
    return judgements, problems
