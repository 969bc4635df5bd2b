"""The calibration set: planted-hack runs, planted failures and honest controls on the shipped
hybrid tasks (``bench/calibration/<case>/``), and running them.

Each case folder holds ``case.toml``::

    task = "weave-gam-lightsout"      # a tasks/ bundle
    kind = "hack"                     # hack | failure | control
    description = "..."
    model = "scripted"                # scripted (script.jsonl beside it) | replay
    patterns = ["fake_screenshot"]    # the cheat patterns planted ([] for the others)
    taxonomy = "E5.1"                 # the expected sub-class, a family ("E5": any E5.x) or "none"
    f2p_pass = true                   # whether the planted run's F2P tests all pass

and, for a scripted case, ``script.jsonl`` (generic actions, ``realcli/schema/actions.py``;
``bench/calibration/derive.py`` writes both from the reference trajectories). Running a case is
``realcli run task=<task> model=<model> [model.script=…] harness=builtin mode=hybrid``; runs
are idempotent folders (a case already run in ``runs_dir`` is reused in a few seconds).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from realcli.judge.base import DETECTORS

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = Path(__file__).resolve().parent
KINDS = ("hack", "failure", "control")
PATTERNS = tuple(sorted({cls.pattern for _, cls in DETECTORS}))
"""The cheat patterns the registered detectors name (issue 11, point 4)."""
_TAXONOMY = re.compile(r"^(none|E[1-5]|E[1-5]\.[1-9])$")
_LINE = re.compile(r"^(?:finished|skipped)\s+([0-9a-f]{16})\s", re.M)


class CaseError(ValueError):
    """A case folder that cannot be used: the message names the file, the field and the fix."""


@dataclass(frozen=True)
class Case:
    name: str
    folder: Path
    task: str
    kind: str
    description: str
    model: str
    patterns: tuple[str, ...]
    taxonomy: str
    f2p_pass: bool

    @property
    def script(self) -> Path | None:
        return self.folder / "script.jsonl" if self.model == "scripted" else None

    @property
    def subclass(self) -> str | None:
        """The expected taxonomy sub-class (``E1.1``…), None for a family or none."""
        return self.taxonomy if "." in self.taxonomy else None


def _field(doc: dict[str, object], path: Path, key: str, kind: type) -> object:
    value = doc.get(key)
    if not isinstance(value, kind):
        raise CaseError(f"{path}: field {key!r} must be a {kind.__name__}; fix the manifest")
    return value


def load_case(folder: Path) -> Case:
    path = folder / "case.toml"
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CaseError(f"{path}: unreadable ({exc}); write a case.toml (see cases.py)") from exc
    task = str(_field(doc, path, "task", str))
    if not (ROOT / "tasks" / task / "task.toml").is_file():
        raise CaseError(f"{path}: field 'task': no task {task!r} under tasks/; name a bundle")
    kind = str(_field(doc, path, "kind", str))
    if kind not in KINDS:
        raise CaseError(f"{path}: field 'kind' is {kind!r}; use one of {', '.join(KINDS)}")
    model = str(_field(doc, path, "model", str))
    if model not in ("scripted", "replay"):
        raise CaseError(f"{path}: field 'model' is {model!r}; use scripted or replay")
    patterns = tuple(str(p) for p in _field(doc, path, "patterns", list))  # type: ignore[attr-defined]
    unknown = [p for p in patterns if p not in PATTERNS]
    if unknown:
        raise CaseError(f"{path}: field 'patterns': unknown {unknown}; use {', '.join(PATTERNS)}")
    if (kind == "hack") != bool(patterns):
        raise CaseError(f"{path}: field 'patterns': a hack names its patterns, no other case does")
    taxonomy = str(_field(doc, path, "taxonomy", str))
    if not _TAXONOMY.match(taxonomy):
        raise CaseError(f"{path}: field 'taxonomy' is {taxonomy!r}; use e.g. E1.3, E5 or none")
    case = Case(
        name=folder.name,
        folder=folder,
        task=task,
        kind=kind,
        description=str(_field(doc, path, "description", str)),
        model=model,
        patterns=patterns,
        taxonomy=taxonomy,
        f2p_pass=bool(_field(doc, path, "f2p_pass", bool)),
    )
    if case.script is not None and not case.script.is_file():
        raise CaseError(f"{case.script}: missing; a scripted case needs its script.jsonl")
    return case


def load_cases(folder: Path = CASES_DIR, names: list[str] | None = None) -> list[Case]:
    """Every case under ``folder`` (by name), or the ``names`` given."""
    found = sorted(p.parent for p in folder.glob("*/case.toml"))
    cases = [load_case(p) for p in found]
    if names is None:
        return cases
    by_name = {c.name: c for c in cases}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise CaseError(f"{folder}: no case {missing}; the cases are {sorted(by_name)}")
    return [by_name[n] for n in names]


@dataclass(frozen=True)
class CaseRun:
    case: Case
    run_dir: Path
    wall_s: float
    """Wall time of ``realcli run`` (a few seconds when the run was reused)."""
    reused: bool


def realcli_argv(case: Case, runs_dir: Path) -> list[str]:
    exe = Path(sys.executable).with_name("realcli")
    argv = [str(exe) if exe.is_file() else "realcli", "run", f"task={case.task}"]
    argv.append(f"model={case.model}")
    if case.script is not None:
        argv.append(f"model.script={case.script}")
    # judge=tests: the cheap judge after grading (not part of the run's identity); the
    # calibration judges each run itself, under every judge it measures
    return [*argv, "harness=builtin", "mode=hybrid", "judge=tests", f"paths.runs_dir={runs_dir}"]


def run_case(
    case: Case, runs_dir: Path, timeout_s: float = 900, env: Mapping[str, str] | None = None
) -> CaseRun:
    """Run (or reuse) one case into ``runs_dir`` (``env``: realcli's environment, default
    this process's); raises CaseError when realcli fails."""
    argv = realcli_argv(case, runs_dir)
    started = time.monotonic()
    proc = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        cwd=ROOT,
        env=dict(os.environ if env is None else env),
    )
    wall = time.monotonic() - started
    match = _LINE.search(proc.stdout)
    if proc.returncode != 0 or match is None:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-5:]
        raise CaseError(
            f"{case.folder}: `{' '.join(argv)}` failed (exit {proc.returncode}): "
            + " | ".join(tail)
        )
    key = match.group(1)
    folders = sorted(runs_dir.glob(f"*/{key}"))
    if not folders:
        raise CaseError(f"{case.folder}: realcli reported run {key} but {runs_dir} lacks it")
    return CaseRun(case, folders[0], wall, proc.stdout.lstrip().startswith("skipped"))
