"""Write a SYNTHETIC run store for scale benchmarks: realistic ledgers, NOT REAL RESULTS.

    python bench/synthetic_store.py --templates RUNS_DIR --out STORE --runs 10000

Every run is cloned from a *real* run folder under ``--templates`` (a runs dir realcli wrote:
spec.json, ledger.jsonl, verdict.json, judgements/, task.toml), so its files have the exact
shapes ingest reads; what is invented is the mix: run keys, model names, task ids, seeds, the
outcome (verdict and judgement scores drawn from a per-model skill) and the number of ledger
events (the template's tool loop repeated until ``--events-per-run`` is reached, with fresh
seqs, timestamps and call ids).

It is labelled so nobody can take it for measurements: the experiment is ``synthetic``, every
model is ``synthetic-model-<k>`` with model id ``synthetic/not-real-<k>``, task ids end in
``--syn<NNN>``, and the store root holds ``SYNTHETIC_NOT_REAL_RESULTS.md``. Deterministic in
``--seed``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

__all__ = ["LABEL", "Template", "generate", "load_templates"]

EXPERIMENT = "synthetic"
LABEL = "SYNTHETIC_NOT_REAL_RESULTS.md"
_LOOP_KINDS = {"model_call", "tool_call", "tool_result", "message", "screenshot", "snapshot"}
_FAILURE_LABELS = (
    ("E4", "E4.2", "premature halt"),
    ("E5", "E5.1", "synthesised render"),
    ("E1", "E1.3", "imprecision (close miss)"),
    ("E2", "E2.2", "tool misuse"),
    ("E4", "E4.1", "silent halt"),
    ("E3", "E3.1", "visual detail misperception"),
)


@dataclass
class Template:
    """One real run folder, parsed once."""

    path: Path
    spec: dict[str, Any]
    header: dict[str, Any]
    head: list[dict[str, Any]]
    loop: list[dict[str, Any]]
    tail: list[dict[str, Any]]
    verdict: dict[str, Any] | None
    judgements: dict[str, dict[str, Any]]
    task_toml: str | None


def load_templates(runs_dir: Path) -> list[Template]:
    """Every finished run folder under ``runs_dir`` (``<experiment>/<run_key>/``)."""
    templates = []
    for ledger in sorted(runs_dir.glob("*/*/ledger.jsonl")):
        folder = ledger.parent
        if not (folder / "verdict.json").is_file():
            continue
        events = [json.loads(line) for line in ledger.read_text().splitlines() if line.strip()]
        header, body = events[0], events[1:]
        loop_idx = [i for i, e in enumerate(body) if e["kind"] in _LOOP_KINDS]
        if not loop_idx:
            continue
        first, last = loop_idx[0], loop_idx[-1]
        judgements = {
            p.stem: json.loads(p.read_text()) for p in sorted(folder.glob("judgements/*.json"))
        }
        task = folder / "task.toml"
        templates.append(
            Template(
                path=folder,
                spec=json.loads((folder / "spec.json").read_text()),
                header=header,
                head=body[:first],
                loop=body[first : last + 1],
                tail=body[last + 1 :],
                verdict=json.loads((folder / "verdict.json").read_text()),
                judgements=judgements,
                task_toml=task.read_text() if task.is_file() else None,
            )
        )
    if not templates:
        raise SystemExit(f"{runs_dir}: no finished run folders (<experiment>/<key>/verdict.json)")
    return templates


def generate(
    templates: list[Template],
    out: Path,
    n_runs: int,
    *,
    events_per_run: int = 100,
    n_models: int = 8,
    n_tasks: int = 40,
    seed: int = 0,
) -> Path:
    """Write ``n_runs`` synthetic run folders under ``out/synthetic/``; returns that folder."""
    rng = random.Random(seed)
    skills = [0.1 + 0.7 * k / max(1, n_models - 1) for k in range(n_models)]
    difficulty = [rng.random() for _ in range(n_tasks * len(templates))]
    root = out / EXPERIMENT
    root.mkdir(parents=True, exist_ok=True)
    (out / LABEL).write_text(
        "# Synthetic run store — not real results\n\n"
        f"Written by bench/synthetic_store.py (seed {seed}) from the real run folders in "
        "its templates dir: the file shapes are real, the models, tasks, seeds and outcomes "
        "are invented for scale benchmarks. Never report numbers from it.\n"
    )
    per_seed = len(templates) * n_tasks * n_models
    for i in range(n_runs):
        t_index = i % len(templates)
        task_index = (i // len(templates)) % n_tasks
        model_index = (i // (len(templates) * n_tasks)) % n_models
        run_seed = i // per_seed + 1
        template = templates[t_index]
        p_pass = skills[model_index] * (1 - 0.8 * difficulty[t_index * n_tasks + task_index])
        _write_run(
            template,
            root,
            index=i,
            task_suffix=f"--syn{task_index:03d}",
            model_index=model_index,
            run_seed=run_seed,
            passed=rng.random() < p_pass,
            rng=rng,
            events_per_run=events_per_run,
        )
    return root


def _write_run(
    t: Template,
    root: Path,
    *,
    index: int,
    task_suffix: str,
    model_index: int,
    run_seed: int,
    passed: bool,
    rng: random.Random,
    events_per_run: int,
) -> None:
    run_key = hashlib.blake2b(f"synthetic-{index}".encode(), digest_size=8).hexdigest()
    task_id = f"{t.header['task_id']}{task_suffix}"
    model_name = f"synthetic-model-{model_index}"
    model_id = f"synthetic/not-real-{model_index}"
    folder = root / run_key
    folder.mkdir(exist_ok=True)

    spec = _clone(t.spec)
    spec["run_key"] = run_key
    spec["experiment"] = EXPERIMENT
    spec["task"]["id"] = task_id
    _retarget(spec["spec"], task_id, model_name, model_id, run_seed)
    (folder / "spec.json").write_text(json.dumps(spec))

    header = _clone(t.header)
    header.update(run_key=run_key, experiment=EXPERIMENT, task_id=task_id)
    _retarget(header["spec"], task_id, model_name, model_id, run_seed)
    start = datetime.fromisoformat(header["ts"].replace("Z", "+00:00")) + timedelta(minutes=index)
    header["ts"] = start.isoformat().replace("+00:00", "Z")
    pieces = _body_pieces(t, events_per_run)
    stamps = (
        (start + timedelta(seconds=seq * 0.5)).isoformat().replace("+00:00", "Z")
        for seq in range(1, len(pieces) + 1)
    )
    text = "".join(f"{head}{ts}{tail}" for (head, tail), ts in zip(pieces, stamps, strict=True))
    with (folder / "ledger.jsonl").open("w") as fh:
        fh.write(json.dumps(header) + "\n")
        fh.write(text.replace(_MODEL, model_id))

    if t.verdict is not None:
        verdict = _verdict(t.verdict, run_key, task_id, passed, rng)
        (folder / "verdict.json").write_text(json.dumps(verdict))
    if t.judgements:
        (folder / "judgements").mkdir(exist_ok=True)
        for name, judgement in t.judgements.items():
            doc = _judgement(judgement, run_key, task_id, passed, rng)
            (folder / "judgements" / f"{name}.json").write_text(json.dumps(doc))
    if t.task_toml is not None:
        (folder / "task.toml").write_text(t.task_toml)


_CLONE_TEXT: dict[int, str] = {}
_TS, _MODEL = "@@synthetic-ts@@", "@@synthetic-model@@"
_PIECES: dict[tuple[int, int], list[tuple[str, str]]] = {}


def _body_pieces(t: Template, events_per_run: int) -> list[tuple[str, str]]:
    """The template's ledger body (head, the tool loop repeated, tail) with fresh seqs and call
    ids, each event encoded once as the JSON line around its timestamp (and with a placeholder
    for the model id): a run only fills in its own timestamps and model."""
    key = (id(t), events_per_run)
    if key not in _PIECES:
        body = list(t.head)
        reps = max(1, (events_per_run - len(t.head) - len(t.tail)) // max(1, len(t.loop)))
        for rep in range(reps):
            body.extend(_suffixed(e, rep) for e in t.loop)
        body.extend(t.tail)
        pieces = []
        for seq, event in enumerate(body, start=1):
            e = dict(event, seq=seq, ts=_TS)
            if e["kind"] == "model_call":
                e["model"] = _MODEL
            head, tail = (json.dumps(e) + "\n").split(json.dumps(_TS), 1)
            pieces.append((head + '"', '"' + tail))
        _PIECES[key] = pieces
    return _PIECES[key]


def _clone(doc: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a template document (JSON round trip: the C codec, far faster than
    ``copy.deepcopy``, and the documents are JSON anyway)."""
    text = _CLONE_TEXT.get(id(doc))
    if text is None:
        text = _CLONE_TEXT[id(doc)] = json.dumps(doc)
    out: dict[str, Any] = json.loads(text)
    return out


def _retarget(spec: dict[str, Any], task_id: str, model: str, model_id: str, seed: int) -> None:
    spec["experiment_name"] = EXPERIMENT
    spec["task"] = task_id
    spec["seed"] = seed
    spec["model"]["name"] = model
    spec["model"]["model_id"] = model_id


def _suffixed(event: dict[str, Any], rep: int) -> dict[str, Any]:
    if rep == 0 or "call_id" not in event or event["call_id"] is None:
        return event
    return event | {"call_id": f"{event['call_id']}-r{rep}"}


def _verdict(
    template: dict[str, Any], run_key: str, task_id: str, passed: bool, rng: random.Random
) -> dict[str, Any]:
    v = _clone(template)
    v.update(run_key=run_key, task_id=task_id)
    if v.get("status") != "graded" or not v.get("rounds"):
        return v
    last = v["rounds"][-1]
    f2p = [t for t in last["tests"] if t["test_set"] == "f2p"]
    n_failed = 0 if passed else max(1, int(len(f2p) * rng.random()))
    failed = {t["nodeid"] for t in f2p[:n_failed]}
    for test in last["tests"]:
        if test["nodeid"] in failed:
            test["outcome"], test["message"] = "failed", "AssertionError: synthetic failure"
    total = len(f2p)
    step = (total - n_failed) / total if total else (1.0 if passed else 0.0)
    last["f2p"] = {
        "total": total,
        "passed": total - n_failed,
        "all_passed": n_failed == 0,
        "step_score": step,
    }
    last["f2p_test_share"] = step
    last["passed"] = passed and last["p2p"]["all_passed"]
    for sub in last["substeps"]:
        if not passed and rng.random() < 0.5:
            sub["passed"] = False
    for deliverable in v.get("deliverables", []):
        deliverable["passed"] = deliverable["passed"] and passed
    v.update(passed=last["passed"], f2p_pass=n_failed == 0, f2p_step=step)
    return v


def _judgement(
    template: dict[str, Any], run_key: str, task_id: str, passed: bool, rng: random.Random
) -> dict[str, Any]:
    j = _clone(template)
    j.update(run_key=run_key, task_id=task_id)
    if j.get("status") != "judged":
        return j
    tau = float(j.get("tau", 0.8))
    score = tau + (1 - tau) * rng.random() if passed else tau * rng.random()
    j.update(final_score=score, passed=passed, deliverable_correctness=max(score, 0.0))
    if passed:
        j["taxonomy"] = None
    else:
        family, sub_class, name = rng.choice(_FAILURE_LABELS)
        j["taxonomy"] = {
            "family": family,
            "sub_class": sub_class,
            "name": name,
            "rule": "synthetic",
            "reason": "synthetic label (not a real judgement)",
            "evidence": [],
            "labeller": "rules",
        }
    return j


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--templates", type=Path, required=True, help="a runs dir of real runs")
    parser.add_argument("--out", type=Path, required=True, help="the synthetic store to write")
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--events-per-run", type=int, default=100)
    parser.add_argument("--models", type=int, default=8)
    parser.add_argument("--tasks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fresh", action="store_true", help="delete --out first")
    args = parser.parse_args(argv)
    if args.fresh and args.out.exists():
        shutil.rmtree(args.out)
    root = generate(
        load_templates(args.templates),
        args.out,
        args.runs,
        events_per_run=args.events_per_run,
        n_models=args.models,
        n_tasks=args.tasks,
        seed=args.seed,
    )
    print(root, file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
