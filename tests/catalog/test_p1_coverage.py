"""The P1 atoms gate of `realcli tasks check` (realcli.catalog.p1_coverage), and the shipped
weave tasks' annotations."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.catalog.p1_coverage import p1_atom_problems
from realcli.runner.health import check_task
from realcli.sandbox import Sandbox, SandboxOptions
from realcli.schema.atoms import coverage_levels
from realcli.schema.task_spec import TaskSpec
from realcli.util.errors import TaskError

REPO = Path(__file__).resolve().parents[2]
WEAVE_TASKS = sorted((REPO / "tasks").glob("weave-*/task.toml"))


def test_the_shipped_weave_tasks_are_all_annotated() -> None:
    assert len(WEAVE_TASKS) >= 9  # the 8 Tk/Chromium tasks and weave-dav-calc-pivot, at least


@pytest.mark.parametrize("path", WEAVE_TASKS, ids=lambda p: p.parent.name)
def test_every_shipped_weave_task_has_atoms_with_any_side_coverage(path: Path) -> None:
    spec = load_task(path.parent).spec
    assert p1_atom_problems(spec, path) == []
    assert coverage_levels(spec.atoms)["any_side"]
    # every P1 requirement names its catalogue atom, on the channel the atom is bound to
    for p1 in spec.p1_atoms:
        assert p1.atom in spec.atoms, p1.id


def _one_sided(atoms_line: str) -> TaskSpec:
    """weave-gam-lightsout's task.toml with its atoms line replaced (and the p1 atoms'
    citations dropped, which the schema would otherwise check against the list)."""
    lines = (REPO / "tasks" / "weave-gam-lightsout" / "task.toml").read_text().split("\n")
    lines = [atoms_line if line.startswith("atoms = ") else line for line in lines]
    lines = [line for line in lines if not line.startswith('atom = "')]
    return TaskSpec.model_validate(tomllib.loads("\n".join(lines)))


@pytest.mark.parametrize(
    ("atoms_line", "says"),
    [
        ("", "atoms: missing or empty; a weave task must name its P1 atoms (fix: list the atoms"),
        (
            'atoms = ["F2", "F3"]',
            "atoms: ['F2', 'F3'] has no GUI-bound atom, so any-side coverage fails (fix: add the"
            " GUI-bound atoms (families V I S: V1, V2, V3, I1, I2, I3, S1, S2...)",
        ),
        ('atoms = ["V1", "V2", "I3"]', "has no CLI-bound atom, so any-side coverage fails"),
    ],
)
def test_a_weave_task_without_atoms_or_one_sided_is_a_problem_naming_file_and_field(
    atoms_line: str, says: str
) -> None:
    path = Path("tasks/weave-x/task.toml")
    problems = p1_atom_problems(_one_sided(atoms_line), path)
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}: atoms: ")
    assert says in problems[0]


def test_a_longcli_task_has_no_atoms_gate() -> None:
    spec = load_task(REPO / "tasks" / "lc-bugfix-toolz").spec
    assert spec.atoms == () and p1_atom_problems(spec, Path("t.toml")) == []


def test_tasks_check_reports_the_p1_gate_naming_the_file(tmp_path: Path) -> None:
    """`realcli tasks check` (check_task) fails a weave bundle without atoms at the P1 gate,
    before any sandbox runs (the sandbox here refuses to start, ending the check there)."""
    root = tmp_path / "weave-gam-lightsout"
    shutil.copytree(REPO / "tasks" / "weave-gam-lightsout", root)
    toml = root / "task.toml"
    lines = toml.read_text().split("\n")
    toml.write_text(
        "\n".join(
            line
            for line in lines
            if not line.startswith("atoms = ") and not line.startswith('atom = "')
        )
    )

    def no_sandbox(options: SandboxOptions) -> Sandbox:
        raise TaskError("sandbox", None, "not started in this test", "none")

    health = check_task(root, no_sandbox)
    gate = next(g for g in health.gates if g.name == "P1 atoms (any-side coverage)")
    assert not gate.ok and not health.ok
    assert gate.detail.startswith(f"{toml}: atoms: missing or empty")
