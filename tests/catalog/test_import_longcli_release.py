"""`realcli tasks import longcli` on LongCLI-Bench as the release ships it: a `text` F2P set
from run-tests.sh (prose lines tolerated), a null P2P set, the `software-engineering`
category, the Dockerfile kept with its `FROM tb/make-pytest:v0` resolved in the release's
`longcli_dockerImage/`, `requires` from what the image chain installs, tests that read what
run-tests.sh writes flagged, an empty solution.sh as "no reference", a whole release folder
imported task by task."""

from __future__ import annotations

import importlib.util
import os
import shutil
from functools import partial
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.catalog.import_requires import base_dockerfile, read_image_chain
from realcli.catalog.import_textsets import produced_paths, read_statements
from realcli.catalog.importer import import_longcli_task
from realcli.util.errors import TaskError
from tests.conftest import run_realcli

RELEASE = Path(__file__).parent / "fixtures" / "longcli" / "release"
IMAGES = RELEASE / "longcli_dockerImage"
TASK = RELEASE / "tasks_long_cli" / "scorecard"
"""Modelled on the release's cs61_fa24_hog / 61810_* tasks: f2p text (a grader's
`Score: Total:` parsed by tests/f2p.py into f2p_score.json), p2p null, an empty solution.sh,
the completed copy in scorecard_finished/."""
SCORE_SETS = importlib.util.find_spec("realcli.grading.sets") is not None
"""Whether grading of score-file / text sets (the `scoresets` work) is in this checkout."""


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tasks = tmp_path_factory.mktemp("release") / "tasks"
    import_longcli_task(TASK, tasks, images_dir=IMAGES)
    return tasks / "scorecard"


def test_text_f2p_and_null_p2p_become_test_sets(imported: Path) -> None:
    spec = load_task(imported).spec
    assert spec.tests.p2p is None  # p2p = false
    f2p = spec.tests.f2p
    assert (f2p.parser, f2p.command, f2p.score_file) == (
        "text",
        'bash "$TEST_DIR/run-f2p.sh"',
        "test_output/f2p_score.json",
    )
    assert spec.substeps == ()
    assert (spec.category.value, spec.suites) == (
        "feature",
        ("imported", "category-software-engineering"),
    )
    assert sorted(p.name for p in (imported / "tests" / "f2p").iterdir()) == [
        "f2p.py",
        "grade.py",
        "score_utils.py",
    ]
    script = (imported / "tests" / "run-f2p.sh").read_text()
    assert 'TEST_DIR="${TEST_DIR:?realcli sets TEST_DIR}/f2p"' in script
    assert 'cp -a "$TEST_DIR/." "/app/scorecard/"' in script
    assert 'python3 "$TEST_DIR/f2p.py"' in script and '"/tests' not in script
    assert "# Create Test Directory  # (realcli: a prose line" in script
    report = (imported / "IMPORT_REPORT.md").read_text()
    assert "| run-tests.sh:7 | `Create Test Directory` | a prose line" in report
    assert "parser_results_p2p is null" in report
    assert "tests do not collect" not in report


def test_dockerfile_is_kept_with_its_base_image_and_requires(imported: Path) -> None:
    spec = load_task(imported).spec
    assert spec.environment.dockerfile == "environment/Dockerfile"
    dockerfile = (imported / "environment" / "Dockerfile").read_text()
    assert dockerfile.startswith("FROM tb/make-pytest:v0\n")  # left as the release wrote it
    assert "COPY repo/scorecard/ ./scorecard" in dockerfile
    assert "COPY repo/INSTRUCTION.md ./INSTRUCTION.md" in dockerfile
    assert spec.requires == ("make", "python3")  # from the base Dockerfile's apt-get line
    report = (imported / "IMPORT_REPORT.md").read_text()
    assert f"sandbox.docker.image_dirs=[{IMAGES}]" in report
    assert (
        f"`FROM tb/make-pytest:v0` is built from `{IMAGES}/Dockerfile.make-pytest-base`" in report
    )


def test_finished_copy_is_the_reference(imported: Path) -> None:
    task = load_task(imported)
    assert task.no_reference is None
    written = [a.path for a in task.reference_actions() if hasattr(a, "path")]
    assert written == ["scorecard/scores.py"]


def test_empty_solution_sh_is_no_reference_and_replay_says_so(tmp_path: Path) -> None:
    source = tmp_path / "src" / "scorecard"
    shutil.copytree(TASK, source)  # without scorecard_finished/ beside it
    result = import_longcli_task(source, tmp_path / "tasks")
    task = result.bundle
    assert (task.root / "solution" / "trajectory.jsonl").read_text() == ""
    assert task.reference_actions() == []
    assert task.no_reference is not None and "solution.sh is missing or empty" in task.no_reference
    with pytest.raises(TaskError) as err:
        task.replay_reference()
    assert str(err.value).startswith(
        f"{task.trajectory_path}: no reference solution to replay: solution.sh is missing"
    )
    assert "- no reference solution (solution/NO_REFERENCE)" in result.report_markdown


def test_run_tests_statements_keep_blocks_whole() -> None:
    """An if/else ladder (cmu15_445_p0's build-then-ctest form) and a subshell with a
    `find | while` loop are one statement each; the P2P line is its own."""
    text = (
        "#!/usr/bin/env bash\n"
        "cd proj/ && mkdir -p build\n"
        "if ! make -j$(nproc) 2>&1 | tee /app/test_output/f2p_output.txt; then\n"
        '    python3 "/tests/f2p.py"\n'
        "else\n"
        "    ctest -R 'A|B' 2>&1 | tee -a /app/test_output/f2p_output.txt\n"
        '    python3 "/tests/f2p.py"\n'
        "fi\n"
        "(\n"
        "  find /tests -type f -print0 | while IFS= read -r -d $'\\0' f; do\n"
        '      rm -f "proj/${f#/tests}"\n'
        "  done\n"
        ")\n"
        "uv run pytest /tests/p2p.py -rA > /app/test_output/p2p_output.txt 2>&1\n"
    )
    statements = read_statements(text).statements
    assert [(s.first, len(s.lines)) for s in statements] == [(1, 2), (3, 6), (9, 5), (14, 1)]
    assert [(s.mentions("f2p"), s.mentions("p2p")) for s in statements] == [
        (False, False),
        (True, False),
        (False, False),
        (False, True),
    ]
    assert produced_paths(text) == {
        "/app/test_output/f2p_output.txt",
        "/app/test_output/p2p_output.txt",
    }


def test_tests_that_read_what_run_tests_writes_are_flagged(tmp_path: Path) -> None:
    """terminal-bench_task's form: run-tests.sh runs commands into $OUT/<name>.status and the
    pytest F2P file asserts on those files, which realcli's pytest set never produces."""
    source = tmp_path / "src" / "tb-status"
    (source / "tests").mkdir(parents=True)
    (source / "task.yaml").write_text(
        "instruction: Make `tb --help` work.\ncategory: feature_add\nparser_name: long_cli\n"
        "parser_results_f2p: pytest\nparser_results_p2p: null\n"
    )
    (source / "run-tests.sh").write_text(
        '#!/usr/bin/env bash\nOUT="${OUT:-/app/test_output}"\nmkdir -p "$OUT"\n'
        'run_cmd() {\n  "$@" > "$OUT/$1.txt" 2>&1\n  echo $? > "$OUT/$1.status"\n}\n'
        "run_cmd tb --help\n"
        'uv run pytest -rA "$TEST_DIR/f2p.py" > "$OUT/f2p_output.txt" 2>&1\n'
    )
    (source / "tests" / "f2p.py").write_text(
        "from pathlib import Path\n\nOUT = Path('/app/test_output')\n\n\n"
        "def test_tb_help_exit_code_zero():\n    assert (OUT / 'tb.status').read_text() == '0'\n"
    )
    result = import_longcli_task(source, tmp_path / "tasks")
    assert "| tests/f2p.py | reads /app/test_output, which run-tests.sh writes |" in (
        result.report_markdown
    )
    assert result.bundle.spec.tests.p2p is None


def test_image_chain_maps_packages_to_programs(tmp_path: Path) -> None:
    """c-env's form: a RISC-V cross toolchain, versioned clang, gdb, uv from its installer."""
    images = tmp_path / "images"
    images.mkdir()
    (images / "Dockerfile.c-env-base").write_text(
        "FROM ubuntu:24.04\nRUN apt-get update && apt-get install -y --no-install-recommends \\\n"
        "    git build-essential cmake clang-15 zlib1g-dev gdb-multiarch qemu-system-misc \\\n"
        "    gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu fancy-tool \\\n"
        "    && rm -rf /var/lib/apt/lists/*\n"
        "RUN curl -LsSf https://astral.sh/uv/0.7.13/install.sh | sh\n"
    )
    task = tmp_path / "Dockerfile"
    task.write_text("FROM tb/c-env:v0\nWORKDIR /app\nRUN pip install pytest==8.4.1 numpy\n")
    assert base_dockerfile("tb/c-env:v0", images) == images / "Dockerfile.c-env-base"
    chain = read_image_chain(task, images)
    assert sorted(chain.programs) == [
        "clang-15", "cmake", "g++", "gcc", "gdb-multiarch", "git", "make", "pytest",
        "qemu-system-riscv64", "riscv64-linux-gnu-gcc", "riscv64-linux-gnu-ld",
        "riscv64-linux-gnu-objdump", "uv",
    ]  # fmt: skip
    assert chain.programs["riscv64-linux-gnu-gcc"].startswith("Dockerfile.c-env-base:2 apt")
    assert chain.packages_without_program == ["fancy-tool (Dockerfile.c-env-base:2)"]
    assert [(image, base) for image, base in chain.bases] == [
        ("tb/c-env:v0", images / "Dockerfile.c-env-base"),
        ("ubuntu:24.04", None),
    ]


def test_release_folder_imports_every_task_one_bad_never_stops_the_others(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    release = tmp_path / "release"
    shutil.copytree(RELEASE, release)
    broken = release / "tasks_long_cli" / "broken"
    broken.mkdir()
    (broken / "task.yaml").write_text("instruction: [unclosed\n")
    out = tmp_path / "tasks"
    proc = run_realcli(
        ["tasks", "import", "longcli", str(release), "--out", str(out)], realcli_env, tmp_path
    )
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith(f"failed   {broken}: {broken}/task.yaml: not valid YAML")
    assert lines[1] == (
        f"imported scorecard (5 not mapped): realcli tasks check scorecard --tasks-dir {out}"
    )
    assert lines[2] == f"1/2 tasks imported into {out}"
    assert sorted(p.name for p in out.iterdir()) == ["scorecard"]  # not the _finished copy
    report = (out / "scorecard" / "IMPORT_REPORT.md").read_text()
    assert "longcli_dockerImage/Dockerfile.make-pytest-base" in report  # found above the task


@pytest.mark.sandbox
@pytest.mark.skipif(not SCORE_SETS, reason="needs the score-file/text test sets (scoresets)")
def test_imported_release_task_passes_its_health_gates(imported: Path, tmp_path: Path) -> None:
    from realcli.runner.health import check_task
    from realcli.sandbox import make_sandbox

    health = check_task(imported, partial(make_sandbox, "local"))
    assert health.ok, [g for g in health.gates if not g.ok]
    assert health.initial_scores == {"f2p": 0.0}  # type: ignore[attr-defined]
    assert any("no P2P set" in w for w in health.warnings)  # type: ignore[attr-defined]
    # without the finished copy: the initial gates still run, the reference ones are skipped
    source = tmp_path / "src" / "scorecard"
    shutil.copytree(TASK, source)
    bare = import_longcli_task(source, tmp_path / "tasks").bundle
    health = check_task(bare.root, partial(make_sandbox, "local"))
    assert health.ok and any("no reference" in w for w in health.warnings)  # type: ignore[attr-defined]
    assert "f2p on reference" not in [g.name for g in health.gates]


@pytest.mark.docker
@pytest.mark.sandbox
def test_tasks_check_in_the_tasks_own_image_from_the_cli(imported: Path, tmp_path: Path) -> None:
    """`realcli tasks check --sandbox docker --image-dir` gates the imported task in the image
    its kept Dockerfile builds (FROM tb/make-pytest:v0, resolved through the release folder)."""
    args = ["tasks", "check", "scorecard", "--tasks-dir", str(imported.parent)]
    args += ["--sandbox", "docker", "--image-dir", str(IMAGES)]
    proc = run_realcli(args, dict(os.environ), tmp_path, timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "ok   scorecard: 1 F2P, 0 P2P tests" in proc.stdout
    assert "initial score f2p: 0" in proc.stdout
    bad = run_realcli([*args[:5], "--sandbox", "docker"], dict(os.environ), tmp_path)
    assert bad.returncode == 1  # without the release's base images FROM cannot resolve
    assert "tb/make-pytest:v0" in bad.stdout, bad.stdout[-2000:]
