"""The fuzz corpus of bad configs, bundles and command-line arguments (issue 10, point 9,
acceptance d): each case runs ``realcli run ...`` (the real entry point, forked, with a hard
timeout) and must fail with one clear message naming the file, the field and the fix; no
traceback, no hang, no out-of-bundle or out-of-tasks-dir path accepted."""

from __future__ import annotations

import pytest

from tests.security.fuzz.cases_bundles import BUNDLE_CASES, TASK_CASES
from tests.security.fuzz.cases_configs import BOUND_CASES, OVERRIDE_CASES, PATH_CASES, YAML_CASES
from tests.security.fuzz.clean_fork import run_case_clean
from tests.security.fuzz.corpus import Case, Scratch, check_case

CASES: list[Case] = [
    *BUNDLE_CASES,
    *TASK_CASES,
    *YAML_CASES,
    *BOUND_CASES,
    *PATH_CASES,
    *OVERRIDE_CASES,
]


def test_corpus_is_large_and_ids_are_unique() -> None:
    assert len(CASES) >= 75
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_bad_input_is_a_clear_error(case: Case, scratch: Scratch) -> None:
    result = run_case_clean(case, scratch)  # forked from a clean process (see clean_fork)
    check_case(case, result, scratch)
    assert "started" not in result.output and not any(scratch.runs_dir.glob("*/*/verdict.json"))
