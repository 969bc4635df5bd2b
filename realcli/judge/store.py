"""Judgements on disk: ``<run folder>/judgements/<judge>.json``, and judging run folders.

A run can carry many judgements, one per judge name; each records its ``judge_key`` (the hash
of the judge's resolved config and version). Judging a run that already carries the same
judge_key is skipped unless forced. One run that cannot be judged never stops the others: it
gets one error line naming the file, the field and the fix.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from realcli.judge.base import JUDGES, Judge
from realcli.judge.context import JudgeInputError, load_run
from realcli.schema.judgement import Judgement
from realcli.schema.run_spec import JudgeSpec
from realcli.util.bounded import MIB, BadFile, read_json_file
from realcli.util.errors import RealcliError

__all__ = [
    "JUDGEMENTS_DIR",
    "JudgeOutcome",
    "judge_folder",
    "make_judge",
    "read_judgement",
    "read_judgements",
    "resolve_spec",
    "write_judgement",
]

JUDGEMENTS_DIR = "judgements"
MAX_JUDGEMENT_BYTES = 64 * MIB


def resolve_spec(spec: JudgeSpec, task_kind: str) -> JudgeSpec:
    """``kind: auto``: the trajectory judge for weave tasks, the tests judge for the others
    (named after the judge it resolves to)."""
    if spec.kind != "auto":
        return spec
    kind = "trajectory" if task_kind == "weave" else "tests"
    name = kind if spec.name == "auto" else spec.name
    return spec.model_copy(update={"kind": kind, "name": name})


def make_judge(spec: JudgeSpec, where: str = "config") -> Judge:
    cls = JUDGES.get(spec.kind, where, "judge.kind")
    return cls(spec)


def write_judgement(run_dir: Path, judgement: Judgement) -> Path:
    """Atomically write ``judgements/<judge>.json`` (sorted keys, so equal records are equal
    bytes)."""
    folder = run_dir / JUDGEMENTS_DIR
    if folder.is_symlink():
        raise JudgeInputError(str(folder), None, "is a link", "remove it; realcli writes here")
    folder.mkdir(exist_ok=True)
    path = folder / f"{judgement.judge}.json"
    data = json.dumps(judgement.model_dump(mode="json"), indent=2, sort_keys=True) + "\n"
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_judgement(path: Path) -> Judgement:
    try:
        doc = read_json_file(path, MAX_JUDGEMENT_BYTES)
        return Judgement.model_validate(doc)
    except (OSError, BadFile) as exc:
        raise JudgeInputError(
            str(path), None, f"unreadable ({exc})", "realcli judge --force"
        ) from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or None
        raise JudgeInputError(str(path), where, str(first["msg"]), "realcli judge --force") from exc


def read_judgements(run_dir: Path) -> tuple[list[Judgement], list[str]]:
    """Every readable judgement of a run, by judge name, and one line per unreadable one."""
    folder = run_dir / JUDGEMENTS_DIR
    out: list[Judgement] = []
    problems: list[str] = []
    if not folder.is_dir() or folder.is_symlink():
        return out, problems
    for path in sorted(folder.glob("*.json")):
        if path.is_symlink() or not path.is_file():
            continue
        try:
            out.append(read_judgement(path))
        except RealcliError as exc:
            problems.append(str(exc))
    return out, problems


@dataclass(frozen=True)
class JudgeOutcome:
    run_dir: Path
    status: Literal["judged", "skipped", "error"]
    judgement: Judgement | None = None
    error: str | None = None

    def line(self) -> str:
        name = self.run_dir.name
        if self.status == "error":
            return f"error    {name}: {self.error}"
        j = self.judgement
        assert j is not None
        if self.status == "skipped":
            return f"skip     {name} {j.task_id}: {j.judge} already judged ({j.judge_key})"
        if j.status != "judged":
            return f"judged   {name} {j.task_id}: {j.judge} {j.status}: {j.error}"
        hack = f" hack={','.join(j.hack_patterns)}" if j.is_hack else ""
        label = f" taxonomy={j.taxonomy.sub_class}" if j.taxonomy else ""
        return (
            f"judged   {name} {j.task_id}: {j.judge} final={j.final_score:.2f}"
            f" passed={int(j.passed)} (tau {j.tau:.2f}){hack}{label}"
        )


def judge_folder(
    run_dir: Path, spec: JudgeSpec, tasks_dir: Path | None, *, force: bool = False
) -> JudgeOutcome:
    """Judge one finished run folder with ``spec`` (never raises for a bad run folder). A run
    that already carries a judgement with the same judge_key over the same inputs is skipped
    unless ``force`` (a regraded verdict or a changed file is judged again)."""
    try:
        run = load_run(run_dir, tasks_dir)
        resolved = resolve_spec(spec, run.task.kind.value)
        judge = make_judge(resolved, f"conf/judge/{spec.name}.yaml")
        path = run_dir / JUDGEMENTS_DIR / f"{resolved.name}.json"
        if path.is_file() and not force:
            try:
                old = read_judgement(path)
            except RealcliError:
                old = None
            if (
                old is not None
                and old.judge_key == judge.key
                and old.inputs_digest == run.inputs_digest
            ):
                return JudgeOutcome(run_dir, "skipped", old)
        judgement = judge.judge(run)
        write_judgement(run_dir, judgement)
        return JudgeOutcome(run_dir, "judged", judgement)
    except RealcliError as exc:
        return JudgeOutcome(run_dir, "error", error=str(exc))
    except Exception as exc:  # a judge's own bug must not stop a sweep or the other runs
        return JudgeOutcome(
            run_dir,
            "error",
            error=f"{run_dir}: the judge failed ({type(exc).__name__}: {exc}) (fix: report it;"
            " `realcli judge --force` retries)",
        )
