"""What a judge reads: one finished run folder, loaded once and validated.

:class:`RunEvidence` gives judges, clause checkers and cheat detectors typed access to the
run's ledger (tool calls paired with their results, screenshots, snapshots, errors), its
verdict, the task.toml it ran against, the workspace as the agent left it, the trusted
screenshots, and the task bundle's hidden files (anchors) when the bundle on disk is the one
the run used (same digest). Nothing here follows a link in the workspace: files are read with
:mod:`realcli.util.safe_fs`.
"""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from realcli.ledger import LedgerContents, read_ledger
from realcli.ledger.layout import LEDGER, SNAPSHOTS_GIT, TASK_COPY, VERDICT
from realcli.schema.events import (
    ErrorEvent,
    Event,
    MessageEvent,
    ScreenshotEvent,
    SnapshotEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from realcli.schema.judgement import Evidence
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import MAX_VERDICT_BYTES, Verdict
from realcli.util.bounded import MIB, BadFile, read_bounded, read_json_file
from realcli.util.errors import RealcliError
from realcli.util.safe_fs import NotARegularFile, read_bytes_under

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "MAX_IMAGE_BYTES",
    "MAX_IMAGE_PIXELS",
    "BadImage",
    "JudgeInputError",
    "RunEvidence",
    "ToolStep",
    "load_run",
    "quote",
]

MAX_IMAGE_BYTES = 64 * MIB
MAX_IMAGE_PIXELS = 64_000_000
"""An image larger than this is not decoded (a 7680x4320 display is 33 M pixels)."""
QUOTE_CHARS = 300


class JudgeInputError(RealcliError):
    """A run folder a judge cannot read (no ledger, no verdict, a bad task.toml copy)."""


class BadImage(ValueError):
    """An image that does not decode (truncated, not an image, too large)."""


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` verbatim, cut to ``limit`` characters (a cut is marked with an ellipsis)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class ToolStep:
    """One tool call and its result (None when the run stopped before it returned)."""

    index: int
    call: ToolCallEvent
    result: ToolResultEvent | None

    @property
    def seq(self) -> int:
        return self.call.seq

    @property
    def text(self) -> str:
        """The call's arguments as one string (a shell command, a written file's content)."""
        args = self.call.args
        parts = [str(v) for k, v in sorted(args.items()) if isinstance(v, str | int | float)]
        return "\n".join(parts)

    @property
    def output(self) -> str:
        return self.result.output_excerpt if self.result else ""

    def evidence(self, needle: str | None = None, limit: int = QUOTE_CHARS) -> Evidence:
        """A verbatim quote of this call (around ``needle`` when given) with its seq."""
        text = self.text
        if needle and needle in text:
            at = text.index(needle)
            start = max(0, at - limit // 3)
            text = text[start : start + limit]
        return Evidence(
            kind="trajectory", quote=quote(f"{self.call.name}: {text}", limit), seq=self.seq
        )


@dataclass
class RunEvidence:
    """A finished run folder, as judges see it."""

    run_dir: Path
    ledger: LedgerContents
    verdict: Verdict
    task: TaskSpec
    bundle_root: Path | None = field(
        default=None, metadata={"doc": "the task bundle on disk, when its digest matches"}
    )

    # ledger views -------------------------------------------------------------------------
    @property
    def run_key(self) -> str:
        return self.ledger.header.run_key

    @property
    def spec(self) -> dict[str, Any]:
        return self.ledger.header.spec

    @property
    def mode(self) -> str:
        mode = self.spec.get("mode")
        return str(mode.get("name", "")) if isinstance(mode, dict) else ""

    @property
    def events(self) -> list[Event]:
        return self.ledger.events

    @cached_property
    def steps(self) -> list[ToolStep]:
        """Every tool call in ledger order, paired with its result."""
        results = {e.call_id: e for e in self.events if isinstance(e, ToolResultEvent)}
        calls = [e for e in self.events if isinstance(e, ToolCallEvent)]
        return [ToolStep(i, c, results.get(c.call_id)) for i, c in enumerate(calls)]

    @cached_property
    def step_by_call(self) -> dict[str, ToolStep]:
        return {s.call.call_id: s for s in self.steps}

    @cached_property
    def screenshots(self) -> list[ScreenshotEvent]:
        return [e for e in self.events if isinstance(e, ScreenshotEvent)]

    @cached_property
    def screenshot_by_sha(self) -> dict[str, ScreenshotEvent]:
        return {e.sha256: e for e in reversed(self.screenshots)}  # the first one wins

    @cached_property
    def snapshots(self) -> list[SnapshotEvent]:
        return [e for e in self.events if isinstance(e, SnapshotEvent)]

    @cached_property
    def errors(self) -> list[ErrorEvent]:
        return [e for e in self.events if isinstance(e, ErrorEvent)]

    @cached_property
    def messages(self) -> list[MessageEvent]:
        return [e for e in self.events if isinstance(e, MessageEvent)]

    def event(self, seq: int) -> Event | None:
        return next((e for e in self.events if e.seq == seq), None)

    # files --------------------------------------------------------------------------------
    @property
    def workspace(self) -> Path | None:
        ws = self.run_dir / "workspace"
        return ws if ws.is_dir() and not ws.is_symlink() else None

    def read_workspace(self, rel: str, limit: int = MAX_IMAGE_BYTES) -> bytes | None:
        """The bytes of a workspace file, or None when it is missing or not a regular file
        (a link is never followed)."""
        ws = self.workspace
        if ws is None:
            return None
        try:
            data = read_bytes_under(ws, rel)
        except (NotARegularFile, OSError, ValueError):
            return None
        return data if len(data) <= limit else None

    def exists(self, rel: str) -> bool:
        ws = self.workspace
        return ws is not None and (ws / rel).is_file() and not (ws / rel).is_symlink()

    def screenshot_bytes(self, shot: ScreenshotEvent) -> bytes:
        """The PNG a screenshot event recorded (under the run folder's screenshots/)."""
        path = self.run_dir / shot.path
        try:
            return read_bounded(path, MAX_IMAGE_BYTES)
        except (OSError, BadFile) as exc:
            raise BadImage(f"{path}: {exc}") from exc

    def check_captures(self) -> None:
        """Every screenshot event's PNG is in the run folder as recorded (its sha256):
        :class:`JudgeInputError` naming the file and the event otherwise (a
        damaged run folder is never judged as if its evidence were missing)."""
        for shot in self.screenshots:
            path = self.run_dir / shot.path
            where = f"ledger.jsonl seq {shot.seq} (screenshot {shot.sha256[:12]})"
            fix = "the run folder is damaged: restore the file or rerun this run"
            if ".." in Path(shot.path).parts or path.is_symlink():
                raise JudgeInputError(str(path), where, "not a file of the run folder", fix)
            try:
                data = self.screenshot_bytes(shot)
            except BadImage:
                raise JudgeInputError(str(path), where, "missing or unreadable", fix) from None
            if hashlib.sha256(data).hexdigest() != shot.sha256:
                raise JudgeInputError(
                    str(path), where, f"its sha256 is not the event's ({len(data)} bytes)", fix
                )

    def hidden_file(self, rel: str) -> Path | None:
        """A file of the task bundle's ``tests/`` (hidden from the agent), or None when the
        bundle on disk is not the one the run used."""
        if self.bundle_root is None:
            return None
        path = self.bundle_root / "tests" / rel
        return path if path.is_file() else None

    @cached_property
    def anchors(self) -> dict[str, Any] | None:
        """The task's hidden anchors (``task.anchors`` under tests/), or None."""
        if self.task.anchors is None:
            return None
        path = self.hidden_file(self.task.anchors)
        if path is None:
            return None
        try:
            doc = read_json_file(path, 16 * MIB)
        except (OSError, BadFile) as exc:
            raise JudgeInputError(
                str(path), None, f"unreadable anchors ({exc})", "fix the file"
            ) from exc
        if not isinstance(doc, dict):
            raise JudgeInputError(str(path), None, "anchors must be a JSON object", "fix it")
        return doc

    # provenance ---------------------------------------------------------------------------
    @cached_property
    def file_history(self) -> dict[str, list[tuple[SnapshotEvent, str | None]]]:
        """Per workspace path: each snapshot that changed it and the git blob it then had
        (None: deleted), in order. Empty without snapshots."""
        git_dir = self.run_dir / SNAPSHOTS_GIT
        by_commit = {s.commit: s for s in self.snapshots}
        if not by_commit or not git_dir.is_dir():
            return {}
        from realcli.progress.snapshots import git_env

        proc = subprocess.run(
            [
                "git",
                "log",
                "--reverse",
                "--raw",
                "--no-renames",
                "--no-abbrev",
                "--format=C %H",
                "--root",
                "-z",
                "refs/heads/snapshots",
            ],
            env=git_env(git_dir),
            capture_output=True,
            timeout=120,
            check=False,
        )
        history: dict[str, list[tuple[SnapshotEvent, str | None]]] = {}
        if proc.returncode != 0:
            return history
        current: SnapshotEvent | None = None
        fields = proc.stdout.split(b"\0")
        i = 0
        while i < len(fields):
            item = fields[i].strip(b"\n")
            if item.startswith(b"C "):
                current = by_commit.get(item[2:].decode())
                i += 1
                continue
            if item.startswith(b":") and i + 1 < len(fields):
                meta = item.decode().split()
                path = fields[i + 1].decode("utf-8", "surrogateescape")
                blob = meta[3] if meta[4] != "D" else None
                if current is not None:
                    history.setdefault(path, []).append((current, blob))
                i += 2
                continue
            i += 1
        return history

    def writer_of(self, rel: str) -> ToolStep | None:
        """The tool call after which ``rel`` last changed (so it wrote the file's final
        bytes), from the workspace snapshots; None when unknown."""
        changes = self.file_history.get(rel)
        if not changes:
            return None
        snap, _blob = changes[-1]
        return self.step_by_call.get(snap.call_id) if snap.call_id else None

    # images -------------------------------------------------------------------------------
    @staticmethod
    def decode_image(data: bytes, where: str) -> Image:
        """Decode image bytes (PNG, JPEG, ...) into RGB pixels; :class:`BadImage` naming
        ``where`` when they are not a decodable image of a sane size."""
        from PIL import Image as PILImage

        try:
            with PILImage.open(io.BytesIO(data)) as im:
                if im.width * im.height > MAX_IMAGE_PIXELS:
                    raise BadImage(f"{where}: {im.width}x{im.height} is larger than allowed")
                im.load()
                return im.convert("RGB")
        except BadImage:
            raise
        except Exception as exc:  # PIL raises many types for bad data
            raise BadImage(f"{where}: not a decodable image ({type(exc).__name__}: {exc})") from exc

    @cached_property
    def inputs_digest(self) -> str:
        """sha256 over what judges read: the ledger, the verdict, the task copy, and every
        file under the workspace and screenshots/ (names and bytes)."""
        h = hashlib.sha256()
        for name in (LEDGER, VERDICT, TASK_COPY):
            p = self.run_dir / name
            h.update(name.encode() + b"\0")
            if p.is_file():
                h.update(hashlib.sha256(p.read_bytes()).digest())
        for sub in ("workspace", "screenshots"):
            root = self.run_dir / sub
            if not root.is_dir() or root.is_symlink():
                continue
            for p in sorted(root.rglob("*")):
                if p.is_symlink() or not p.is_file():
                    continue
                h.update(str(p.relative_to(self.run_dir)).encode() + b"\0")
                h.update(hashlib.sha256(p.read_bytes()).digest())
        return h.hexdigest()


def _task_copy(run_dir: Path) -> TaskSpec:
    path = run_dir / TASK_COPY
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        return TaskSpec.model_validate(doc)
    except FileNotFoundError:
        raise JudgeInputError(
            str(path), None, "missing: the run folder has no task.toml copy", "rerun this run"
        ) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise JudgeInputError(str(path), None, f"unreadable ({exc})", "rerun this run") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or None
        raise JudgeInputError(str(path), where, str(first["msg"]), "rerun this run") from exc


def load_run(run_dir: Path, tasks_dir: Path | None = None) -> RunEvidence:
    """Load a finished run folder; :class:`JudgeInputError` (file, field, fix) when it cannot
    be judged. ``tasks_dir``: where the task bundle's hidden files (anchors) are looked up."""
    ledger_path = run_dir / LEDGER
    if not ledger_path.is_file():
        raise JudgeInputError(
            str(ledger_path), None, "missing: the run folder has no ledger", "rerun this run"
        )
    ledger = read_ledger(ledger_path)
    verdict_path = run_dir / VERDICT
    try:
        doc = read_json_file(verdict_path, MAX_VERDICT_BYTES)
        verdict = Verdict.model_validate(doc)
    except FileNotFoundError:
        raise JudgeInputError(
            str(verdict_path), None, "missing: the run did not finish", "run it (realcli run)"
        ) from None
    except (OSError, BadFile) as exc:
        raise JudgeInputError(str(verdict_path), None, str(exc), "regrade or rerun it") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or None
        raise JudgeInputError(
            str(verdict_path), where, str(first["msg"]), "realcli regrade"
        ) from exc
    task = _task_copy(run_dir)
    bundle: Path | None = None
    if tasks_dir is not None:
        candidate = tasks_dir / task.id
        if (candidate / "task.toml").is_file() and re.fullmatch(r"[a-z0-9._-]+", task.id):
            from realcli.catalog import load_task

            try:
                if load_task(candidate).digest == ledger.header.task_digest:
                    bundle = candidate
            except RealcliError:
                bundle = None
    return RunEvidence(
        run_dir=run_dir, ledger=ledger, verdict=verdict, task=task, bundle_root=bundle
    )
