"""The fuzz corpus of bad configs, bundles and command-line arguments (issue 10, point 9)."""

from __future__ import annotations

import pytest

from tests.security.fuzz.corpus import Case, Scratch, check_case, run_case

RUN = ("run", "model=noop", "paths.runs_dir={runs}")

CASES: list[Case] = [
    Case("unknown-top-key", (*RUN, "sedd=1"), ("command line", "sedd", "fix")),
    Case("unknown-task", (*RUN, "task=no-such-task"), ("task", "no-such-task", "fix")),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_bad_input_is_a_clear_error(case: Case, scratch: Scratch) -> None:
    check_case(case, run_case(case, scratch), scratch)
