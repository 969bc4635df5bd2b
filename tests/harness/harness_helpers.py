"""Shared test types for harness tests."""

from __future__ import annotations

import json
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
        return [e.kind for e in self.events]

    def of(self, kind: str) -> list[Any]:
        return [e for e in self.events if e.kind == kind]


def write_script(path: Path, actions: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(a) + "\n" for a in actions))
    return path
