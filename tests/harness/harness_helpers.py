"""Shared test types and host-side probes for harness tests."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from realcli.harness import HarnessOutcome
from realcli.schema.events import Event


@dataclass
class Session:
    outcome: HarnessOutcome
    events: list[Event]
    workspace: Path
    native_dir: Path

    def kinds(self) -> list[str]:
        """Event kinds in order, without the ``session`` record every session starts with."""
        return [e.kind for e in self.events if e.kind != "session"]

    def of(self, kind: str) -> list[Any]:
        return [e for e in self.events if e.kind == kind]


def write_script(path: Path, actions: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(a) + "\n" for a in actions))
    return path


def unique_sleep() -> str:
    """A sleep duration no other process on the host has in its argv."""
    return f"{1000 + secrets.randbelow(10**6)}.{secrets.randbelow(10**6):06d}"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL file, in order; other lines (noise) are skipped."""
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records
