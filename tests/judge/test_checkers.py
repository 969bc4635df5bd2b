"""Clause checkers on a real run: every clause of an honest replay of weave-gam-lightsout is
satisfied with cited evidence; copies of that run folder with one thing broken give false,
partial or unjudged for the right reason; a clause naming a missing checker or bad args is a
TaskError naming task.toml, the clause's field and the fix."""

from __future__ import annotations

import io
import json
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from realcli.catalog import load_task
from realcli.judge import CHECKERS, RunEvidence, load_run
from realcli.judge.checkers import check_clause, resolve_clause, validate_clauses
from realcli.judge.checkers.unjudged import REASON
from realcli.schema.judgement import ClauseJudgement
from realcli.schema.task_spec import Clause, TaskSpec
from realcli.util.errors import TaskError
from tests.conftest import REPO

TASKS = REPO / "tasks"
SOLVED = "evidence/solved.png"


def _load(run_dir: Path) -> RunEvidence:
    return load_run(run_dir, TASKS)


def _clause(run: RunEvidence, clause_id: str) -> ClauseJudgement:
    for i, d in enumerate(run.task.deliverables):
        for j, c in enumerate(d.clauses):
            if c.id == clause_id:
                return check_clause(run, i, j)
    raise AssertionError(f"no clause {clause_id}")


def _adhoc(run: RunEvidence, path: str, checker: str, args: dict[str, Any]) -> ClauseJudgement:
    """A clause the task does not have, decided on ``path`` of the run."""
    d = next(d for d in run.task.deliverables if d.path == path)
    clause = Clause(id="adhoc", text="adhoc", checker=checker, args=args)
    cls = CHECKERS.get(checker)
    return cls().check(run, d, clause, cls.Args.model_validate(args))


def _ws(run_dir: Path, rel: str) -> Path:
    return run_dir / "workspace" / rel


def _png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


# ------------------------------------------------------------------------ the honest run
def test_every_clause_of_the_replay_is_satisfied_with_evidence(lightsout_replay: Path) -> None:
    run = _load(lightsout_replay)
    assert run.bundle_root is not None and run.anchors is not None
    results = [
        check_clause(run, i, j)
        for i, d in enumerate(run.task.deliverables)
        for j in range(len(d.clauses))
    ]
    assert [(r.id, r.status) for r in results if r.status != "satisfied"] == []
    assert all(r.evidence for r in results)
    assert {r.checker for r in results} == {"test", "file", "value", "provenance", "visual"}
    by_id = {r.id: r for r in results}
    shot = by_id["solved-provenance"].evidence[0]
    assert shot.kind == "screenshot" and shot.seq is not None and shot.sha256 is not None
    assert "captured" in by_id["solved-provenance"].reason
    code = by_id["code-anchor"].evidence
    assert code[0].quote == "out/result.json /completion_code = LO-49E4-559D"
    assert code[1].quote == 'anchor completion_code = "LO-49E4-559D"'
    assert "differs from the first screenshot" in by_id["solved-banner"].reason


def test_no_anchors_leaves_value_clauses_unjudged(lightsout_replay: Path) -> None:
    run = load_run(lightsout_replay)  # no tasks dir: the hidden anchors are out of reach
    result = _clause(run, "code-anchor")
    assert result.status == "unjudged" and "no hidden anchors" in result.reason
    assert _clause(run, "boards").status == "satisfied"  # the verdict needs no bundle


# ------------------------------------------------------------------------ test
def test_test_clause_is_partial_false_and_never_satisfied_when_tampered(
    replay_copy: Path,
) -> None:
    path = replay_copy / "verdict.json"
    doc = json.loads(path.read_text())
    tests = doc["rounds"][-1]["tests"]
    first = next(t for t in tests if t["nodeid"].startswith("f2p/test_result.py::test_boards"))
    first["outcome"] = "failed"
    path.write_text(json.dumps(doc))
    result = _clause(_load(replay_copy), "boards")
    assert result.status == "partial" and result.reason.startswith("1/2 F2P tests")
    for t in tests:
        if t["nodeid"].startswith("f2p/test_result.py::test_boards"):
            t["outcome"] = "error"
    path.write_text(json.dumps(doc))
    assert _clause(_load(replay_copy), "boards").status == "false"
    for t in tests:
        t["outcome"] = "passed"
    doc["rounds"][-1]["tampered"] = ["conftest.py patched the report"]
    path.write_text(json.dumps(doc))
    result = _clause(_load(replay_copy), "code")
    assert result.status == "false" and "conftest.py patched the report" in result.reason


# ------------------------------------------------------------------------ file
def test_file_clause_rejects_bad_json_missing_keys_links_and_bad_images(
    replay_copy: Path,
) -> None:
    result_json = _ws(replay_copy, "out/result.json")
    good = result_json.read_text()
    result_json.write_text(good.replace("{", "[", 1))
    result = _clause(_load(replay_copy), "result-json")
    assert result.status == "false" and "not JSON (line 2 col 11" in result.reason
    result_json.write_text(json.dumps({"levels": []}))
    result = _clause(_load(replay_copy), "result-json")
    assert result.status == "false" and "missing key(s) completion_code" in result.reason
    result_json.unlink()
    os.symlink("/etc/hostname", result_json)
    result = _clause(_load(replay_copy), "result-json")
    assert result.status == "false" and "symbolic link" in result.reason
    solved = _ws(replay_copy, SOLVED)
    solved.write_bytes(solved.read_bytes()[:200])  # truncated PNG
    result = _clause(_load(replay_copy), "solved-png")
    assert result.status == "false" and "not a decodable image" in result.reason
    assert _clause(_load(replay_copy), "solved-banner").status == "false"


def test_file_clause_min_rows_and_bytes(lightsout_replay: Path) -> None:
    run = _load(lightsout_replay)
    ok = _adhoc(run, "lightsout/solver.py", "file", {"min_rows": 10, "min_bytes": 100})
    assert ok.status == "satisfied"
    short = _adhoc(run, "lightsout/solver.py", "file", {"min_rows": 100_000})
    assert short.status == "false" and "fewer than 100000" in short.reason


def test_file_clause_validates_against_a_hidden_json_schema(
    lightsout_replay: Path, tmp_path: Path
) -> None:
    run = _load(lightsout_replay)
    run.bundle_root = tmp_path  # a bundle whose tests/ holds the schema
    schema: dict[str, Any] = {
        "type": "object",
        "required": ["levels", "completion_code"],
        "properties": {
            "levels": {"type": "array", "minItems": 2},
            "completion_code": {"type": "string", "pattern": "^LO-[0-9A-F]{4}-[0-9A-F]{4}$"},
        },
    }
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "result.schema.json").write_text(json.dumps(schema))
    args = {"schema": "result.schema.json"}
    ok = _adhoc(run, "out/result.json", "file", args)
    assert ok.status == "satisfied"
    assert any(e.quote == "validates against result.schema.json" for e in ok.evidence)
    schema["properties"]["levels"]["minItems"] = 3
    (tmp_path / "tests" / "result.schema.json").write_text(json.dumps(schema))
    bad = _adhoc(run, "out/result.json", "file", args)
    assert bad.status == "false" and "at /levels: " in bad.reason
    run.bundle_root = None
    assert _adhoc(run, "out/result.json", "file", args).status == "unjudged"


# ------------------------------------------------------------------------ value
def test_value_clause_false_and_partial(replay_copy: Path) -> None:
    path = _ws(replay_copy, "out/result.json")
    doc = json.loads(path.read_text())
    doc["completion_code"] = "LO-0000-0000"
    doc["levels"][1]["rows"] = 9
    doc["levels"][0]["presses"] = list(reversed(doc["levels"][0]["presses"]))
    path.write_text(json.dumps(doc))
    run = _load(replay_copy)
    code = _clause(run, "code-anchor")
    assert code.status == "false" and code.reason.endswith("not equal")
    assert _clause(run, "presses1-anchor").status == "satisfied"  # order does not matter
    assert _clause(run, "rows2-anchor").status == "false"
    near = {"pointer": "/levels/1/rows", "anchor": "level2_size", "partial_tolerance": 1}
    assert _adhoc(run, "out/result.json", "value", near).status == "partial"
    missing = _adhoc(run, "out/result.json", "value", {"pointer": "/nope", "anchor": "x"})
    assert missing.status == "unjudged" and "anchor 'x'" in missing.reason
    gone = _adhoc(run, "out/result.json", "value", {"pointer": "/nope", "anchor": "level2_size"})
    assert gone.status == "false" and "no key 'nope'" in gone.reason
    text = {"regex": r"return\s+(None)", "anchor": "completion_code"}
    assert _adhoc(run, "lightsout/solver.py", "value", text).status == "false"


# ------------------------------------------------------------------------ provenance, visual
def test_provenance_crop_is_partial_drawn_is_false_and_visual_needs_genuine(
    replay_copy: Path,
) -> None:
    solved = _ws(replay_copy, SOLVED)
    capture = Image.open(io.BytesIO(solved.read_bytes())).convert("RGB")
    solved.write_bytes(_png(capture.crop((600, 500, 1000, 700))))  # the banner, cut out
    run = _load(replay_copy)
    crop = _clause(run, "solved-provenance")
    assert crop.status == "partial" and "derived" in crop.reason
    assert crop.evidence[0].kind == "screenshot" and crop.evidence[0].seq is not None
    assert _adhoc(run, SOLVED, "provenance", {"allow_crop": True}).status == "satisfied"
    assert _clause(run, "solved-banner").status == "false"  # not a genuine capture
    drawn = Image.new("RGB", (1024, 768), "#1c1f24")
    ImageDraw.Draw(drawn).rectangle((690, 600, 974, 664), fill="#2ea043")  # a painted banner
    solved.write_bytes(_png(drawn))
    run = _load(replay_copy)
    assert _clause(run, "solved-provenance").status == "false"
    banner = _clause(run, "solved-banner")
    assert banner.status == "false" and "not a genuine capture (unbacked" in banner.reason
    solved.unlink()
    assert _clause(_load(replay_copy), "solved-provenance").status == "false"


def test_visual_clause_on_the_first_screen_fails(replay_copy: Path) -> None:
    run = _load(replay_copy)
    first = run.screenshots[0]
    _ws(replay_copy, SOLVED).write_bytes(run.screenshot_bytes(first))  # genuine, but too early
    run = _load(replay_copy)
    assert _clause(run, "solved-provenance").status == "satisfied"
    banner = _clause(run, "solved-banner")
    assert banner.status == "false"
    assert "only 0.000 of region [690, 600, 284, 64]" in banner.reason
    assert f"identical to the first screenshot {first.path}" in banner.reason
    outside = {"region": [1000, 700, 100, 100], "colour": "#000000"}
    assert "lies outside the 1024x768 image" in _adhoc(run, SOLVED, "visual", outside).reason


def test_unjudged_clause(lightsout_replay: Path) -> None:
    result = _adhoc(_load(lightsout_replay), SOLVED, "unjudged", {})
    assert (result.status, result.reason, result.evidence) == ("unjudged", REASON, ())


# ------------------------------------------------------------------------ bad clauses
def _task_with(clause: dict[str, Any], anchors: bool = True) -> TaskSpec:
    doc = tomllib.loads((TASKS / "weave-gam-lightsout" / "task.toml").read_text())
    if not anchors:
        doc.pop("anchors")
    doc["deliverables"][0]["clauses"] = [clause]
    return TaskSpec.model_validate(doc)


@pytest.mark.parametrize(
    ("clause", "field", "message"),
    [
        (
            {"checker": "fiel"},
            "deliverables[0].clauses[0].checker",
            "no clause checker 'fiel' (clause 'c') (fix: did you mean 'file'? use one of",
        ),
        (
            {"checker": "file", "args": {"min_byte": 3}},
            "deliverables[0].clauses[0].args.min_byte",
            "unknown key (checker 'file') (fix: did you mean 'min_bytes'?",
        ),
        (
            {"checker": "file", "args": {"schema": "nope.json"}},
            "deliverables[0].clauses[0].args.schema",
            "tests/nope.json does not exist",
        ),
        (
            {"checker": "value", "args": {"pointer": "/a"}},
            "deliverables[0].clauses[0].args.anchor",
            "required key is missing (checker 'value') (fix: add 'anchor')",
        ),
        (
            {"checker": "value", "args": {"pointer": "/a", "anchor": "nope"}},
            "deliverables[0].clauses[0].args.anchor",
            "anchor 'nope' is not in tests/anchors.json",
        ),
        (
            {"checker": "value", "args": {"pointer": "a", "anchor": "completion_code"}},
            "deliverables[0].clauses[0].args.pointer",
            "JSON pointer 'a' must be empty or start with '/'",
        ),
        (
            {"checker": "visual", "args": {"region": [1, 2, 3, 4]}},
            "deliverables[0].clauses[0].args",
            "region needs a colour to measure (checker 'visual') (fix: add colour",
        ),
        (
            {"checker": "test"},
            "deliverables[0].clauses[0].test",
            "a test clause needs an F2P selector",
        ),
    ],
)
def test_a_bad_clause_names_task_toml_the_field_and_the_fix(
    clause: dict[str, Any], field: str, message: str
) -> None:
    task = _task_with({"id": "c", "text": "c", **clause})
    where = "runs/default/x/task.toml"
    with pytest.raises(TaskError) as info:
        resolve_clause(task, 0, 0, where, TASKS / "weave-gam-lightsout" / "tests")
    assert str(info.value).startswith(f"{where}: {field}: "), str(info.value)
    assert message in str(info.value)
    problems = validate_clauses(task, where, TASKS / "weave-gam-lightsout" / "tests")
    assert problems == [str(info.value)]


def test_a_value_clause_needs_an_anchors_file() -> None:
    clause = {"id": "c", "text": "c", "checker": "value"}
    task = _task_with({**clause, "args": {"pointer": "/a", "anchor": "b"}}, anchors=False)
    (problem,) = validate_clauses(task, "task.toml")
    assert "the task declares no anchors file" in problem
    assert "set anchors = 'anchors.json'" in problem


def test_every_shipped_task_names_registered_checkers_with_valid_args() -> None:
    for root in sorted(p for p in TASKS.iterdir() if (p / "task.toml").is_file()):
        bundle = load_task(root)
        assert validate_clauses(bundle.spec, str(root / "task.toml"), bundle.tests_dir) == []
