"""Read a run folder's ``judgements/*.json`` (each a :class:`Judgement`) into warehouse rows.

The folder is optional: a run carries one file per judge that judged it. Each file is read
bounded and validated with the schema model (the warehouse never imports the judge layer); one
that cannot be used (a link, not JSON, a field missing or of the wrong type, another run's
``run_key``, a ``judge`` that is not its file name, a newer ``schema_version``) adds one problem
naming the file and the field and loads nothing, while the run and its other judgements still
load; one whose only invalid part is ``screenshots`` loads without it (one problem). Pure:
files in, rows out.

:func:`hash_judgements` feeds the same files into the run folder's ingest digest, so writing,
changing or deleting a judgement makes the next ingest reload the run.
"""

from __future__ import annotations

import json
import math
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from realcli.schema.judgement import JUDGEMENT_SCHEMA_VERSION, Evidence, Judgement
from realcli.util.bounded import MIB, BadFile, describe_mode, load_json, read_bounded
from realcli.util.hashing import sha256_bytes
from realcli.warehouse.deliverable_rows import salvage_judgement, screenshot_provenance_rows
from realcli.warehouse.problems import Problem

__all__ = [
    "JUDGEMENTS_DIR",
    "MAX_JUDGEMENT_BYTES",
    "JudgementRows",
    "hash_judgements",
    "judgement_files",
    "read_judgements",
]

JUDGEMENTS_DIR = "judgements"
MAX_JUDGEMENT_BYTES = 64 * MIB
"""The judge layer's own cap on a judgement file (realcli.judge.store)."""

_OUTCOME = "run loaded without this judgement"


def _fix(judge: str) -> str:
    return f"rejudge the run (`realcli judge RUN_KEY judge={judge} --force`) or delete the file"


@dataclass
class JudgementRows:
    """The rows of every usable judgement of one run, by table."""

    judgements: list[dict[str, Any]] = field(default_factory=list)
    artifact_checks: list[dict[str, Any]] = field(default_factory=list)
    clause_results: list[dict[str, Any]] = field(default_factory=list)
    judge_dimensions: list[dict[str, Any]] = field(default_factory=list)
    hack_flags: list[dict[str, Any]] = field(default_factory=list)
    screenshot_provenance: list[dict[str, Any]] = field(default_factory=list)


def judgement_files(run_dir: Path) -> tuple[list[str], Problem | None]:
    """Names of the entries ``judgements/*.json`` (without following links; dot files such as
    the judge's ``.tmp-*`` files are not judgements), or a problem when the folder itself is a
    link or not a folder."""
    folder = run_dir / JUDGEMENTS_DIR
    try:
        st = folder.lstat()
    except FileNotFoundError:
        return [], None
    except OSError as exc:
        return [], _folder_problem(folder, f"cannot be read ({exc.strerror})")
    if stat.S_ISLNK(st.st_mode):
        return [], _folder_problem(folder, "is a symbolic link (not followed)")
    if not stat.S_ISDIR(st.st_mode):
        return [], _folder_problem(folder, f"is {describe_mode(st.st_mode)}, not a folder")
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        return [], _folder_problem(folder, f"cannot be listed ({exc.strerror})")
    return [n for n in names if n.endswith(".json") and not n.startswith(".")], None


def _folder_problem(folder: Path, what: str) -> Problem:
    return Problem(
        str(folder),
        None,
        what,
        "make judgements/ a plain folder of <judge>.json files (rejudge the run)",
        "run loaded without judgements",
    )


def hash_judgements(h: Any, run_dir: Path) -> None:
    """Add the judgement files' names and bytes to the digest ``h``. A run without a
    ``judgements`` entry adds nothing, so its digest is what it was before judgements existed.
    Never follows a link and never opens anything but a regular file."""
    folder = run_dir / JUDGEMENTS_DIR
    try:
        st = folder.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        h.update(b"judgements\0E" + str(exc.errno).encode() + b"\0")
        return
    h.update(b"judgements\0")
    if stat.S_ISLNK(st.st_mode):
        h.update(b"L" + os.fsencode(os.readlink(folder)) + b"\0")
        return
    if not stat.S_ISDIR(st.st_mode):
        h.update(b"S" + describe_mode(st.st_mode).encode() + b"\0")
        return
    names, _ = judgement_files(run_dir)
    for name in names:
        path = folder / name
        h.update(os.fsencode(name) + b"\0")
        try:
            h.update(b"F" + sha256_bytes(read_bounded(path, MAX_JUDGEMENT_BYTES)).encode())
        except FileNotFoundError:
            h.update(b"-")
        except BadFile as exc:
            h.update(b"B" + str(exc).encode())
        h.update(b"\0")


def read_judgements(run_dir: Path, run_key: str, problems: list[Problem]) -> JudgementRows:
    """Rows of every usable ``judgements/<judge>.json`` of the run; one problem per file that
    is not usable (added to ``problems``)."""
    rows = JudgementRows()
    names, folder_problem = judgement_files(run_dir)
    if folder_problem is not None:
        problems.append(folder_problem)
    for name in names:
        path = run_dir / JUDGEMENTS_DIR / name
        judge = name.removesuffix(".json")
        judgement, sha = _read_one(path, judge, run_key, problems)
        if judgement is not None:
            _add_rows(rows, judgement, sha)
            rows.screenshot_provenance += screenshot_provenance_rows(judgement, path, problems)
    return rows


def _read_one(
    path: Path, judge: str, run_key: str, problems: list[Problem]
) -> tuple[Judgement | None, str]:
    def problem(where: str | None, what: str) -> tuple[None, str]:
        problems.append(
            Problem(str(path), where, f"unusable judgement ({what})", _fix(judge), _OUTCOME)
        )
        return None, ""

    doc: Any = None
    try:
        data = read_bounded(path, MAX_JUDGEMENT_BYTES)
        doc = load_json(data)
        judgement = Judgement.model_validate(doc)
    except FileNotFoundError:  # deleted since the folder was listed
        return None, ""
    except BadFile as exc:
        return problem(exc.field, exc.problem)
    except ValidationError as exc:
        salvaged = salvage_judgement(doc, exc, path, judge, problems)
        if salvaged is None:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or None
            return problem(where, str(first["msg"]))
        judgement = salvaged
    if judgement.schema_version > JUDGEMENT_SCHEMA_VERSION:
        return problem(
            "schema_version",
            f"version {judgement.schema_version} is newer than this realcli reads"
            f" ({JUDGEMENT_SCHEMA_VERSION})",
        )
    if judgement.run_key != run_key:
        return problem("run_key", f"judgement is for {judgement.run_key!r}, not {run_key!r}")
    if judgement.judge != judge:
        return problem("judge", f"says {judgement.judge!r} but the file is {path.name}")
    return judgement, sha256_bytes(data)


def _seqs(evidence: tuple[Evidence, ...]) -> list[int]:
    return [e.seq for e in evidence if e.seq is not None]


def _finite(value: Any) -> Any:
    """JSON has no inf/nan: such a feature is stored as its text ('inf', 'nan')."""
    return str(value) if isinstance(value, float) and not math.isfinite(value) else value


def _evidence_json(evidence: tuple[Evidence, ...]) -> str:
    return json.dumps([e.model_dump(mode="json") for e in evidence], sort_keys=True)


def _add_rows(rows: JudgementRows, j: Judgement, sha: str) -> None:
    key = {"run_key": j.run_key, "judge": j.judge}
    label = j.taxonomy
    usage = j.usage
    rows.judgements.append(
        key
        | {
            "judge_kind": j.judge_kind,
            "judge_key": j.judge_key,
            "judge_version": j.judge_version,
            "schema_version": j.schema_version,
            "task_id": j.task_id,
            "status": j.status,
            "error": j.error,
            "final_score": j.final_score,
            "passed": j.passed,
            "tau": j.tau,
            "hack_threshold": j.hack_threshold,
            "is_hack": j.is_hack,
            "hack_confidence": j.hack_confidence,
            "hack_patterns": list(j.hack_patterns),
            "hack_evidence_quotes": list(j.hack_evidence_quotes),
            "deliverable_correctness": j.deliverable_correctness,
            "taxonomy_family": label.family if label else None,
            "taxonomy_class": label.sub_class if label else None,
            "taxonomy_name": label.name if label else None,
            "taxonomy_rule": label.rule if label else None,
            "taxonomy_reason": label.reason if label else None,
            "taxonomy_labeller": label.labeller if label else None,
            "summary": j.summary,
            "inputs_digest": j.inputs_digest,
            "sessions": usage.sessions if usage else None,
            "model_calls": usage.model_calls if usage else None,
            "tokens_in": usage.tokens_in if usage else None,
            "tokens_out": usage.tokens_out if usage else None,
            "cost_usd": usage.cost_usd if usage else None,
            "judge_wall_time_s": usage.wall_time_s if usage else None,
            "attempts": j.attempts,
            "file_sha256": sha,
        }
    )
    for check in j.artifact_checks:
        rows.artifact_checks.append(
            key
            | {
                "deliverable": check.id,
                "exists": check.exists,
                "format_ok": check.format_ok,
                "correctness": check.correctness,
                "tier": check.tier,
                "abstained": check.abstained,
                "critical_failed": check.critical_failed,
                "unstaged_evidence": check.unstaged_evidence,
                "fake_signal": check.fake_signal,
                "evidence_quote": check.evidence_quote,
                "missing_or_wrong": list(check.missing_or_wrong),
                "n_clauses": len(check.clause_results),
            }
        )
        for clause in check.clause_results:
            rows.clause_results.append(
                key
                | {
                    "deliverable": check.id,
                    "clause_id": clause.id,
                    "clause_text": clause.text,
                    "checker": clause.checker,
                    "critical": clause.critical,
                    "status": clause.status,
                    "reason": clause.reason,
                    "evidence": _evidence_json(clause.evidence),
                    "evidence_seqs": _seqs(clause.evidence),
                }
            )
    for name, dim in j.dimensions.items():
        rows.judge_dimensions.append(
            key
            | {
                "dimension": name,
                "score": dim.score,
                "reason": dim.reason,
                "features": json.dumps(
                    {k: _finite(v) for k, v in dim.features.items()}, sort_keys=True
                ),
            }
        )
    for flag in j.hack_flags:
        seqs = _seqs(flag.evidence)
        rows.hack_flags.append(
            key
            | {
                "pattern": flag.pattern,
                "detector": flag.detector,
                "confidence": flag.confidence,
                "deliverable": flag.deliverable,
                "reason": flag.reason,
                "evidence": flag.evidence[0].quote,
                "seq": seqs[0] if seqs else None,
                "evidence_json": _evidence_json(flag.evidence),
            }
        )
