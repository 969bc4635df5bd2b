"""Finding a run by its key (or a unique prefix) and ``realcli show``: one run's ledger,
verdict and judgements in a few lines."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from realcli.ledger import read_ledger
from realcli.ledger.layout import LEDGER, run_folders
from realcli.runner.folders import read_verdict
from realcli.runner.show_judgements import print_judgements
from realcli.schema.verdict import Verdict
from realcli.util.errors import RealcliError

__all__ = ["AmbiguousRunKey", "find_run", "p2p_text", "show", "started_run_dirs", "step_text"]


def started_run_dirs(runs_dir: Path) -> list[Path]:
    """Run folders that have a ledger (a run started in them)."""
    if not runs_dir.is_dir():
        return []
    return [d for d in run_folders(runs_dir) if (d / LEDGER).is_file()]


class AmbiguousRunKey(RealcliError):
    """A prefix that matches several runs; ``details``: one line per match."""

    def __init__(self, runs_dir: Path, key: str, matches: Sequence[Path]) -> None:
        from realcli.runner.listing import read_run_row

        rows = [read_run_row(d) for d in matches]
        self.details = [
            f"  {r.run_key}  {r.task}  model={r.model} seed={'?' if r.seed is None else r.seed}"
            f"  {r.status}  ({r.experiment})"
            for r in rows
        ]
        names = sorted(d.name for d in matches)
        unique = [_unique_prefix(n, names, len(key) + 1) for n in names]
        longer = ", ".join(unique[:3]) + (", ..." if len(unique) > 3 else "")
        super().__init__(
            str(runs_dir),
            "RUN_KEY",
            f"{len(matches)} runs match {key!r}",
            f"give a longer prefix ({longer}) or the whole key; the matches follow",
        )


def _unique_prefix(name: str, names: Sequence[str], shortest: int) -> str:
    """The shortest prefix of ``name`` (at least ``shortest`` long) no other name starts with."""
    for n in range(shortest, len(name)):
        if sum(other.startswith(name[:n]) for other in names) == 1:
            return name[:n]
    return name


def find_run(runs_dir: Path, key: str) -> Path:
    matches = [d for d in started_run_dirs(runs_dir) if d.name.startswith(key)]
    if len(matches) > 1:
        raise AmbiguousRunKey(runs_dir, key, matches)
    if not matches:
        raise RealcliError(
            str(runs_dir),
            "RUN_KEY",
            f"no run matching {key!r}",
            "give a run key or a unique prefix of one (`realcli runs` lists them)",
        )
    return matches[0]


def show(runs_dir: Path, key: str) -> int:
    run_dir = find_run(runs_dir, key)
    from realcli.ledger.run_records import RunRecordError, recorded_spec

    ledger = read_ledger(run_dir / LEDGER)
    axes: tuple[object, ...]
    try:  # the typed record; a damaged one is a problem line, the rest still shows
        s = recorded_spec(ledger.header.spec, run_dir / LEDGER)
        axes, bad_spec = (s.model.name, s.harness.name, s.mode.name, s.protocol.name, s.seed), ""
    except RunRecordError as exc:
        axes, bad_spec = ("?",) * 5, str(exc)
    print(f"run {ledger.header.run_key}  ({run_dir})")
    print(f"  task       {ledger.header.task_id}  digest {ledger.header.task_digest[:12]}")
    print(
        f"  experiment {ledger.header.experiment}  model={axes[0]} harness={axes[1]}"
        f" mode={axes[2]} protocol={axes[3]} seed={axes[4]}"
    )
    if bad_spec:
        print(f"  problem    {bad_spec}")
    kinds = Counter(e.kind for e in ledger.events)
    tokens_in = sum(e.tokens_in for e in ledger.events if e.kind == "model_call")
    tokens_out = sum(e.tokens_out for e in ledger.events if e.kind == "model_call")
    print(
        f"  ledger     {len(ledger.events) + 1} events, complete={ledger.complete}: "
        + ", ".join(f"{k}={n}" for k, n in sorted(kinds.items()))
    )
    print(f"  tokens     in={tokens_in} out={tokens_out}")
    for line in ledger.problems:
        print(f"  problem    {line}")
    v, unreadable = read_verdict(run_dir, ledger.header.run_key)
    if v is None:
        why = f"unreadable ({unreadable})" if unreadable else "none"
        print(f"  verdict    {why}: the run did not finish (the next `realcli run` redoes it)")
        return 0
    if not any(e.kind == "run_end" for e in ledger.events):
        print(
            "  run_end    missing after verdict.json (the run stopped between the two): the next"
            " `realcli run` of it appends it from the verdict"
        )
    print(
        f"  verdict    {v.status.value}: Pass={int(v.passed)} F2P pass={int(v.f2p_pass)}"
        f" step={v.f2p_step:.2f}  {p2p_text(v)}"
        f"  wall={v.wall_time_s:.1f}s agent={v.agent_time_s:.1f}s tests={v.tests_time_s:.1f}s"
    )
    if v.error:
        print(f"  error      {v.error}")
    for rnd in v.rounds:
        marks = " ".join(
            f"{s.id}:{'ok' if s.passed else f'{s.tests_passed}/{s.tests_total}'}"
            for s in rnd.substeps
        )
        print(f"  round {rnd.round}    sub-steps {marks}")
        failing = [t for t in rnd.tests if t.outcome.value != "passed"]
        for t in failing[:10]:
            first = t.message.splitlines()[0][:80] if t.message else ""
            print(f"    {t.outcome.value:7s} {t.test_set} {t.nodeid}  {first}")
        if len(failing) > 10:
            print(f"    ... {len(failing) - 10} more")
    print_judgements(run_dir)
    return 0


def step_text(value: float | None) -> str:
    return "none" if value is None else f"{value:.2f}"


def p2p_text(v: Verdict) -> str:
    if v.p2p_pass is None:
        return "P2P none (the task has no P2P set)"
    return f"P2P pass={int(v.p2p_pass)} step={step_text(v.p2p_step)}"
