"""``realcli show`` prints each judgement of a run after its verdict: the judge, its scores,
every clause with its first evidence, the eight dimensions, the cheat flags and the taxonomy; an
unreadable judgement file is one line naming it, never a traceback.

Run folders come from the warehouse tests' factory (a real ledger via LedgerWriter, a real
verdict); the judgements are built with the schema model and written by the judge store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from realcli.judge.store import write_judgement
from realcli.runner.commands import show
from realcli.runner.show_judgements import QUOTE_CHARS
from realcli.schema.judgement import DIMENSIONS
from tests.warehouse.judgement_records import LONG_QUOTE, SHOT_SHA, make_judgement
from tests.warehouse.run_folders import write_run


@pytest.fixture
def judged(tmp_path: Path) -> Path:
    run = write_run(tmp_path / "runs", seed=1)
    write_judgement(run, make_judgement(run.name, "outcome_only"))
    write_judgement(run, make_judgement(run.name, "trajectory", hack=True))
    return run


def _show(run: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert show(run.parents[1], run.name[:8]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "Traceback" not in out
    return out.splitlines()


def test_show_prints_every_judgement_with_clauses_dimensions_flags_and_taxonomy(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _show(judged, capsys)
    verdict = next(i for i, line in enumerate(lines) if line.startswith("  verdict "))
    heads = [i for i, line in enumerate(lines) if line.startswith("  judgement  ")]
    assert len(heads) == 2 and verdict < heads[0]
    assert lines[heads[0]] == (
        "  judgement  outcome_only (kind outcome_only, key outcome_only, v1)  judged:"
        " final=0.90 passed=1 tau=0.80 correctness=0.90"
    )
    traj = lines[heads[1] :]
    assert traj[0] == (
        "  judgement  trajectory (kind trajectory, key trajectory-k, v1)  judged:"
        " final=0.00 passed=0 tau=0.80 correctness=0.40"
    )
    text = "\n".join(traj)
    assert "    deliverable evidence/solved.png  T1 correctness=0.00 critical-failed" in text
    assert "      fake       written by PIL, matches no screenshot event" in text
    # clauses: status, id, checker (aligned per deliverable), critical, reason, then evidence
    assert (
        "      satisfied boards  value     critical  levels[0].board equals the hidden anchor"
        in traj
    )
    assert "      partial   code    unjudged            no program can read the code off" in text
    evidence = next(line for line in traj if line.strip().startswith("evidence artifact"))
    assert evidence.endswith('"board": [[0,1]]" (out/result.json:3) (+1 more)')
    # a long quote is cut to about QUOTE_CHARS, its seq kept
    cut = next(line for line in traj if "evidence trajectory" in line)
    quote = cut.split('"', 1)[1].rsplit('"', 1)[0]
    assert len(quote) == QUOTE_CHARS and quote.endswith("…")
    assert quote[:-1] == " ".join(LONG_QUOTE.split())[: QUOTE_CHARS - 1]
    assert cut.endswith("(seq 7)")
    dims = traj[traj.index("    dimensions") + 1 :][: len(DIMENSIONS)]
    assert [d.split()[0] for d in dims] == list(DIMENSIONS)
    assert all(d.split()[1] == "0.40" for d in dims)
    assert "    flags      1: is_hack (fake_screenshot, confidence 0.95)" in traj
    flag = next(line for line in traj if line.startswith("      fake_screenshot  0.95"))
    assert "seq 7" in flag and "from PIL import Image" in flag
    assert flag.endswith("(fake_screenshot) [evidence/solved.png]")
    assert traj[-1] == (
        "    taxonomy   E5.1 synthesised render (rule E5.1: a fake_screenshot or fake_render flag"
        " at or above the threshold, by rules): the screenshot deliverable was painted"
    )
    outcome = "\n".join(lines[heads[0] : heads[1]])
    assert "flags" not in outcome and "taxonomy" not in outcome
    assert f"sha256 {SHOT_SHA[:12]}" in outcome


def test_an_unreadable_judgement_is_one_line_and_the_others_still_show(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = judged / "judgements" / "agent.json"
    broken.write_text('{"judge": "agent"')
    failed = make_judgement(judged.name, "agent", failed=True)
    lines = _show(judged, capsys)
    bad = [line for line in lines if line.startswith("  judgement  not shown: ")]
    assert len(bad) == 1
    assert bad[0].startswith(f"  judgement  not shown: {broken}: unreadable (not valid JSON")
    assert bad[0].endswith("(fix: realcli judge --force)")
    assert sum(line.startswith("  judgement  ") for line in lines) == 3

    write_judgement(judged, failed)
    lines = _show(judged, capsys)
    head = next(line for line in lines if line.startswith("  judgement  agent "))
    assert "judge_failed: final=0.00 passed=0" in head
    assert "    error      judge output failed the schema 3 times: dimensions missing" in lines


def test_a_run_without_judgements_says_how_to_judge_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "runs", seed=2)
    lines = _show(run, capsys)
    assert lines[-1] == "  judgement  none (`realcli judge RUN_KEY judge=NAME` judges the run)"
