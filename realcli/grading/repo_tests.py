"""Test sets made of the repository's own tests (``location = "workspace"``): SWE-bench's
FAIL_TO_PASS / PASS_TO_PASS.

The ids are node ids of the workspace's own test suite, relative to the workdir, and they
run the way the repository runs them: its own ``conftest.py`` files and pytest configuration
(``pytest.ini``, ``pyproject.toml``, ``setup.cfg``, ``tox.ini``) are used, so there is no
``-c`` and no ``--confcutdir`` as for the bundle's tests (:func:`realcli.grading.testrun.
pytest_argv`). pytest still starts through realcli's guard (``python -I``: a ``pytest.py`` of
the workspace is never imported in its place), with the guard's canary test planted in the
read-only tests mount and run beside the ids, so the outcome comes from the guard's HMAC
stream, not from output the code under test could print. A repository ``conftest.py`` that
registers reporting hooks is a guard finding (the set is tampered): ``realcli tasks check``
shows it on the initial state.

``patch`` (a unified diff under the bundle's ``tests/``, SWE-bench's ``test_patch``) is
applied to the grading copy with ``git apply`` inside the sandbox before pytest starts;
``git apply`` refuses to write beyond a symbolic link, and a patch that does not apply (the
workspace changed the files it touches) leaves every id ``missing``, a failure.
"""

from __future__ import annotations

from realcli.grading.guard import GUARD_MOUNT
from realcli.grading.junit import TESTS_MOUNT
from realcli.schema.task_spec import TestSetSpec

__all__ = ["PATCH_FAILED_EXIT", "workspace_argv"]

PATCH_FAILED_EXIT = 97
"""Exit status of a grading command whose test patch did not apply."""

_APPLY = (
    'git -c core.fsmonitor=false -c core.hooksPath=/dev/null apply --whitespace=nowarn "$1" '
    '</dev/null || {{ echo "realcli: the test patch {patch} does not apply to the workspace" '
    '>&2; exit {code}; }}; shift; exec "$@"'
)
"""git reads none of the guard's key (its standard input is /dev/null) and runs no hook or
fsmonitor command a ``.git`` of the workspace configures."""


def workspace_argv(
    spec: TestSetSpec, workdir: str, junit_option: str, guard: tuple[str, str]
) -> list[str]:
    """The guarded pytest command line over ``spec.ids`` with the repository's own
    configuration (``guard``: stream and JUnit XML paths inside); with ``spec.patch``,
    behind a ``git apply`` of it."""
    mount = f"{workdir}/{TESTS_MOUNT}"
    argv = [
        "python", "-I", GUARD_MOUNT, guard[0], guard[1], workdir, mount, "--",
        f"--rootdir={workdir}", "-p", "no:cacheprovider", "-o", "junit_family=xunit1",
        "-o", "console_output_style=classic", "-q", "--color=no",
        "--continue-on-collection-errors", junit_option, *spec.ids,
    ]  # fmt: skip
    if spec.patch is None:
        return argv
    script = _APPLY.format(patch=spec.patch, code=PATCH_FAILED_EXIT)
    return ["sh", "-c", script, "sh", f"{mount}/{spec.patch}", *argv]
