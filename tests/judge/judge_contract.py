"""The contract every judge keeps. A judge's test module subclasses :class:`JudgeContract`
(``class TestMyJudgeContract(JudgeContract): kind = "myjudge"``) and gets these tests:

* the record is schema-valid and round-trips through ``judgements/<judge>.json``; each
  deliverable of task.toml has its artifact check; dimensions are WeaveBench's names;
  a satisfied clause always cites evidence;
* judging is deterministic: re-judging (``--force``) gives byte-identical files, and judging
  again without force skips the run (same judge_key, same inputs);
* a run whose verdict is infra_error is ``not_applicable``;
* a run folder without a ledger is a JudgeInputError naming ledger.jsonl (one error line);
* a clause naming an unregistered checker, or bad args, is a TaskError naming
  ``<run>/task.toml``, ``deliverables[i].clauses[j].checker`` (``.args``) and the fix.

The fixtures ``honest_run`` (a finished honest run folder), ``copy_run`` and ``stand_ins``
(test-only checkers for the names no built-in registers yet) come from
tests/judge/conftest.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import pytest

from realcli.judge import JudgeInputError, judge_folder, load_run, make_judge
from realcli.ledger.layout import VERDICT
from realcli.schema.judgement import DIMENSIONS, Judgement
from realcli.schema.run_spec import JudgeSpec
from realcli.schema.verdict import Verdict, VerdictStatus


@pytest.mark.usefixtures("stand_ins")
class JudgeContract:
    kind: ClassVar[str]
    detectors: ClassVar[tuple[str, ...] | None] = ("standin_marker",)

    def spec(self, **kw: object) -> JudgeSpec:
        return JudgeSpec(name=self.kind, kind=self.kind, detectors=self.detectors, **kw)

    def judge_dir(self, run_dir: Path, **kw: object) -> Judgement:
        return make_judge(self.spec(**kw)).judge(load_run(run_dir))

    def test_record_is_schema_valid(self, honest_run: Path) -> None:
        j = self.judge_dir(honest_run)
        again = Judgement.model_validate(json.loads(j.model_dump_json()))
        assert again == j
        assert j.status == "judged" and j.judge == self.kind and j.judge_kind == self.kind
        task = load_run(honest_run).task
        assert [c.id for c in j.artifact_checks] == [d.path for d in task.deliverables]
        assert set(j.dimensions) <= set(DIMENSIONS) and j.dimensions
        for check in j.artifact_checks:
            assert [c.text for c in check.clause_results] == list(check.spec_clauses)
            for c in check.clause_results:
                assert c.status != "satisfied" or c.evidence, c
        assert 0 <= j.final_score <= j.deliverable_correctness + 1e-9
        assert j.passed == (j.final_score >= j.tau)

    def test_deterministic_and_skipped_when_judged(
        self, honest_run: Path, copy_run: Callable[[Path], Path]
    ) -> None:
        run = copy_run(honest_run)
        first = judge_folder(run, self.spec(), None)
        assert first.status == "judged", first.error
        path = run / "judgements" / f"{self.kind}.json"
        data = path.read_bytes()
        again = judge_folder(run, self.spec(), None, force=True)
        assert again.status == "judged" and path.read_bytes() == data
        skipped = judge_folder(run, self.spec(), None)
        assert skipped.status == "skipped", skipped.line()

    def test_infra_error_is_not_applicable(
        self, honest_run: Path, copy_run: Callable[[Path], Path]
    ) -> None:
        run = copy_run(honest_run)
        v = Verdict.model_validate_json((run / VERDICT).read_text())
        broken = v.model_copy(
            update={"status": VerdictStatus.infra_error, "error": "sandbox failed", "passed": False}
        )
        (run / VERDICT).write_text(broken.model_dump_json())
        j = self.judge_dir(run)
        assert j.status == "not_applicable" and j.error == "sandbox failed"
        assert not j.passed and j.final_score == 0 and j.taxonomy is None

    def test_missing_ledger_is_an_input_error(
        self, honest_run: Path, copy_run: Callable[[Path], Path]
    ) -> None:
        run = copy_run(honest_run)
        (run / "ledger.jsonl").unlink()
        with pytest.raises(JudgeInputError, match=r"ledger\.jsonl: missing.*fix: rerun"):
            load_run(run)
        out = judge_folder(run, self.spec(), None)
        assert out.status == "error" and "ledger.jsonl" in out.line()

    @pytest.mark.parametrize(
        ("edit", "field"),
        [
            (
                ('test = "f2p/test_result.py::test_value"', 'checker = "no_such_checker"'),
                "deliverables[0].clauses[0].checker: clause 'value' names no registered",
            ),
            (
                (
                    'args = { required_keys = ["units"] }',
                    'args = { required_keys = ["units"], colour = 1 }',
                ),
                "deliverables[0].clauses[2].args.colour: clause 'schema'",
            ),
        ],
        ids=["unknown-checker", "bad-args"],
    )
    def test_bad_clause_names_task_toml_and_the_field(
        self,
        honest_run: Path,
        copy_run: Callable[[Path], Path],
        edit: tuple[str, str],
        field: str,
    ) -> None:
        run = copy_run(honest_run)
        toml = run / "task.toml"
        text = toml.read_text()
        assert edit[0] in text
        toml.write_text(text.replace(edit[0], edit[1], 1))
        out = judge_folder(run, self.spec(), None)
        assert out.status == "error", out.line()
        assert out.error is not None
        assert out.error.startswith(f"{run / 'task.toml'}: {field}"), out.error
        assert "(fix: " in out.error and "Traceback" not in out.error
        assert not (run / "judgements" / f"{self.kind}.json").exists()
