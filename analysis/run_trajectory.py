"""A run's ledger events as the steps its page shows, and its screenshots copied beside the page.

:func:`trajectory` pairs each ``tool_call`` with its ``tool_result`` and the screenshots it
took, numbers the tool calls (step ``n`` = the ``n``-th tool call, as ``snapshot.step`` counts
them) and keeps every other event in ledger order. :func:`copy_screenshots` copies the PNGs the
``screenshot`` events name from the run folder to ``report/runs/<run_key>/``. The run folder
may hold links an agent planted, so each file is read with
:func:`realcli.util.safe_fs.read_bytes_under` (no link followed below the run folder, no FIFO
or device read, a size cap) and must start with the PNG signature; whatever is refused is said
on the page instead of the picture.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from realcli.util.safe_fs import NotARegularFile, read_bytes_under, write_bytes_under

__all__ = ["MAX_SCREENSHOT_BYTES", "Screenshot", "Step", "copy_screenshots", "trajectory"]

MAX_SCREENSHOT_BYTES = 20 * 1024 * 1024
_PNG = b"\x89PNG\r\n\x1a\n"


@dataclass
class Screenshot:
    """A ``screenshot`` event and where its copy is (``src``, relative to the run page), or
    why it is not shown (``problem``)."""

    seq: int
    path: str
    width: int
    height: int
    sha256: str
    source: str
    src: str | None = None
    problem: str | None = None


@dataclass
class Step:
    """One entry of the page's trajectory: a tool call (with its result and screenshots) or
    any other ledger event."""

    seq: int
    kind: str
    ts: Any
    payload: dict[str, Any]
    round: int | None = None
    step: int | None = None  # tool calls: 1-based position among the run's tool calls
    result: dict[str, Any] | None = None
    result_seq: int | None = None
    screenshots: list[Screenshot] = field(default_factory=list)


def _screenshot(event: dict[str, Any]) -> Screenshot:
    p = event["payload"]
    return Screenshot(
        seq=int(event["seq"]),
        path=str(p.get("path", "")),
        width=int(p.get("width") or 0),
        height=int(p.get("height") or 0),
        sha256=str(p.get("sha256", "")),
        source=str(p.get("source", "")),
    )


def trajectory(events: list[dict[str, Any]]) -> list[Step]:
    """The steps of a run's page, in ledger order (``events``: rows of ``events``, payload
    parsed). A tool result or screenshot is shown with its call; one whose call is not in
    the ledger is shown on its own."""
    calls = {
        e["payload"].get("call_id")
        for e in events
        if e["kind"] == "tool_call" and isinstance(e["payload"], dict)
    }
    steps: list[Step] = []
    by_call: dict[str, Step] = {}
    pending_shots: dict[str, list[Screenshot]] = {}
    round_no: int | None = None
    n_calls = 0
    for event in events:
        kind, payload = str(event["kind"]), event["payload"]
        if not isinstance(payload, dict):
            payload = {"value": payload}
        call_id = payload.get("call_id")
        if kind == "round_start":
            round_no = payload.get("round")
        if kind == "tool_call":
            n_calls += 1
            step = Step(int(event["seq"]), kind, event["ts"], payload, round_no, n_calls)
            step.screenshots = pending_shots.pop(str(call_id), [])
            by_call[str(call_id)] = step
            steps.append(step)
            continue
        if kind == "tool_result" and str(call_id) in by_call:
            owner = by_call[str(call_id)]
            owner.result, owner.result_seq = payload, int(event["seq"])
            continue
        if kind == "screenshot" and call_id in calls:
            shot = _screenshot({"seq": event["seq"], "payload": payload})
            if str(call_id) in by_call:
                by_call[str(call_id)].screenshots.append(shot)
            else:  # taken before its call was logged
                pending_shots.setdefault(str(call_id), []).append(shot)
            continue
        step = Step(int(event["seq"]), kind, event["ts"], payload, round_no)
        if kind == "screenshot":
            step.screenshots = [_screenshot({"seq": event["seq"], "payload": payload})]
        steps.append(step)
    return steps


def copy_screenshots(steps: list[Step], run_dir: Path, dest: Path, rel_dest: str) -> int:
    """Copy every screenshot of ``steps`` from ``run_dir`` into ``dest`` (named by content
    hash, so a picture taken twice is stored once) and set its ``src`` (``rel_dest/<name>``)
    or its ``problem``. Returns how many files were written."""
    written: dict[str, str] = {}
    for shot in (s for step in steps for s in step.screenshots):
        rel = PurePosixPath(shot.path)
        if not rel.parts or rel.parts[0] != "screenshots" or ".." in rel.parts:
            shot.problem = f"not shown: {shot.path!r} is not a file under screenshots/"
            continue
        try:
            data = read_bytes_under(run_dir, shot.path, max_bytes=MAX_SCREENSHOT_BYTES)
        except NotARegularFile as exc:
            shot.problem = f"refused: {exc.skipped} (links and special files are not read)"
            continue
        except FileNotFoundError:
            shot.problem = f"missing: {shot.path} is not in the run folder {run_dir}"
            continue
        except (OSError, ValueError) as exc:
            shot.problem = f"unreadable: {shot.path}: {exc}"
            continue
        if not data.startswith(_PNG):
            shot.problem = f"not shown: {shot.path} is not a PNG file"
            continue
        digest = hashlib.sha256(data).hexdigest()
        if shot.sha256 and digest != shot.sha256:
            shot.problem = (
                f"{shot.path} changed since the ledger recorded it "
                f"(sha256 {digest[:12]}, ledger {shot.sha256[:12]}): showing the file as it is now"
            )
        name = f"{digest[:16]}.png"
        if name not in written:
            write_bytes_under(dest.parent, f"{dest.name}/{name}", data)
            written[name] = digest
        shot.src = f"{rel_dest}/{name}"
    return len(written)
