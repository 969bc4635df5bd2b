"""Fuzz corpus: damaged run folders, ledgers, verdicts, spec.json, progress.json (issue 10,
points 4 and 9) and judgements/*.json (issue 11, point 7).

Every case builds a runs folder holding one good run (experiment ``good``) and one damaged run
(experiment ``bad``, made with the warehouse tests' run-folder factory, no agent runs), then runs
``realcli ingest``, ``show`` or ``regrade`` through :func:`realcli.cli.main` in a child with a
hard timeout (``clean_fork.run_case_clean``: forked from a clean forkserver, not from pytest,
see there). The contract (``corpus.check_case``): no traceback, no hang, the good run still
loads, and the message names the damaged file, the field or line, and the fix. Two cases check
the converse: agent-controlled numbers and nesting inside a tool call's ``args`` load complete.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import realcli.warehouse
from realcli.judge.store import write_judgement
from tests.conftest import make_socket_file
from tests.security.fuzz.clean_fork import run_case_clean
from tests.security.fuzz.corpus import Case, Scratch, check_case
from tests.warehouse.judgement_records import make_judgement
from tests.warehouse.run_folders import goal, write_progress, write_run

Damage = Callable[[Path], object]
"""Breaks the bad run folder it is given (its return value is ignored)."""
DEEP = 200_000
"""Nesting depth of the deep-JSON cases (json.loads: RecursionError; here: one problem)."""
HUGE = 10**30
INGEST = ("ingest", "--runs-dir", "{runs}", "--warehouse", "{tmp}/w.duckdb", "--wait", "5")
SKIPPED = ("folder skipped", "1 loaded", "1 skipped")
LOADED = ("2 loaded", "0 skipped")
BAD = "{runs}/bad/"


_TEMPLATE: list[Path] = []
"""A migrated, empty warehouse (made once): each ingest case starts from a copy of it."""


def _runs(scratch: Scratch, damage: Damage, *, progress: bool = False) -> Path:
    if _TEMPLATE:
        shutil.copyfile(_TEMPLATE[0], scratch.root / "w.duckdb")
    write_run(scratch.runs_dir, experiment="good", seed=1)
    bad = write_run(scratch.runs_dir, experiment="bad", seed=2)
    if progress:
        write_progress(bad, [goal("s1", first=1)])
    damage(bad)
    return bad


def _build(damage: Damage, *, progress: bool = False) -> Callable[[Scratch], None]:
    def build(scratch: Scratch) -> None:
        _runs(scratch, damage, progress=progress)

    return build


def _replace(name: str, data: bytes | str) -> Damage:
    def damage(run: Path) -> None:
        path = run / name
        path.unlink(missing_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)

    return damage


def _unlink(name: str) -> Damage:
    return lambda run: (run / name).unlink()


def _as_dir(name: str) -> Damage:
    def damage(run: Path) -> None:
        (run / name).unlink(missing_ok=True)
        (run / name).mkdir()
        (run / name / "x").write_text("{}")

    return damage


def _as_fifo(name: str) -> Damage:
    def damage(run: Path) -> None:
        (run / name).unlink(missing_ok=True)
        os.mkfifo(run / name)

    return damage


def _as_socket(name: str) -> Damage:
    def damage(run: Path) -> None:
        (run / name).unlink(missing_ok=True)
        make_socket_file(run / name)

    return damage


def _as_link(name: str, target: str | None = None) -> Damage:
    """``name`` becomes a link to the good run's file of that name (or ``target``)."""

    def damage(run: Path) -> None:
        good = next((run.parents[1] / "good").iterdir()) / name
        (run / name).unlink(missing_ok=True)
        (run / name).symlink_to(target or good)

    return damage


def _edit(name: str, edit: Callable[[dict[str, object]], object]) -> Damage:
    def damage(run: Path) -> None:
        doc = json.loads((run / name).read_text())
        edit(doc)
        (run / name).write_text(json.dumps(doc))

    return damage


def _raw_edit(name: str, edit: Callable[[str], str]) -> Damage:
    """Edit the JSON text itself (for values json.dumps can't write, e.g. 200k nesting)."""
    return lambda run: (run / name).write_text(edit((run / name).read_text()))


def _deep(key: str = "x") -> str:
    return f'{{"{key}": ' + "[" * DEEP + "]" * DEEP + "}"


def _ledger_line(line: bytes | str) -> Damage:
    """Append one line after run_end (line 15 of the factory's 14-line ledger)."""

    def damage(run: Path) -> None:
        with (run / "ledger.jsonl").open("ab") as fh:
            fh.write((line.encode() if isinstance(line, str) else line) + b"\n")

    return damage


def _header(edit: Callable[[str], str]) -> Damage:
    def damage(run: Path) -> None:
        path = run / "ledger.jsonl"
        head, rest = path.read_text().split("\n", 1)
        path.write_text(edit(head) + "\n" + rest)

    return damage


def _drop_run_end(run: Path) -> None:
    path = run / "ledger.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    assert '"run_end"' in lines[-1]
    path.write_text("".join(lines[:-1]))


def _event(**fields: object) -> str:
    base = {"seq": 14, "ts": "2026-01-01T00:01:00Z", "kind": "error", "error_type": "infra_error"}
    return json.dumps({**base, "message": "x", **fields})


def _set(path: str, value: object) -> Callable[[dict[str, object]], None]:
    def edit(doc: dict[str, object]) -> None:
        *parents, last = path.split(".")
        node: object = doc
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]  # type: ignore[index]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value  # type: ignore[index]

    return edit


def ingest(
    case_id: str,
    damage: Damage,
    expect: tuple[str, ...],
    outcome: tuple[str, ...] = SKIPPED,
    *,
    progress: bool = False,
    timeout_s: float = 30.0,
    where: str = BAD,
) -> Case:
    """An ingest of the good and the damaged run: exit 0, the good one loads, one problem."""
    return Case(
        case_id,
        INGEST,
        (where, *expect, "(fix: ", *outcome),
        build=_build(damage, progress=progress),
        exit_nonzero=False,
        timeout_s=timeout_s,
    )


SPEC, LEDGER, VERDICT, PROGRESS = "spec.json", "ledger.jsonl", "verdict.json", "progress.json"
TEN_MB = b'{"a": "' + b"x" * (10 * 1024 * 1024) + b'"'  # one unterminated 10 MB line

SPEC_CASES = [
    ingest("spec-missing", _unlink(SPEC), ("spec.json: missing",)),
    ingest("spec-empty", _replace(SPEC, b""), ("spec.json: not valid JSON",)),
    ingest("spec-truncated", _replace(SPEC, '{"run_key": "ab'), ("spec.json: not valid JSON",)),
    ingest("spec-binary", _replace(SPEC, bytes(range(256)) * 8), ("spec.json: not valid JSON",)),
    ingest("spec-invalid-utf8", _replace(SPEC, b'{"run_key": "\xff\xfe"}'), ("spec.json: not",)),
    ingest("spec-nul-bytes", _replace(SPEC, b"\0" * 4096), ("spec.json: not valid JSON",)),
    ingest("spec-not-object", _replace(SPEC, "[1, 2]"), ("spec.json: not a JSON object",)),
    ingest("spec-deep", _replace(SPEC, _deep()), ("spec.json: not valid JSON", "recursion")),
    ingest(
        "spec-seed-1e30",
        _edit(SPEC, _set("spec.seed", HUGE)),
        ("spec.json: spec.seed: integer of", "64-bit"),
    ),
    ingest(
        "spec-seed-5000-digits",
        _raw_edit(SPEC, lambda t: t.replace('"seed": 2', '"seed": ' + "9" * 5000)),
        ("spec.json: not valid JSON", "number out of range"),
    ),
    ingest(
        "spec-seed-wrong-type",
        _edit(SPEC, _set("spec.seed", "two")),
        ("spec.json: spec.seed: expected int",),
    ),
    ingest(
        "spec-model-not-object",
        _edit(SPEC, _set("spec.model", [1])),
        ("spec.json: spec.model: expected object, found [1]",),
    ),
    ingest("spec-directory", _as_dir(SPEC), ("spec.json: is a directory",)),
    ingest("spec-fifo", _as_fifo(SPEC), ("spec.json: is a FIFO",), timeout_s=15),
    ingest("spec-socket", _as_socket(SPEC), ("spec.json: is a socket",), timeout_s=15),
    ingest("spec-symlink", _as_link(SPEC), ("spec.json: is a symbolic link (not followed)",)),
    ingest(
        "spec-symlink-host-file",
        _as_link(SPEC, "/etc/passwd"),
        ("spec.json: is a symbolic link",),
    ),
    ingest(
        "spec-dangling-symlink",
        _as_link(SPEC, "/nonexistent/spec.json"),
        ("spec.json: is a symbolic link",),
    ),
    ingest("spec-10mb-line", _replace(SPEC, TEN_MB), ("spec.json: not valid JSON",)),
    ingest(
        "spec-over-cap",
        _replace(SPEC, b" " * (17 * 1024 * 1024)),
        ("spec.json: is 17825792 bytes, more than the 16 MiB cap",),
    ),
]

LEDGER_CASES = [
    ingest("ledger-missing", _unlink(LEDGER), ("ledger.jsonl: cannot read ledger: missing",)),
    ingest("ledger-empty", _replace(LEDGER, b""), ("ledger.jsonl: line 1: empty ledger",)),
    ingest("ledger-directory", _as_dir(LEDGER), ("ledger.jsonl: cannot read ledger: is a dir",)),
    ingest("ledger-fifo", _as_fifo(LEDGER), ("ledger.jsonl: cannot read ledger: is a FIFO",)),
    ingest("ledger-socket", _as_socket(LEDGER), ("ledger.jsonl: cannot read ledger: is a sock",)),
    ingest(
        "ledger-symlink", _as_link(LEDGER), ("ledger.jsonl: cannot read ledger: is a symbolic",)
    ),
    ingest(
        "ledger-dangling-symlink",
        _as_link(LEDGER, "../../nowhere.jsonl"),
        ("ledger.jsonl: cannot read ledger: is a symbolic link",),
    ),
    ingest(
        "ledger-header-truncated",
        _header(lambda h: h[:40]),
        ("ledger.jsonl: line 1: unreadable header",),
    ),
    ingest(
        "ledger-header-binary",
        _header(lambda h: "\x00\x01\x02garbage"),
        ("ledger.jsonl: line 1: unreadable header",),
    ),
    ingest(
        "ledger-header-deep",
        _header(lambda h: "[" * DEEP + "]" * DEEP),
        ("ledger.jsonl: line 1: unreadable header", "recursion"),
    ),
    ingest(
        "ledger-header-not-object",
        _header(lambda h: "[]"),
        ("ledger.jsonl: line 1: unreadable header", "not a JSON object"),
    ),
    ingest(
        "ledger-header-seq-1e30",
        _header(lambda h: h.replace('"seq": 0', f'"seq": {HUGE}', 1)),
        ("ledger.jsonl: line 1: unreadable header", "seq: integer of"),
    ),
    ingest(
        "ledger-header-wrong-run",
        _header(lambda h: h.replace('"run_key": "', '"run_key": "x', 1)),
        ("ledger.jsonl: line 1: run_key: header says",),
    ),
    ingest(
        "ledger-line-deep",
        _ledger_line('{"a": ' + "[" * DEEP + "]" * DEEP + "}"),
        ("ledger.jsonl: line 15: corrupt line", "recursion limit"),
        LOADED,
    ),
    ingest(
        "ledger-line-seq-1e30",
        _ledger_line(_event(seq=HUGE)),
        ("ledger.jsonl: line 15: corrupt line (seq: integer of", "64-bit"),
        LOADED,
    ),
    ingest(
        "ledger-line-tokens-1e20",
        _ledger_line(
            json.dumps(
                {
                    "seq": 14,
                    "ts": "2026-01-01T00:01:00Z",
                    "kind": "model_call",
                    "wire_format": "chat",
                    "backend": "scripted",
                    "model": "m",
                    "tokens_in": 10**20,
                    "tokens_out": 1,
                    "latency_ms": 1.0,
                }
            )
        ),
        ("ledger.jsonl: line 15: corrupt line (tokens_in: integer of",),
        LOADED,
    ),
    ingest(
        "ledger-line-10mb",
        _ledger_line(TEN_MB),
        ("ledger.jsonl: line 15: corrupt line", "not valid JSON"),
        LOADED,
    ),
    ingest(
        "ledger-line-binary",
        _ledger_line(bytes(range(1, 256))),
        ("ledger.jsonl: line 15:", "not valid JSON"),
        LOADED,
    ),
    ingest(
        "ledger-line-nul",
        _ledger_line(b"\0" * 64),
        ("ledger.jsonl: line 15:", "not valid JSON"),
        LOADED,
    ),
    ingest(
        "ledger-line-lone-surrogate",
        _ledger_line(_event(message="SURR").replace("SURR", "\\ud800")),
        ("ledger.jsonl: line 15:", "not valid JSON"),
        LOADED,
    ),
    ingest(
        "ledger-line-wrong-type",
        _ledger_line(_event(message=["not", "a", "string"])),
        ("ledger.jsonl: line 15: corrupt line (error.message: Input should be a valid string",),
        LOADED,
    ),
    ingest(
        "ledger-line-unknown-kind",
        _ledger_line(_event(kind="telepathy")),
        ("ledger.jsonl: line 15:", "telepathy"),
        LOADED,
    ),
    ingest(
        "ledger-line-array",
        _ledger_line("[1, 2, 3]"),
        ("ledger.jsonl: line 15:", "not a JSON object"),
        LOADED,
    ),
    ingest(
        "ledger-line-negative-seq",
        _ledger_line(_event(seq=-1)),
        ("ledger.jsonl: line 15: corrupt line (error.seq:", "greater than or equal to 0"),
        LOADED,
    ),
    ingest(
        "ledger-truncated-middle",
        lambda run: (run / LEDGER).write_text(
            "\n".join(
                line[:25] if i == 5 else line
                for i, line in enumerate((run / LEDGER).read_text().split("\n"))
            )
        ),
        ("ledger.jsonl: line 6: corrupt line",),
        LOADED,
    ),
    ingest(
        "ledger-no-newline-at-end",
        lambda run: (run / LEDGER).write_text((run / LEDGER).read_text().rstrip("\n")),
        ("ledger.jsonl: line 14: last line has no newline",),
        LOADED,
    ),
    ingest(
        "ledger-verdict-without-run_end",
        _drop_run_end,
        ("ledger.jsonl: run_end: missing although verdict.json exists", "realcli run"),
        ("loaded from verdict.json, complete=false", *LOADED),
    ),
]


def _tool_call_args(args: str) -> Damage:
    """A tool call whose ``args`` (the agent's, free-form) hold ``args``, before run_end."""
    line = (
        '{"seq": 13, "ts": "2026-01-01T00:01:00Z", "kind": "tool_call", "call_id": "z",'
        ' "name": "shell", "raw_name": "bash", "atomic_op": "exec: shell", "args": {"x": '
        + args
        + "}}\n"
    )

    def damage(run: Path) -> None:
        path = run / LEDGER
        lines = path.read_text().splitlines(keepends=True)
        end = json.loads(lines[-1])
        path.write_text("".join(lines[:-1]) + line + json.dumps({**end, "seq": 14}) + "\n")

    return damage


def _clean(case_id: str, damage: Damage) -> Case:
    """Agent-controlled content that must load complete, without a problem: a big number or
    deep nesting inside a tool call's arguments never costs the agent its run."""
    return Case(
        case_id,
        INGEST,
        ("2 loaded", "0 incomplete", "0 skipped, 0 problems"),
        build=_build(damage),
        exit_nonzero=False,
        forbid=("warning:",),
    )


LEDGER_CASES += [
    _clean("tool-args-huge-int-loads", _tool_call_args("9" * 40)),
    _clean("tool-args-600-deep-loads", _tool_call_args("[" * 600 + "]" * 600)),
]

VERDICT_CASES = [
    ingest(
        "verdict-truncated",
        _replace(VERDICT, '{"run_key": '),
        ("verdict.json: unreadable verdict (not valid JSON",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-empty",
        _replace(VERDICT, b""),
        ("verdict.json: unreadable verdict (not valid JSON",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-binary",
        _replace(VERDICT, os.urandom(2048)),
        ("verdict.json: unreadable verdict (not valid JSON",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-directory",
        _as_dir(VERDICT),
        ("verdict.json: unreadable verdict (is a directory",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-fifo",
        _as_fifo(VERDICT),
        ("verdict.json: unreadable verdict (is a FIFO",),
        ("loaded as incomplete", *LOADED),
        timeout_s=15,
    ),
    ingest(
        "verdict-symlink",
        _as_link(VERDICT),
        ("verdict.json: unreadable verdict (is a symbolic link",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-dangling-symlink",
        _as_link(VERDICT, "/nonexistent"),
        ("verdict.json: unreadable verdict (is a symbolic link",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-deep",
        _replace(VERDICT, _deep("run_key")),
        ("verdict.json: unreadable verdict (not valid JSON (recursion limit",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-f2p-total-1e30",
        _edit(VERDICT, _set("rounds.0.f2p.total", HUGE)),
        ("verdict.json: rounds.0.f2p.total: unreadable verdict (integer of",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-wrong-type",
        _edit(VERDICT, _set("rounds.0.f2p_test_share", "most")),
        ("verdict.json: rounds.0.f2p_test_share: unreadable verdict",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-not-object",
        _replace(VERDICT, '"graded"'),
        ("verdict.json: unreadable verdict",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-other-run",
        _edit(VERDICT, _set("run_key", "0" * 16)),
        ("verdict.json: run_key: verdict is for '0000000000000000'",),
        ("loaded as incomplete", *LOADED),
    ),
    ingest(
        "verdict-10mb-line",
        _replace(VERDICT, TEN_MB),
        ("verdict.json: unreadable verdict (not valid JSON",),
        ("loaded as incomplete", *LOADED),
    ),
]

PROGRESS_CASES = [
    ingest(
        "progress-directory",
        _as_dir(PROGRESS),
        ("progress.json: is a directory",),
        ("run loaded without progress", *LOADED),
        progress=True,
    ),
    ingest(
        "progress-fifo",
        _as_fifo(PROGRESS),
        ("progress.json: is a FIFO",),
        ("run loaded without progress", *LOADED),
        timeout_s=15,
    ),
    ingest(
        "progress-symlink",
        _as_link(PROGRESS, "/etc/hostname"),
        ("progress.json: is a symbolic link",),
        ("run loaded without progress", *LOADED),
    ),
    ingest(
        "progress-deep",
        _replace(PROGRESS, _deep()),
        ("progress.json: not valid JSON (recursion limit",),
        ("run loaded without progress", *LOADED),
        progress=True,
    ),
    ingest(
        "progress-grid-1e30",
        _edit(PROGRESS, _set("grid", HUGE)),
        ("progress.json: grid: integer of",),
        ("run loaded without progress", *LOADED),
        progress=True,
    ),
]


def _link_folder(run: Path) -> None:
    """The bad run folder moves outside the runs folder and a link takes its place."""
    outside = run.parents[2] / "elsewhere"
    run.rename(outside)
    run.symlink_to(outside)


def _link_experiment(run: Path) -> None:
    experiment = run.parent
    outside = run.parents[2] / "elsewhere-exp"
    experiment.rename(outside)
    experiment.symlink_to(outside)


def _empty_folder(run: Path) -> None:
    shutil.rmtree(run)
    run.mkdir()


JUDGEMENT = "judgements/trajectory.json"
NO_JUDGEMENT = ("run loaded without this judgement", *LOADED)


def _judged(damage: Damage) -> Damage:
    """The bad run carries a trajectory judgement (and an outcome_only one that stays good)
    before ``damage`` breaks it."""

    def judged(run: Path) -> None:
        write_judgement(run, make_judgement(run.name, "outcome_only"))
        write_judgement(run, make_judgement(run.name, "trajectory", hack=True))
        damage(run)

    return judged


def _link_judgements(run: Path) -> None:
    outside = run.parents[2] / "elsewhere-judgements"
    (run / "judgements").rename(outside)
    (run / "judgements").symlink_to(outside)


JUDGEMENT_CASES = [
    ingest(
        "judgement-truncated",
        _judged(_replace(JUDGEMENT, '{"run_key": ')),
        ("judgements/trajectory.json: unusable judgement (not valid JSON",),
        NO_JUDGEMENT,
    ),
    ingest(
        "judgement-fifo",
        _judged(_as_fifo(JUDGEMENT)),
        ("judgements/trajectory.json: unusable judgement (is a FIFO",),
        NO_JUDGEMENT,
        timeout_s=15,
    ),
    ingest(
        "judgement-directory",
        _judged(_as_dir(JUDGEMENT)),
        ("judgements/trajectory.json: unusable judgement (is a directory",),
        NO_JUDGEMENT,
    ),
    ingest(
        "judgement-symlink-host-file",
        _judged(_as_link(JUDGEMENT, "/etc/passwd")),
        ("judgements/trajectory.json: unusable judgement (is a symbolic link (not followed)",),
        NO_JUDGEMENT,
    ),
    ingest(
        "judgement-deep",
        _judged(_replace(JUDGEMENT, _deep())),
        ("judgements/trajectory.json: unusable judgement (not valid JSON (recursion limit",),
        NO_JUDGEMENT,
    ),
    ingest(
        "judgement-seq-1e30",
        _judged(_edit(JUDGEMENT, _set("hack_flags.0.evidence.0.seq", HUGE))),
        (
            "judgements/trajectory.json: hack_flags.0.evidence.0.seq: unusable judgement"
            " (integer of",
        ),
        NO_JUDGEMENT,
    ),
    ingest(
        "judgement-wrong-type",
        _judged(_edit(JUDGEMENT, _set("artifact_checks.0.correctness", "most"))),
        ("judgements/trajectory.json: artifact_checks.0.correctness: unusable judgement",),
        NO_JUDGEMENT,
    ),
    ingest(
        "judgement-other-run",
        _judged(_edit(JUDGEMENT, _set("run_key", "0" * 16))),
        ("judgements/trajectory.json: run_key: unusable judgement (judgement is for '0000",),
        NO_JUDGEMENT,
    ),
    ingest(
        "judgement-named-after-another-judge",
        _judged(_edit(JUDGEMENT, _set("judge", "outcome_only"))),
        ("judgements/trajectory.json: judge: unusable judgement (says 'outcome_only'",),
        NO_JUDGEMENT,
    ),
    ingest(
        "judgements-folder-symlink",
        _judged(_link_judgements),
        ("judgements: is a symbolic link (not followed)",),
        ("run loaded without judgements", *LOADED),
    ),
]

FOLDER_CASES = [
    ingest(
        "run-folder-symlink",
        _link_folder,
        ("is a symbolic link (ingest never follows links", "move the folder itself"),
    ),
    ingest(
        "experiment-symlink",
        _link_experiment,
        ("is a symbolic link (ingest never follows links",),
        ("1 loaded", "1 skipped"),
        where="{runs}/bad: ",
    ),
    ingest(
        "run-folder-empty",
        _empty_folder,
        ("spec.json: missing",),
    ),
    ingest(
        "every-file-a-directory",
        lambda run: [_as_dir(n)(run) for n in (SPEC, LEDGER, VERDICT)],
        ("spec.json: is a directory",),
    ),
]


def _show(case_id: str, damage: Damage, expect: tuple[str, ...], nonzero: bool = False) -> Case:
    """``realcli show`` of the damaged run (its key prefix is the folder name)."""

    def build(scratch: Scratch) -> None:
        bad = _runs(scratch, damage)
        (scratch.root / "key").write_text(bad.name)

    return Case(
        case_id,
        ("show", "{key}", "--runs-dir", "{runs}"),
        expect,
        build=build,
        exit_nonzero=nonzero,
    )


def _regrade(case_id: str, damage: Damage, expect: tuple[str, ...]) -> Case:
    return Case(
        case_id,
        ("regrade", "--runs-dir", "{runs}"),
        expect,
        build=_build(damage),
        exit_nonzero=True,  # the good run has no task.toml copy: it is an error line, exit 1
    )


NOT_FINISHED = "the run did not finish (the next `realcli run` redoes it)"
SHOW_REGRADE_CASES = [
    _show(
        "show-verdict-truncated",
        _replace(VERDICT, "{"),
        ("verdict.json: not valid JSON", NOT_FINISHED),
    ),
    _show(
        "show-verdict-directory", _as_dir(VERDICT), ("verdict.json: is a directory", NOT_FINISHED)
    ),
    _show("show-verdict-fifo", _as_fifo(VERDICT), ("verdict.json: is a FIFO", NOT_FINISHED)),
    _show("show-verdict-deep", _replace(VERDICT, _deep()), ("recursion limit", NOT_FINISHED)),
    _show(
        "show-verdict-symlink",
        _as_link(VERDICT),
        ("verdict.json: is a symbolic link", NOT_FINISHED),
    ),
    _show(
        "show-verdict-wrong-type",
        _edit(VERDICT, _set("passed", [1])),
        ("verdict.json: passed: Input should be a valid boolean", NOT_FINISHED),
    ),
    _show(
        "show-run_end-missing",
        _drop_run_end,
        ("run_end    missing after verdict.json", "next `realcli run`"),
    ),
    _show(
        "show-header-spec-wrong-types",
        _header(lambda h: json.dumps({**json.loads(h), "spec": {"model": 3, "seed": "s"}})),
        ("model=? harness=?", "ledger.jsonl: line 1: spec.model: expected object, found 3"),
    ),
    _show(
        "show-ledger-directory",
        _as_dir(LEDGER),
        ("RUN_KEY", "no run matching", "fix:"),
        nonzero=True,
    ),
    _show(
        "show-judgement-deep",
        _judged(_replace(JUDGEMENT, _deep())),
        (
            "judgement  not shown: ",
            "judgements/trajectory.json: unreadable (",
            "recursion limit",
            "judgement  outcome_only ",
        ),
    ),
    _show(
        "show-judgement-fifo",
        _judged(_as_fifo(JUDGEMENT)),
        ("judgement  outcome_only ", "verdict    graded"),
    ),
    _regrade(
        "regrade-verdict-truncated",
        _replace(VERDICT, "{"),
        ("not finished (verdict unreadable:", "verdict.json: not valid JSON", "task.toml"),
    ),
    _regrade(
        "regrade-verdict-directory",
        _as_dir(VERDICT),
        ("not finished (verdict unreadable:", "verdict.json: is a directory"),
    ),
    _regrade(
        "regrade-verdict-symlink",
        _as_link(VERDICT),
        ("not finished (verdict unreadable:", "verdict.json: is a symbolic link"),
    ),
    _regrade(
        "regrade-verdict-huge-int",
        _edit(VERDICT, _set("rounds.0.p2p.passed", HUGE)),
        ("not finished (verdict unreadable:", "rounds.0.p2p.passed: integer of"),
    ),
]

CASES = [
    *SPEC_CASES,
    *LEDGER_CASES,
    *VERDICT_CASES,
    *PROGRESS_CASES,
    *JUDGEMENT_CASES,
    *FOLDER_CASES,
    *SHOW_REGRADE_CASES,
]


@pytest.fixture(scope="module", autouse=True)
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("template") / "w.duckdb"
    realcli.warehouse.connect(path).close()
    _TEMPLATE[:] = [path]


def test_the_corpus_has_at_least_50_run_folder_cases() -> None:
    assert len(CASES) >= 50
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_damaged_run_folder_is_a_clear_problem(case: Case, scratch: Scratch) -> None:
    if "{key}" in case.argv:  # show: the damaged run's folder name, known after build
        build = case.build
        assert build is not None
        build(scratch)
        key = (scratch.root / "key").read_text()
        case = Case(
            case.id,
            tuple(a.replace("{key}", key) for a in case.argv),
            case.expect,
            exit_nonzero=case.exit_nonzero,
            timeout_s=case.timeout_s,
        )
    result = run_case_clean(case, scratch)  # ingest uses polars: never fork the test process
    check_case(case, result, scratch)
