"""`realcli tasks import harbor`: a Harbor (Terminal-Bench 2) task with two `[[steps]]` and a
`reward.json` of named rewards becomes a bundle whose one `score_file` F2P set is the trial
reward (every dimension and step kept in the score file); its verifier runs as Harbor's does
(test.sh per step, /logs/verifier and /tests mapped), min_reward gates later steps; a Harbor
folder found in the tasks dir is named as one."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.catalog.import_harbor import import_harbor_task
from realcli.util.errors import TaskError
from tests.conftest import run_realcli

HARBOR = Path(__file__).parent / "fixtures" / "harbor" / "notes-report"
"""Two steps (01-parse: reward.txt, min_reward 1.0; 02-report: reward.json with reward,
correctness and format), a shared tests/common.py, per-step solve.sh, [environment]
cpus / memory_mb / storage_mb, Dockerfile COPY of the task's input."""
SCORE_SETS = importlib.util.find_spec("realcli.grading.sets") is not None


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tasks = tmp_path_factory.mktemp("harbor") / "tasks"
    import_harbor_task(HARBOR, tasks)
    return tasks / "notes-report"


def test_harbor_task_maps_onto_a_bundle(imported: Path) -> None:
    spec = load_task(imported).spec
    assert (spec.id, spec.category.value, spec.workdir) == ("notes-report", "feature", "/app")
    assert spec.suites == ("imported", "harbor", "category-software-engineering")
    assert (spec.timeouts.agent_s, spec.timeouts.tests_s) == (300.0, 90.0)  # steps summed
    assert (spec.resources.memory_mb, spec.resources.disk_mb) == (2048, 4096)
    assert spec.tests.p2p is None
    f2p = spec.tests.f2p
    assert (f2p.parser, f2p.command, f2p.score_file, f2p.max_score) == (
        "score_file",
        'python3 "$TEST_DIR/harbor_verify.py"',
        ".realcli_verifier/score.json",
        1.0,
    )
    assert spec.environment.dockerfile == "environment/Dockerfile"
    assert "COPY repo/notes/ /app/notes/" in (imported / "environment" / "Dockerfile").read_text()
    assert (imported / "environment" / "repo" / "notes" / "notes.txt").is_file()
    assert spec.requires == ("bash", "python3")
    instruction = (imported / "instruction.md").read_text()
    assert instruction.startswith("This task has 2 steps. Do them in order")
    assert instruction.index("## Step 1 of 2: 01-parse") < instruction.index("## Step 2 of 2")
    plan = json.loads((imported / "tests" / "f2p" / "steps.json").read_text())
    assert plan["strategy"] == "mean"
    assert [(s["name"], s["tests"], s["timeout_s"], s["min_reward"]) for s in plan["steps"]] == [
        ("01-parse", "f2p/01-parse", 30.0, 1.0),
        ("02-report", "f2p/02-report", 60.0, None),
    ]
    step2 = imported / "tests" / "f2p" / "02-report"
    assert sorted(p.name for p in step2.iterdir()) == ["check_report.py", "common.py", "test.sh"]
    assert "${TEST_DIR}/check_report.py ${REALCLI_VERIFIER_LOGS}/reward.json" in (
        (step2 / "test.sh").read_text()
    )
    report = (imported / "IMPORT_REPORT.md").read_text()
    assert report.startswith(
        "# Import report: `notes-report`\n\nImported by `realcli tasks import harbor`"
    )
    assert "| task.toml: environment.cpus | 2 | realcli's [resources] has no CPU count" in report
    assert "| task.toml: [[steps]] | 2 steps | Harbor gives each step its own agent phase" in report
    assert "| `task.name` | realcli-fixtures/notes-report |" in report


def test_reference_runs_each_step_solve_sh_in_order(imported: Path) -> None:
    actions = [
        json.loads(ln)
        for ln in (imported / "solution" / "trajectory.jsonl").read_text().splitlines()
    ]
    shells = [a["cmd"] for a in actions if a["action"] == "shell"]
    assert shells == [
        'SOLUTION_DIR="$PWD/.realcli_solution/01-parse" bash .realcli_solution/01-parse/solve.sh',
        'SOLUTION_DIR="$PWD/.realcli_solution/02-report" bash .realcli_solution/02-report/solve.sh',
        "rm -rf .realcli_solution",
    ]
    solve = (imported / "solution" / "files" / "01-parse" / "solve.sh").read_text()
    assert "cp ${SOLUTION_DIR}/parse.py parse.py" in solve


def _workspace(imported: Path, tmp_path: Path, steps: list[str]) -> Path:
    """The initial repo with the reference of ``steps`` applied (outside a sandbox)."""
    ws = tmp_path / "ws"
    shutil.copytree(imported / "environment" / "repo", ws)
    for step in steps:
        files = imported / "solution" / "files" / step
        env = dict(os.environ, SOLUTION_DIR=str(files))
        subprocess.run(["bash", str(files / "solve.sh")], cwd=ws, env=env, check=True)
    return ws


def _verify(imported: Path, ws: Path) -> dict[str, object]:
    env = dict(os.environ, TEST_DIR=str(imported / "tests"))
    proc = subprocess.run(
        [sys.executable, str(imported / "tests" / "harbor_verify.py")],
        cwd=ws,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads((ws / ".realcli_verifier" / "score.json").read_text())  # type: ignore[no-any-return]


def test_verifier_scores_the_trial_reward_and_keeps_every_dimension(
    imported: Path, tmp_path: Path
) -> None:
    score = _verify(imported, _workspace(imported, tmp_path / "ref", ["01-parse", "02-report"]))
    assert (score["obtained"], score["max"], score["strategy"]) == (1.0, 1.0, "mean")
    # per-key mean over the steps, a key a step lacks counting 0 (Harbor's "mean")
    assert score["rewards"] == {"correctness": 0.5, "format": 0.5, "reward": 1.0}
    steps = score["steps"]
    assert isinstance(steps, list)
    assert [(s["name"], s["source"], s["rewards"]) for s in steps] == [
        ("01-parse", "reward.txt", {"reward": 1.0}),
        ("02-report", "reward.json", {"reward": 1.0, "correctness": 1.0, "format": 1.0}),
    ]
    initial = _verify(imported, _workspace(imported, tmp_path / "initial", []))
    assert initial["obtained"] == 0.0


def test_min_reward_gates_the_later_steps(imported: Path, tmp_path: Path) -> None:
    ws = _workspace(imported, tmp_path, ["01-parse", "02-report"])
    (ws / "notes.json").write_text("{}")  # step 1 now fails; step 2 cannot count
    score = _verify(imported, ws)
    steps = score["steps"]
    assert isinstance(steps, list)
    assert steps[0]["reward"] == 0.0
    assert steps[1] == {
        "name": "02-report",
        "skipped": "step 01-parse scored 0.0 < min_reward 1.0",
    }
    assert score["obtained"] == 0.0


def test_task_without_solve_sh_has_no_reference(tmp_path: Path) -> None:
    source = tmp_path / "src" / "notes-report"
    shutil.copytree(HARBOR, source)
    shutil.rmtree(source / "steps" / "02-report" / "solution")
    result = import_harbor_task(source, tmp_path / "tasks")
    assert result.bundle.reference_actions() == []
    assert result.bundle.no_reference == "no solution/solve.sh for step(s) 02-report"


def test_harbor_folder_in_the_tasks_dir_is_named_as_one(tmp_path: Path) -> None:
    shutil.copytree(HARBOR, tmp_path / "notes-report")
    with pytest.raises(TaskError) as err:
        load_task(tmp_path / "notes-report")
    assert str(err.value).startswith(
        f"{tmp_path}/notes-report/task.toml: this is a Harbor task: import it with"
        " `realcli tasks import harbor PATH` (fix: realcli tasks import harbor"
    )


def test_cli_imports_a_harbor_dataset_folder(tmp_path: Path, realcli_env: dict[str, str]) -> None:
    out = tmp_path / "tasks"
    proc = run_realcli(
        [
            "tasks",
            "import",
            "harbor",
            str(HARBOR.parent),
            "--out",
            str(out),
            "--category",
            "feature",
        ],
        realcli_env,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Import report: `notes-report`")
    assert (out / "notes-report" / "IMPORT_REPORT.md").is_file()


@pytest.mark.sandbox
@pytest.mark.skipif(not SCORE_SETS, reason="needs the score-file/text test sets (scoresets)")
def test_imported_harbor_task_passes_its_health_gates(imported: Path) -> None:
    from realcli.runner.health import check_task
    from realcli.sandbox import make_sandbox

    health = check_task(imported, partial(make_sandbox, "local"))
    assert health.ok, [g for g in health.gates if not g.ok]
    assert health.initial_scores == {"f2p": 0.0}  # type: ignore[attr-defined]


_DOCKER_PARTS = ("realcli.grading.sets", "realcli.sandbox.images", "realcli.sandbox.docker_image")


@pytest.mark.docker
@pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in _DOCKER_PARTS),
    reason="needs score-file sets, sandbox=docker and its image builder in the checkout",
)
def test_imported_fixtures_pass_their_gates_in_their_own_images(
    imported: Path, tmp_path: Path
) -> None:
    """sandbox=docker: each bundle runs in the image its kept Dockerfile builds (the LongCLI
    task's `FROM tb/make-pytest:v0` resolved through image_dirs to the release's base)."""
    from realcli.catalog.importer import import_longcli_task
    from realcli.runner.health import check_task
    from realcli.sandbox.docker_image import sandbox_factory  # type: ignore[import-not-found]
    from realcli.schema.run_spec import DockerSpec, SandboxSpec
    from tests.catalog.test_import_longcli_release import IMAGES, TASK

    longcli = import_longcli_task(TASK, tmp_path / "tasks", images_dir=IMAGES).bundle
    spec = SandboxSpec(kind="docker", docker=DockerSpec(image_dirs=(str(IMAGES),)))
    for task in (longcli, load_task(imported)):
        health = check_task(task.root, sandbox_factory(spec, task))
        assert health.ok, (task.id, [g for g in health.gates if not g.ok])
        assert health.initial_scores == {"f2p": 0.0}  # type: ignore[attr-defined]
