"""The evidence an agent judge reads: the run's deliverables, ledger, screenshots, task.toml
and instruction, copied (no link followed, a size cap in all) into the folder mounted
read-only at ``/judge/evidence``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from realcli.judge.context import RunEvidence
from realcli.ledger.layout import LEDGER, TASK_COPY
from realcli.schema.events import MessageEvent
from realcli.util.safe_fs import NotARegularFile, lstat_under, read_bytes_under, write_bytes_under

__all__ = ["StagedEvidence", "stage_evidence"]


@dataclass
class StagedEvidence:
    root: Path
    files: list[dict[str, Any]] = field(default_factory=list)
    omitted: list[dict[str, str]] = field(default_factory=list)
    corpus_parts: list[str] = field(default_factory=list)

    @property
    def corpus(self) -> str:
        return "\n".join(self.corpus_parts)


def _ledger_strings(raw: bytes) -> list[str]:
    """Every string value in the ledger's events (a verbatim quote is one of their parts)."""
    out: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for line in raw.decode("utf-8", "replace").splitlines():
        with contextlib.suppress(ValueError):
            walk(json.loads(line))
    return out


def stage_evidence(run: RunEvidence, dest: Path, cap_bytes: int) -> StagedEvidence:
    """Copy the run's evidence into the new folder ``dest`` (no link followed; at most
    ``cap_bytes`` in all, in this order: task.toml, instruction.md, deliverables and their
    SKIPPED.txt, the ledger, the screenshots). A file that would pass the cap is left out and
    listed in ``MANIFEST.json``; nothing else of the run folder (hidden test logs, verdict,
    snapshots, the rest of the workspace) is copied."""
    dest.mkdir()
    staged = StagedEvidence(dest)
    used = 0

    def put(rel: str, data: bytes | None, src: str, *, text: bool = False) -> None:
        nonlocal used
        if data is None:
            return
        if used + len(data) > cap_bytes:
            staged.omitted.append({"path": rel, "reason": f"over the evidence cap ({src})"})
            return
        write_bytes_under(dest, rel, data)
        os.chmod(dest / rel, 0o444)
        used += len(data)
        staged.files.append(
            {"path": rel, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        )
        if text:
            staged.corpus_parts.append(data.decode("utf-8", "replace"))

    def read(root: Path | None, rel: str) -> bytes | None:
        if root is None:
            return None
        try:
            return read_bytes_under(root, rel, max_bytes=max(cap_bytes - used, 0))
        except NotARegularFile as exc:
            if exc.skipped.kind == "too_large":
                staged.omitted.append({"path": rel, "reason": "over the evidence cap"})
            else:
                staged.omitted.append({"path": rel, "reason": f"not a regular file ({exc})"})
            return None
        except (OSError, ValueError):
            return None

    put("task.toml", read(run.run_dir, TASK_COPY), "task.toml")
    instruction = next(
        (m.text for m in run.messages if isinstance(m, MessageEvent) and m.role == "user"), None
    )
    if instruction is not None:
        put("instruction.md", instruction.encode("utf-8"), "ledger's first user message")
    elif run.bundle_root is not None:
        put("instruction.md", read(run.bundle_root, "instruction.md"), "task bundle")
    ws = run.workspace
    for d in run.task.deliverables:
        for rel in (d.path, f"{d.path}.SKIPPED.txt"):
            data = read(ws, rel)
            if data is not None:
                put(f"workspace/{rel}", data, rel, text=True)
    ledger = read(run.run_dir, LEDGER)
    if ledger is not None:
        put("ledger.jsonl", ledger, "ledger")
        if "ledger.jsonl" in {f["path"] for f in staged.files}:
            staged.corpus_parts.extend(_ledger_strings(ledger))
    shots = run.run_dir / "screenshots"
    st = lstat_under(run.run_dir, "screenshots")
    if st is not None and stat.S_ISDIR(st.st_mode):
        for name in sorted(os.listdir(shots)):
            put(f"screenshots/{name}", read(run.run_dir, f"screenshots/{name}"), name)
    deliverables = [
        {
            "path": d.path,
            "kind": d.kind,
            "description": d.description,
            "evidence": d.evidence,
            "clauses": [{"id": c.id, "text": c.text, "critical": c.critical} for c in d.clauses],
        }
        for d in run.task.deliverables
    ]
    manifest = {
        "run_key": run.run_key,
        "task_id": run.task.id,
        "files": staged.files,
        "omitted": staged.omitted,
        "deliverables": deliverables,
    }
    write_bytes_under(dest, "MANIFEST.json", (json.dumps(manifest, indent=2) + "\n").encode())
    os.chmod(dest / "MANIFEST.json", 0o444)
    return staged
