"""`realcli tasks import swebench`: SWE-bench rows over a real small repository (six 1.16.0,
made into a two-commit clone by fixtures/swebench/make_row.py) become bundles that pass their
health gates, replay and noop behave as the gates say, the agent cannot see the fix, and
every bad row is reported with its field while the others import."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path

import polars as pl
import pytest

from realcli.catalog import load_task
from realcli.catalog.import_swebench import import_swebench
from realcli.ledger import read_ledger
from realcli.runner.health import check_task
from realcli.runner.workspace import prepare_workspace, sandbox_options
from realcli.sandbox import make_sandbox
from realcli.schema.verdict import Verdict
from realcli.util.errors import RealcliError
from tests.conftest import env_for, run_realcli

FIXTURE = Path(__file__).parent / "fixtures" / "swebench"
TASK = "benjaminp__six-9001"
sys.path.insert(0, str(FIXTURE))
from make_row import make  # noqa: E402


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``rows.jsonl`` and ``repos/benjaminp__six`` (base commit, then the fix commit)."""
    return make(tmp_path_factory.mktemp("swebench")).parent


@pytest.fixture(scope="module")
def row(source: Path) -> dict[str, object]:
    return dict(json.loads((source / "rows.jsonl").read_text()))


@pytest.fixture(scope="module")
def imported(source: Path) -> Path:
    """The fixture row imported once for the whole module (the bundle's root)."""
    result = import_swebench([source / "rows.jsonl"], source / "tasks", repos=source / "repos")
    assert not result.problems, [p.line() for p in result.problems]
    (bundle,) = result.imported
    return bundle.root


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_row_maps_onto_a_bundle(imported: Path, row: dict[str, object]) -> None:
    spec = load_task(imported).spec
    assert spec.id == TASK and spec.category.value == "bugfix" and spec.suites == ("swebench",)
    assert spec.tests.f2p.location == "workspace" and spec.tests.f2p.patch == "test.patch"
    assert spec.tests.f2p.ids == ("test_six.py::test_ensure_str_decodes_bytes",)
    assert spec.tests.p2p is not None and spec.tests.p2p.ids == tuple(
        json.loads(str(row["PASS_TO_PASS"]))
    )
    assert (imported / "instruction.md").read_text() == str(row["problem_statement"])
    assert (imported / "tests" / "test.patch").read_text() == row["test_patch"]
    assert (imported / "solution" / "gold.patch").read_text() == row["patch"]
    assert not (imported / "environment" / "Dockerfile").exists()  # six needs no install
    report = (imported / "IMPORT_REPORT.md").read_text()
    assert "`realcli tasks import swebench`" in report
    assert "| hints_text | hints | SWE-bench gives the agent none" in report
    assert "| `hints_text` | The fast path for str is fine" in report


def test_repo_is_the_base_tree_without_history(
    imported: Path, source: Path, row: dict[str, object]
) -> None:
    repo = imported / "environment" / "repo"
    clone = source / "repos" / "benjaminp__six"
    assert not (repo / ".git").exists()
    assert (repo / "test_six.py").is_file()  # marked export-ignore in the clone: kept
    base = str(row["base_commit"])
    files = sorted(_git(clone, "ls-tree", "-r", "--name-only", base).splitlines())
    assert sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file()) == files
    assert (repo / "six.py").read_text() == _git(clone, "show", f"{base}:six.py") + "\n"
    assert "decodes_bytes" not in (repo / "test_six.py").read_text()


@pytest.mark.sandbox
def test_agent_sees_no_fix_in_git_or_files(imported: Path, source: Path, tmp_path: Path) -> None:
    """The workspace the agent gets: a one-commit git repo of the base, no later commit of the
    clone, no test patch, no gold patch."""
    bundle = load_task(imported)
    workspace = tmp_path / "ws"
    make = partial(make_sandbox, "local")
    prepare_workspace(bundle, workspace, make)
    fix = _git(source / "repos" / "benjaminp__six", "rev-parse", "main")
    sandbox = make(sandbox_options(bundle, workspace))
    log = sandbox.exec(["git", "log", "--all", "--format=%H %s"], timeout_s=30)
    assert log.returncode == 0, log.stderr
    (only,) = log.stdout.strip().splitlines()
    assert only.endswith(
        f"benjaminp/six at {_git(source / 'repos' / 'benjaminp__six', 'rev-parse', 'main~1')}"
    )
    shown = sandbox.exec(["git", "cat-file", "-e", fix], timeout_s=30)
    assert shown.returncode != 0
    status = sandbox.exec(["git", "status", "--porcelain"], timeout_s=30)
    assert status.returncode == 0 and status.stdout == ""
    texts = [p.read_bytes() for p in workspace.rglob("*") if p.is_file() and ".git" not in p.parts]
    assert not any(b"decodes_bytes" in t for t in texts)
    assert not list(workspace.rglob("*.patch"))


@pytest.mark.sandbox
def test_bundle_passes_every_health_gate(imported: Path) -> None:
    health = check_task(imported, partial(make_sandbox, "local"))
    assert health.ok, [g for g in health.gates if not g.ok]
    assert (health.n_f2p, health.n_p2p) == (1, 3)


@pytest.mark.sandbox
@pytest.mark.slow
def test_replay_passes_and_noop_fails_every_f2p(
    imported: Path, tmp_path: Path, cache_dir: Path
) -> None:
    env = {**env_for(tmp_path, cache_dir), "REALCLI_TASKS_DIR": str(imported.parent)}
    args = ["run", "--multirun", "suite=all", "model=replay,noop", "experiment_name=swe"]
    proc = run_realcli(args, env, tmp_path, 900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = set()
    for path in sorted((tmp_path / "runs" / "swe").glob("*/verdict.json")):
        verdict = Verdict.model_validate_json(path.read_text())
        model = read_ledger(path.parent / "ledger.jsonl").header.spec["model"]["name"]
        seen.add(model)
        assert verdict.status.value == "graded" and not verdict.tampered, verdict.error
        (final,) = verdict.rounds
        f2p = [t for t in final.tests if t.test_set == "f2p"]
        assert [t.nodeid for t in f2p] == ["test_six.py::test_ensure_str_decodes_bytes"]
        if model == "replay":
            assert verdict.passed, [(t.nodeid, t.outcome) for t in final.tests]
        else:
            assert all(t.outcome != "passed" for t in f2p) and verdict.p2p_pass
    assert seen == {"replay", "noop"}


def _rows(path: Path, *rows: dict[str, object] | str) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_every_problem_of_every_bad_row_is_named_and_good_rows_import(
    source: Path, row: dict[str, object], tmp_path: Path
) -> None:
    missing_repo = {**row, "instance_id": "nobody__gone-1", "repo": "nobody/gone"}
    bad_ids = {
        **row,
        "instance_id": "bad__ids-1",
        "FAIL_TO_PASS": "test_six.py::test_x",  # not JSON-encoded
        "PASS_TO_PASS": json.dumps(["test_add (tests.AddTests)"]),  # Django's runner form
    }
    several = {"instance_id": "several-1", "repo": "not a repo", "base_commit": "xyz"}
    no_commit = {**row, "instance_id": "six-ghost-1", "base_commit": "0" * 40}
    stale = {  # diffs made against another version of the files
        **row,
        "instance_id": "six-stale-1",
        "patch": str(row["patch"]).replace("return s.encode(", "return s.recode("),
        "test_patch": str(row["test_patch"]).replace("# PY3: bytes -> str", "# PY3: to str"),
    }
    rows = _rows(
        tmp_path / "rows.jsonl",
        missing_repo,
        bad_ids,
        "{not json",
        several,
        row,
        no_commit,
        stale,
    )
    result = import_swebench([rows], tmp_path / "tasks", repos=source / "repos")
    assert [b.id for b in result.imported] == [TASK]
    got = {(p.where.rsplit(":", 1)[1], p.instance_id, p.field) for p in result.problems}
    assert got == {
        ("1", "nobody__gone-1", "repo"),
        ("2", "bad__ids-1", "FAIL_TO_PASS"),
        ("2", "bad__ids-1", "PASS_TO_PASS"),
        ("3", None, None),
        ("4", "several-1", "repo"),
        ("4", "several-1", "base_commit"),
        ("4", "several-1", "patch"),
        ("4", "several-1", "test_patch"),
        ("4", "several-1", "problem_statement"),
        ("4", "several-1", "FAIL_TO_PASS"),
        ("6", "six-ghost-1", "base_commit"),
        ("7", "six-stale-1", "patch"),
        ("7", "six-stale-1", "test_patch"),
    }
    lines = {p.field: p.line() for p in result.problems if p.instance_id == "bad__ids-1"}
    assert lines["FAIL_TO_PASS"].startswith(f"{rows}:2 (bad__ids-1): FAIL_TO_PASS: not a JSON")
    assert "not pytest node ids" in lines["PASS_TO_PASS"] and "runtests.py" in lines["PASS_TO_PASS"]
    gone = next(p for p in result.problems if p.instance_id == "nobody__gone-1")
    assert "no git clone of nobody/gone" in gone.problem and "nobody__gone" in gone.fix
    assert sorted(p.name for p in (tmp_path / "tasks").iterdir()) == [TASK]  # nothing half-made


def test_parquet_file_and_dataset_folder(
    source: Path, row: dict[str, object], tmp_path: Path
) -> None:
    frame = pl.DataFrame([row])
    frame.write_parquet(tmp_path / "test-00000-of-00001.parquet")
    folder = tmp_path / "saved"  # datasets' save_to_disk: Arrow IPC stream + JSON metadata
    folder.mkdir()
    frame.with_columns(pl.lit("six-arrow-1").alias("instance_id")).write_ipc_stream(
        folder / "data-00000-of-00001.arrow"
    )
    (folder / "dataset_info.json").write_text("{}")
    (folder / "state.json").write_text("{}")
    sources = [tmp_path / "test-00000-of-00001.parquet", folder]
    result = import_swebench(sources, tmp_path / "tasks", repos=source / "repos")
    assert not result.problems, [p.line() for p in result.problems]
    assert sorted(b.id for b in result.imported) == [TASK, "six-arrow-1"]


def test_unknown_install_is_reported_and_install_option_writes_the_image(
    source: Path, row: dict[str, object], tmp_path: Path
) -> None:
    repos = tmp_path / "repos"
    shutil.copytree(source / "repos" / "benjaminp__six", repos / "acme" / "widget")
    other = {**row, "instance_id": "acme__widget-7", "repo": "acme/widget", "version": "2.0"}
    rows = _rows(tmp_path / "rows.jsonl", other)
    plain = import_swebench([rows], tmp_path / "plain", repos=repos)
    report = plain.reports["acme__widget-7"]
    assert "install commands unknown for repo acme/widget version 2.0" in report
    assert "give --install" in report
    given = import_swebench(
        [rows], tmp_path / "given", repos=repos, install=("python -m pip install -e .",)
    )
    (bundle,) = given.imported
    assert bundle.spec.environment.dockerfile == "environment/Dockerfile"
    dockerfile = (bundle.root / "environment" / "Dockerfile").read_text().splitlines()
    assert dockerfile[1:] == [
        "FROM realcli-base:bookworm",
        "WORKDIR /app",
        "COPY repo /app",
        "RUN python -m pip install -e .",
    ]
    assert "downloads packages: realcli builds images without network" in given.reports[bundle.id]


def test_missing_repos_folder_is_a_command_line_error(source: Path, tmp_path: Path) -> None:
    with pytest.raises(RealcliError, match=r"--repos: .* is not a folder"):
        import_swebench([source / "rows.jsonl"], tmp_path / "t", repos=tmp_path / "none")


def test_cli_imports_and_exits_1_naming_bad_rows(
    source: Path, row: dict[str, object], tmp_path: Path, realcli_env: dict[str, str]
) -> None:
    rows = _rows(tmp_path / "rows.jsonl", row, {**row, "instance_id": "x-1", "repo": "a/b"})
    out = tmp_path / "tasks"
    args = ["tasks", "import", "swebench", str(rows), "--repos", str(source / "repos")]
    proc = run_realcli([*args, "--out", str(out)], realcli_env, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == [
        f"imported {TASK} into {out / TASK} (see its IMPORT_REPORT.md)",
        f"1 imported, 1 problem(s); check them: realcli tasks check --tasks-dir {out}",
    ]
    assert proc.stderr.startswith(f"error: {rows}:2 (x-1): repo: no git clone of a/b under ")


def test_no_pass_to_pass_is_no_p2p_set_and_duplicates_and_existing_bundles_are_named(
    source: Path, row: dict[str, object], tmp_path: Path
) -> None:
    lone = {**row, "instance_id": "six-lone-1", "PASS_TO_PASS": "[]"}
    rows = _rows(tmp_path / "rows.jsonl", lone, lone)
    first = import_swebench([rows], tmp_path / "tasks", repos=source / "repos")
    (bundle,) = first.imported
    assert bundle.spec.tests.p2p is None and not (bundle.root / "tests" / "p2p").exists()
    assert "empty: p2p = false" in first.reports["six-lone-1"]
    (dup,) = first.problems
    assert (dup.where, dup.field) == (f"{rows}:2", "instance_id")
    assert dup.problem == f"the same task id as {rows}:1"
    again = import_swebench(
        [rows.with_name("one.jsonl")], tmp_path / "tasks", repos=source / "repos"
    )
    assert again.problems[0].problem.startswith("no such file or folder")
    _rows(tmp_path / "one.jsonl", lone)
    again = import_swebench([tmp_path / "one.jsonl"], tmp_path / "tasks", repos=source / "repos")
    assert [p.fix for p in again.problems] == ["pass --force"]
    forced = import_swebench(
        [tmp_path / "one.jsonl"], tmp_path / "tasks", repos=source / "repos", force=True
    )
    assert [b.id for b in forced.imported] == ["six-lone-1"] and not forced.problems
