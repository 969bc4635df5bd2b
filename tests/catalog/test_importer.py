"""`realcli tasks import longcli`: LongCLI-Bench and Terminal-Bench 1 task folders become bundles
that load, pass (or, for what cannot be mapped, visibly fail) the health gates, and report every
item that could not be mapped; bad input is one error naming the file, the field and the fix,
with nothing written."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from functools import partial
from pathlib import Path

import pytest

from realcli.catalog import load_task
from realcli.catalog.import_scripts import blocker, pytest_call
from realcli.catalog.importer import import_longcli_task
from realcli.runner.health import check_task
from realcli.sandbox import make_sandbox
from realcli.util.errors import TaskError
from tests.conftest import run_realcli

FIXTURES = Path(__file__).parent / "fixtures" / "longcli"
LONGCLI = FIXTURES / "stock-report"
"""LongCLI-Bench form: INSTRUCTION.md, Dockerfile (WORKDIR, COPY, RUN apt-get/pip/offline),
run-tests.sh, tests/f2p.py + p2p.py + a helper module and data, solution.sh, a small repo."""
TB1 = FIXTURES / "csv-dedupe"
"""Terminal-Bench 1 form: task.yaml instruction, `COPY . .`, tests/test_outputs.py,
solution.yaml (with a tmux keystroke), a two-service docker-compose.yaml."""


def _not_mapped(markdown: str) -> list[dict[str, str]]:
    """The rows of the report's *Not mapped* table."""
    section = markdown.split("## Not mapped", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 4 and cells[0] not in ("source", "---"):
            rows.append(dict(zip(("source", "item", "why", "fix"), cells, strict=True)))
    return rows


def _row(rows: list[dict[str, str]], source: str, item: str) -> dict[str, str]:
    found = [r for r in rows if r["source"] == source and item in r["item"]]
    assert len(found) == 1, f"no single row {source} / {item} in {rows}"
    return found[0]


def _source_copy(tmp_path: Path, fixture: Path, name: str | None = None) -> Path:
    dest = tmp_path / "src" / (name or fixture.name)
    shutil.copytree(fixture, dest)
    return dest


def _actions(bundle: Path) -> list[dict[str, object]]:
    lines = (bundle / "solution" / "trajectory.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


# ------------------------------------------------------------------------ LongCLI-Bench form


def test_longcli_task_maps_onto_a_bundle(tmp_path: Path) -> None:
    result = import_longcli_task(LONGCLI, tmp_path / "tasks")
    root = tmp_path / "tasks" / "stock-report"
    spec = result.bundle.spec
    assert result.bundle.root == root
    assert (spec.id, spec.category.value, spec.workdir) == ("stock-report", "feature", "/app")
    assert spec.title == "Stock report for stockkit"
    assert spec.suites == ("imported",)
    assert spec.provenance == (LONGCLI.resolve().as_uri(),)
    assert (spec.timeouts.agent_s, spec.timeouts.tests_s) == (1800.0, 120.0)
    assert [(s.id, s.tests, s.depends_on) for s in spec.substeps] == [
        (
            "test_low_stock_lists_items_below_threshold",
            ("f2p/test_f2p.py::test_low_stock_lists_items_below_threshold",),
            (),
        ),
        ("TestSummary", ("f2p/test_f2p.py::TestSummary",), ()),
        ("test_cli_report_command", ("f2p/test_f2p.py::test_cli_report_command",), ()),
    ]
    assert spec.substeps[1].title == "summary() totals quantity and value per category"
    # the instruction is task.yaml's; INSTRUCTION.md reaches the workspace through COPY
    assert (root / "instruction.md").read_text().startswith("Open and follow the detailed")
    repo = root / "environment" / "repo"
    assert (repo / "INSTRUCTION.md").read_text() == (LONGCLI / "INSTRUCTION.md").read_text()
    assert (repo / "stockkit" / "stockkit" / "cli.py").is_file()
    assert sorted(p.name for p in repo.iterdir()) == ["INSTRUCTION.md", "stockkit"]
    setup = (root / "environment" / "setup.sh").read_text()
    assert "(cd /app && cd stockkit && python3 tools/make_sample.py data/sample.csv)" in setup
    assert 'export STOCKKIT_HOME="/app/stockkit"' in setup
    assert not re.search(r"apt-get|pip install|/var/lib", setup)
    tests = root / "tests"
    assert (tests / "f2p" / "test_f2p.py").read_text() == (LONGCLI / "tests" / "f2p.py").read_text()
    assert (tests / "p2p" / "test_p2p.py").read_text() == (LONGCLI / "tests" / "p2p.py").read_text()
    for test_set in ("f2p", "p2p"):
        assert (tests / test_set / "stock_helpers.py").is_file()
        assert (tests / test_set / "data" / "expected_summary.json").is_file()
    assert (root / "solution" / "solution.sh").read_text() == (LONGCLI / "solution.sh").read_text()
    actions = _actions(root)
    assert [a["action"] for a in actions] == ["write", "shell", "message"]
    assert actions[0] == {
        "action": "write",
        "path": ".realcli_solution.sh",
        "content_from": "solution.sh",
        "note": "The imported task's reference solution (solution.sh).",
    }
    assert str(actions[1]["cmd"]).startswith("bash .realcli_solution.sh;")
    assert load_task(root).reference_actions()[0].content == (LONGCLI / "solution.sh").read_text()


def test_longcli_report_names_every_unmapped_item_with_a_fix(tmp_path: Path) -> None:
    result = import_longcli_task(LONGCLI, tmp_path / "tasks")
    written = (result.bundle.root / "IMPORT_REPORT.md").read_text()
    assert written == result.report_markdown
    assert result.check_command == f"realcli tasks check stock-report --tasks-dir {tmp_path}/tasks"
    assert result.check_command in written
    rows = _not_mapped(written)
    assert all(r["why"] and r["fix"] for r in rows), rows
    assert "host" in _row(rows, "Dockerfile:3", "FROM tb/make-pytest:v0")["fix"]
    _row(rows, "Dockerfile:8", "apt-get update")
    _row(rows, "Dockerfile:8", "apt-get install -y --no-install-recommends make")
    assert "outside the workdir" in _row(rows, "Dockerfile:8", "rm -rf /var/lib/apt/lists/*")["why"]
    pip = _row(rows, "Dockerfile:10", "pip install --no-cache-dir pytest==8.4.1")
    assert "Python environment realcli runs from" in pip["fix"]
    _row(rows, "Dockerfile:16", "ENV STOCKKIT_HOME=/app/stockkit")
    _row(rows, "run-tests.sh:4", "source /opt/pytest-proj/.venv/bin/activate")
    _row(rows, "run-tests.sh:5", "installs pytest==8.4.1 pytest-timeout==2.3.1")
    assert "addopts" in _row(rows, "run-tests.sh:11", "--timeout=60")["fix"]
    assert "depends_on" in _row(rows, "tests/", "3 sub-steps")["why"]
    assert len(rows) == 10, rows  # and nothing else: CMD sleep infinity, -rA are not problems
    files = written.split("## Source files", 1)[1].split("## Not mapped", 1)[0]
    for source in ("task.yaml", "Dockerfile", "run-tests.sh", "solution.sh", "tests/f2p.py"):
        assert f"| `{source}` |" in files
    assert "| `stockkit/ (8 files)` | COPY (Dockerfile:13) into /app/stockkit" in files
    assert "not used" not in files.replace("docker-compose.yaml` | not used", "")
    assert "| `difficulty` | medium |" in written


@pytest.mark.sandbox
def test_imported_longcli_task_passes_every_health_gate(tmp_path: Path) -> None:
    result = import_longcli_task(LONGCLI, tmp_path / "tasks")
    health = check_task(result.bundle.root, partial(make_sandbox, "local"))
    assert health.ok, [g for g in health.gates if not g.ok]
    assert (health.n_f2p, health.n_p2p) == (4, 2)
    assert [g.name for g in health.gates] == [
        "schema",
        "clauses name registered checkers",
        "preflight (required programs)",
        "grading integrity on initial",
        "f2p on initial",
        "p2p on initial",
        "grading integrity on reference",
        "f2p on reference",
        "p2p on reference",
        "sub-step coverage",
    ]


# ------------------------------------------------------------------------ Terminal-Bench 1 form


def test_tb1_task_maps_tests_and_solution_yaml(tmp_path: Path) -> None:
    result = import_longcli_task(TB1, tmp_path / "tasks", category="from_scratch")
    root = result.bundle.root
    spec = result.bundle.spec
    assert (spec.category.value, spec.workdir) == ("from_scratch", "/app")
    assert (spec.timeouts.agent_s, spec.timeouts.tests_s) == (360.0, 60.0)
    assert spec.title.startswith("Write a Python script `/app/dedupe.py`")
    assert [s.id for s in spec.substeps] == [
        "test_script_exists",
        "test_output_is_deduplicated_and_sorted",
        "test_script_drops_negative_amounts",
    ]
    assert (root / "tests" / "f2p" / "test_outputs.py").is_file()
    assert (root / "tests" / "p2p" / "README.md").is_file()
    assert not list((root / "tests" / "p2p").glob("test_*.py"))
    # `COPY . .` brings the data, not the task's own files
    repo = root / "environment" / "repo"
    assert sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*")) == [
        "data",
        "data/purchases.csv",
    ]
    assert not (root / "environment" / "setup.sh").exists()  # every RUN needs what realcli lacks
    actions = _actions(root)
    assert [a["action"] for a in actions] == ["shell", "shell", "shell", "message"]
    assert actions[0] == {"action": "shell", "cmd": "mkdir -p out", "timeout_s": 180.0}
    assert str(actions[1]["cmd"]).startswith("cat > dedupe.py <<'EOF'\nimport csv")
    assert actions[2]["timeout_s"] == 30.0
    rows = _not_mapped(result.report_markdown)
    assert "tmux keys" in _row(rows, "solution.yaml[3]", "keystrokes 'C-d'")["why"]
    _row(rows, "Dockerfile:10", "mkdir -p /output")
    _row(rows, "docker-compose.yaml: services.cache", "service cache (redis:7-alpine)")
    _row(rows, "docker-compose.yaml: services.client.environment", "DEDUPE_STRICT=1")
    _row(rows, "run-tests.sh:8", "curl -LsSf https://astral.sh/uv/0.9.5/install.sh")
    _row(rows, "run-tests.sh:18", "installs pytest==8.4.1 pytest-json-ctrf==0.3.5")
    assert "tests/p2p/test_*.py" in _row(rows, "tests/", "no pass-to-pass tests")["fix"]
    assert "| `category (source)` | data-processing |" in result.report_markdown


@pytest.mark.sandbox
def test_imported_tb1_task_has_no_p2p_set(tmp_path: Path) -> None:
    """TB1 has one test set: the bundle says p2p = false; F2P fails on the initial state and
    passes after the solution.yaml commands. With score-file/text test sets in the checkout
    (scoresets) the missing P2P set is a warning; before them, the two P2P gates fail with
    "no test collected" (never "tests do not collect")."""
    result = import_longcli_task(TB1, tmp_path / "tasks", category="from_scratch")
    assert result.bundle.spec.tests.p2p is None
    health = check_task(result.bundle.root, partial(make_sandbox, "local"))
    failing = {g.name: g.detail for g in health.gates if not g.ok}
    if importlib.util.find_spec("realcli.grading.sets") is not None:
        assert not failing, failing
        assert any("no P2P set" in w for w in health.warnings)  # type: ignore[attr-defined]
    else:
        assert set(failing) == {"p2p on initial", "p2p on reference"}, failing
        assert all("no test collected" in d for d in failing.values())
    assert health.n_f2p == 3


# ------------------------------------------------------------------------ other mappings


def test_skip_marked_tests_get_no_substep_and_are_reported(tmp_path: Path) -> None:
    source = _source_copy(tmp_path, LONGCLI)
    f2p = source / "tests" / "f2p.py"
    f2p.write_text(
        f2p.read_text() + "\n\n@pytest.mark.skip(reason='not scored')\ndef test_dev_helper():\n"
        "    assert True\n"
    )
    result = import_longcli_task(source, tmp_path / "tasks")
    assert "test_dev_helper" not in [s.id for s in result.bundle.spec.substeps]
    row = _row(_not_mapped(result.report_markdown), "tests/f2p.py", "test_dev_helper")
    assert "delete it from tests/f2p/test_f2p.py" in row["fix"]


def test_finished_copy_becomes_write_actions_when_solution_sh_is_empty(tmp_path: Path) -> None:
    """LongCLI-Bench ships `<task>` and `<task>_finished`, with an empty solution.sh."""
    source = _source_copy(tmp_path, LONGCLI)
    (source / "solution.sh").write_text("#!/bin/bash\n# can be empty\n")
    finished = _source_copy(tmp_path, LONGCLI, "stock-report_finished")
    pkg = finished / "stockkit" / "stockkit"
    (pkg / "report.py").write_text("def low_stock(items, threshold):\n    return []\n")
    (pkg / "cli.py").write_text((pkg / "cli.py").read_text().replace("list the items", "list"))
    (finished / "stockkit" / "README.md").unlink()
    result = import_longcli_task(source, tmp_path / "tasks")
    cli, report = "stockkit/stockkit/cli.py", "stockkit/stockkit/report.py"
    assert _actions(result.bundle.root)[:-1] == [
        {"action": "write", "path": cli, "content_from": f"files/{cli}"},
        {"action": "write", "path": report, "content_from": f"files/{report}"},
        {"action": "shell", "cmd": "rm -f -- stockkit/README.md"},
    ]
    actions = result.bundle.reference_actions()
    assert actions[1].content == (pkg / "report.py").read_text()  # type: ignore[union-attr]


def test_force_replaces_an_existing_bundle(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    import_longcli_task(LONGCLI, tasks)
    with pytest.raises(TaskError, match=r"stock-report: already exists \(fix: pass --force"):
        import_longcli_task(LONGCLI, tasks)
    (tasks / "stock-report" / "stale.txt").write_text("from before")
    import_longcli_task(LONGCLI, tasks, force=True)
    assert not (tasks / "stock-report" / "stale.txt").exists()
    assert sorted(p.name for p in tasks.iterdir()) == ["stock-report"]  # no staging left


def test_id_option_names_the_bundle(tmp_path: Path) -> None:
    result = import_longcli_task(LONGCLI, tmp_path / "tasks", task_id="lc-stock")
    assert result.bundle.root == tmp_path / "tasks" / "lc-stock"
    assert result.bundle.spec.id == "lc-stock"


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("python3 tools/gen.py > data/x.csv", None),
        ("cd /app/src && make", None),
        ("apt-get install -y make", "needs the network (system packages)"),
        ("python3 -m pip install -e .", "needs the network (Python packages)"),
        ("uv sync --frozen", "needs the network (Python packages)"),
        ("curl -fsSL https://x.sh | bash", "needs the network (a download)"),
        ("git clone https://example.org/r.git", "needs the network (a git remote)"),
        ("echo hi > /etc/motd", "writes /etc/motd, outside the workdir /app"),
        ("mkdir -p /tmp/scratch", None),
        ("useradd tester", "needs root on the image's system"),
    ],
)
def test_run_commands_are_sorted_into_setup_or_report(command: str, why: str | None) -> None:
    assert blocker(command, "/app", "/app") == why


def test_pytest_calls_split_output_options_from_the_rest() -> None:
    call = pytest_call('uv run pytest "$TEST_DIR/f2p.py" -rA -k "not slow" --tb short -x 2>&1')
    assert call is not None
    assert call.paths == ["$TEST_DIR/f2p.py"]
    assert call.ignored == ["-rA", "--tb short"]
    assert call.not_honoured == ["-k not slow", "-x"]
    assert pytest_call("uvx -w pytest==8.4.1 pytest /tests -q") is not None
    assert pytest_call("pip install pytest") is None


# ------------------------------------------------------------------------ bad input


def _breaks(tmp_path: Path, source: Path, **options: str) -> str:
    """Import ``source``; it must raise, and leave the tasks dir untouched (absent)."""
    tasks = tmp_path / "tasks"
    with pytest.raises(TaskError) as err:
        import_longcli_task(source, tasks, **options)  # type: ignore[arg-type]
    assert not tasks.exists(), sorted(tasks.rglob("*"))
    return str(err.value)


def test_missing_task_yaml(tmp_path: Path) -> None:
    source = _source_copy(tmp_path, LONGCLI)
    (source / "task.yaml").unlink()
    message = _breaks(tmp_path, source)
    assert message.startswith(f"{source}/task.yaml: missing (fix: give a LongCLI-Bench")


def test_unparsable_task_yaml_names_the_line(tmp_path: Path) -> None:
    source = _source_copy(tmp_path, LONGCLI)
    (source / "task.yaml").write_text("instruction: [unclosed\ncategory: bug_fix\n")
    message = _breaks(tmp_path, source)
    assert message.startswith(f"{source}/task.yaml: not valid YAML (")
    assert "at line 2" in message and "(fix: fix the syntax)" in message


def test_no_instruction(tmp_path: Path) -> None:
    source = _source_copy(tmp_path, TB1)
    text = (source / "task.yaml").read_text()
    (source / "task.yaml").write_text(re.sub(r"instruction: \|\n(  .*\n|\n)*", "", text))
    message = _breaks(tmp_path, source, category="bugfix")
    assert message.startswith(f"{source}/task.yaml: instruction: no instruction")
    assert "fix: write what the agent must do in task.yaml `instruction` or in INSTRUCTION.md" in (
        message
    )


def test_unknown_category_takes_the_default_and_is_kept_as_a_suite(tmp_path: Path) -> None:
    """TB1's `data-processing` (like the release's `software-engineering`) is no LongCLI-Bench
    category: it becomes realcli's default, or the --category default, never an error."""
    plain = import_longcli_task(TB1, tmp_path / "a")
    assert plain.bundle.spec.category.value == "feature"
    assert plain.bundle.spec.suites == ("imported", "category-data-processing")
    row = _row(_not_mapped(plain.report_markdown), "task.yaml: category", "'data-processing'")
    assert "mapped to feature, realcli's default" in row["why"]
    assert "pass --category" in row["fix"]
    chosen = import_longcli_task(TB1, tmp_path / "b", category="bugfix")
    assert chosen.bundle.spec.category.value == "bugfix"
    assert "mapped to bugfix, the --category default" in chosen.report_markdown
    assert "--category: 'ops' is not a category" in _breaks(tmp_path, TB1, category="ops")


def test_no_tests(tmp_path: Path) -> None:
    source = _source_copy(tmp_path, TB1)
    shutil.rmtree(source / "tests")
    message = _breaks(tmp_path, source, category="feature")
    assert message == (
        f"{source}/tests: missing: the task has no tests (fix: add the task's tests)"
    )


def test_f2p_file_without_test_functions(tmp_path: Path) -> None:
    source = _source_copy(tmp_path, LONGCLI)
    (source / "tests" / "f2p.py").write_text("import json\nprint('score')\n")
    message = _breaks(tmp_path, source)
    assert message.startswith(f"{source}/tests/f2p.py: no pytest tests")


def test_every_problem_of_a_task_is_named_in_one_error(tmp_path: Path) -> None:
    """A null F2P set and a missing P2P file: one error names both (not one per run)."""
    source = _source_copy(tmp_path, LONGCLI)
    yaml_path = source / "task.yaml"
    yaml_path.write_text(
        yaml_path.read_text().replace("parser_results_f2p: pytest", "parser_results_f2p: null")
    )
    (source / "tests" / "p2p.py").unlink()
    message = _breaks(tmp_path, source)
    assert message.startswith(f"{source}: 2 problems: (1) {yaml_path}: parser_results_f2p: null")
    assert f"(2) {source}/tests/p2p.py: missing: parser_results_p2p is pytest" in message
    assert "give it an F2P set" in message and "set parser_results_p2p: null" in message


# ------------------------------------------------------------------------ command line


def test_cli_prints_the_report_and_the_check_command(
    tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    out = tmp_path / "tasks"
    proc = run_realcli(
        ["tasks", "import", "longcli", str(LONGCLI), "--out", str(out)], realcli_env, tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Import report: `stock-report`")
    assert proc.stdout.rstrip().endswith(
        f"check it: realcli tasks check stock-report --tasks-dir {out}"
    )
    assert (out / "stock-report" / "IMPORT_REPORT.md").read_text() in proc.stdout


def test_cli_bad_input_exits_2_with_one_line(tmp_path: Path, realcli_env: dict[str, str]) -> None:
    out = tmp_path / "tasks"
    source = _source_copy(tmp_path, TB1)
    (source / "task.yaml").write_text("instruction: [unclosed\n")
    args = ["tasks", "import", "longcli", str(source), "--out", str(out)]
    proc = run_realcli(args, realcli_env, tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"realcli: error: {source}/task.yaml: not valid YAML")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()
