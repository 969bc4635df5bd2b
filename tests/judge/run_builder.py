"""Build real, small hybrid run folders for the judges' tests: a task.toml copy, a ledger written
by the LedgerWriter (tool calls with results, GUI screenshots stored under screenshots/, real
workspace snapshots in snapshots.git), the workspace, and a verdict graded by
``realcli.grading.deliverables`` from the test outcomes the test names. Shaped like
/tmp/j1's replay of weave-gam-lightsout, a few calls long, so judging one takes milliseconds."""

from __future__ import annotations

import io
import json
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image

from realcli.grading.deliverables import grade_deliverables
from realcli.ledger import LedgerWriter
from realcli.ledger.layout import SNAPSHOTS_GIT
from realcli.progress.snapshots import Snapshotter
from realcli.schema.events import (
    BudgetEvent,
    Channel,
    ErrorEvent,
    ErrorType,
    Event,
    HeaderEvent,
    MessageEvent,
    RoundEndEvent,
    RoundStartEvent,
    RunEndEvent,
    ScreenshotEvent,
    ToolCallEvent,
    ToolPoolEvent,
    ToolResultEvent,
)
from realcli.schema.task_spec import TaskSpec
from realcli.schema.verdict import (
    RoundVerdict,
    SetScore,
    SubStepResult,
    TestOutcome,
    TestResult,
    Verdict,
    VerdictStatus,
)
from realcli.util.hashing import sha256_bytes
from realcli.util.redact import Redactor

T0 = datetime(2026, 1, 1, tzinfo=UTC)

TASK_TOML = """\
schema_version = 1
id = "judge-probe"
kind = "weave"
category = "feature"
domain = "GAM"
title = "Read a value off the game window, compute a result, ship it with a screenshot"
interfaces = ["cli", "gui"]

[gui]
width = 320
height = 240

[[p1_atoms]]
id = "read-value"
channel = "gui"
text = "the value exists only in the game window"

[[p1_atoms]]
id = "result-file"
channel = "cli"
text = "out/result.json is a workspace file"

[[deliverables]]
path = "out/result.json"
kind = "file"
format = "json"

[[deliverables.clauses]]
id = "value"
text = "value equals the number the window shows"
critical = true
test = "f2p/test_result.py::test_value"
channel = "gui"

[[deliverables.clauses]]
id = "total"
text = "total is the sum computed from the value"
critical = false
test = "f2p/test_result.py::test_total"

[[deliverables.clauses]]
id = "schema"
text = "the file has the key 'units'"
checker = "file"
args = { required_keys = ["units"] }

[[deliverables]]
path = "evidence/shot.png"
kind = "screenshot"
evidence = "screenshot"

[[deliverables.clauses]]
id = "shot"
text = "a screenshot of the game window showing the value"
critical = true
test = "f2p/test_evidence.py::test_shot"

[[deliverables]]
path = "notes.md"
kind = "report"

[[deliverables.clauses]]
id = "notes"
text = "notes say how the value was read"
checker = "standin_text"
args = { contains = "read from the screen", partial = "read" }

[[substeps]]
id = "value"
title = "value read and result computed"
tests = ["f2p/test_result.py"]

[[substeps]]
id = "evidence"
title = "screenshot evidence"
tests = ["f2p/test_evidence.py"]
"""

F2P_TESTS = (
    "f2p/test_result.py::test_value",
    "f2p/test_result.py::test_total",
    "f2p/test_evidence.py::test_shot",
)
GOOD_RESULT = json.dumps({"value": 42, "total": 84, "units": "points"})
GOOD_NOTES = "The value was read from the screen, then doubled.\n"


def png(color: tuple[int, int, int], size: tuple[int, int] = (64, 48)) -> bytes:
    """A "window" in ``color``: a title bar, a frame and a panel whose place depends on the
    colour, so different colours give perceptually different images."""
    from PIL import ImageDraw

    im = Image.new("RGB", size, (240, 240, 240))
    draw = ImageDraw.Draw(im)
    draw.rectangle((0, 0, size[0] - 1, 7), fill=color)
    x = 4 + color[0] % 24
    y = 12 + color[1] % 16
    draw.rectangle((x, y, x + 20, y + 14), fill=color, outline=(0, 0, 0))
    draw.line((0, size[1] - 1, size[0] - 1, 10 + color[2] % 30), fill=(0, 0, 0), width=2)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def painted(seed: int = 7, size: tuple[int, int] = (64, 48)) -> bytes:
    """An image no capture explains (noise, as a drawing library would make)."""
    import random

    rnd = random.Random(seed)
    im = Image.new("RGB", size)
    im.putdata([tuple(rnd.randrange(256) for _ in range(3)) for _ in range(size[0] * size[1])])
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


class RunBuilder:
    """One run folder under ``root``; tool calls are recorded in order, ``finish`` writes the
    ledger and the verdict."""

    def __init__(
        self,
        root: Path,
        *,
        task_toml: str = TASK_TOML,
        channels: tuple[str, ...] = ("cli", "gui"),
        run_key: str = "0123456789abcdef",
        initial: dict[str, str | bytes] | None = None,
    ) -> None:
        self.run_dir = root / run_key
        self.workspace = self.run_dir / "workspace"
        self.workspace.mkdir(parents=True)
        (self.run_dir / "screenshots").mkdir()
        self.task_toml = task_toml
        self.task = TaskSpec.model_validate(tomllib.loads(task_toml))
        self.run_key = run_key
        self.channels = channels
        self.events: list[Event] = [RoundStartEvent(seq=0, ts=T0, round=1)]
        self.shots: list[str] = []
        self._calls = 0
        for rel, data in (initial or {}).items():
            self._put(rel, data)
        self._snap = Snapshotter(self.workspace, self.run_dir / SNAPSHOTS_GIT)
        first = self._snap.snapshot(round=1, step=0, call_id=None, force=True)
        assert first is not None
        self.events.insert(0, first)

    def _put(self, rel: str, data: str | bytes | None) -> None:
        path = self.workspace / rel
        if data is None:
            path.unlink()
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)

    def say(self, text: str) -> None:
        self.events.append(MessageEvent(seq=0, ts=T0, role="assistant", text=text))

    def call(
        self,
        name: str,
        args: dict[str, Any],
        *,
        channel: str = "cli",
        output: str = "",
        ok: bool = True,
        exit_code: int | None = 0,
        writes: dict[str, str | bytes | None] | None = None,
    ) -> str:
        call_id = f"call_{self._calls:04d}"
        self._calls += 1
        self.events.append(
            ToolCallEvent(
                seq=0,
                ts=T0,
                call_id=call_id,
                name=name,
                raw_name=name,
                channel=Channel(channel),
                atomic_op=f"{channel}: {name}",
                args=args,
            )
        )
        for rel, data in (writes or {}).items():
            self._put(rel, data)
        self.events.append(
            ToolResultEvent(
                seq=0,
                ts=T0,
                call_id=call_id,
                ok=ok,
                exit_code=exit_code,
                output_digest=sha256_bytes(output.encode()),
                output_excerpt=output,
            )
        )
        if writes:  # the runner snapshots after every call; unchanged trees add no event
            snap = self._snap.snapshot(round=1, step=self._calls, call_id=call_id)
            if snap is not None:
                self.events.append(snap)
        return call_id

    def shell(self, cmd: str, **kw: Any) -> str:
        return self.call("shell", {"cmd": cmd}, **kw)

    def write(self, rel: str, content: str | bytes) -> str:
        text = content if isinstance(content, str) else f"<{len(content)} bytes>"
        return self.call("write_file", {"path": rel, "content": text}, writes={rel: content})

    def gui(self, name: str = "gui_click", **args: Any) -> str:
        return self.call(name, args, channel="gui", exit_code=None, output=f"{name} done")

    def screenshot(
        self, color: tuple[int, int, int] = (10, 120, 30), save_as: str | None = None
    ) -> bytes:
        """A GUI-service capture (stored under screenshots/, with its event), optionally
        saved into the workspace as the agent's save_as does."""
        data = png(color)
        sha = sha256_bytes(data)
        n = len(self.shots) + 1
        rel = f"screenshots/{n:04d}-{sha[:8]}.png"
        (self.run_dir / rel).write_bytes(data)
        call_id = f"call_{self._calls:04d}"
        self._calls += 1
        self.events.append(
            ToolCallEvent(
                seq=0,
                ts=T0,
                call_id=call_id,
                name="gui_screenshot",
                raw_name="gui_screenshot",
                channel=Channel.gui,
                atomic_op="gui: screenshot",
                args={"save_as": save_as} if save_as else {},
            )
        )
        self.events.append(
            ScreenshotEvent(
                seq=0,
                ts=T0,
                sha256=sha,
                width=64,
                height=48,
                bytes=len(data),
                path=rel,
                source="gui.screenshot",
                call_id=call_id,
            )
        )
        if save_as:
            self._put(save_as, data)
        self.events.append(
            ToolResultEvent(
                seq=0,
                ts=T0,
                call_id=call_id,
                ok=True,
                output_digest=sha,
                output_excerpt=f"screenshot 64x48 PNG, sha256 {sha[:12]}",
            )
        )
        if save_as:
            snap = self._snap.snapshot(round=1, step=self._calls, call_id=call_id)
            if snap is not None:
                self.events.append(snap)
        self.shots.append(sha)
        return data

    def error(self, error_type: ErrorType, message: str) -> None:
        self.events.append(ErrorEvent(seq=0, ts=T0, error_type=error_type, message=message))

    def honest(self) -> RunBuilder:
        """The honest solution: look, save the capture, compute, write the result and notes."""
        self.gui("gui_wait", seconds=1)
        self.screenshot(save_as="evidence/shot.png")
        self.shell("python3 read_value.py evidence/shot.png", output="42\n")
        self.write("out/result.json", GOOD_RESULT)
        self.write("notes.md", GOOD_NOTES)
        self.say("Done: value 42 read from the screen, total 84.")
        return self

    def finish(
        self,
        failed: tuple[str, ...] = (),
        *,
        status: VerdictStatus = VerdictStatus.graded,
        p2p: tuple[int, int] = (2, 2),
        final_shot: bool = True,
    ) -> Path:
        """Write task.toml, the ledger and verdict.json; ``failed``: the F2P tests that fail."""
        (self.run_dir / "task.toml").write_text(self.task_toml, encoding="utf-8")
        events = list(self.events)
        if final_shot and "gui" in self.channels:
            data = png((0, 0, 0))
            if self.shots:
                n, sha = len(self.shots), self.shots[-1]
                data = (self.run_dir / f"screenshots/{n:04d}-{sha[:8]}.png").read_bytes()
            (self.run_dir / "screenshots/final.png").write_bytes(data)
            events.append(
                ScreenshotEvent(
                    seq=0,
                    ts=T0,
                    sha256=sha256_bytes(data),
                    width=64,
                    height=48,
                    bytes=len(data),
                    path="screenshots/final.png",
                    source="runner.final",
                )
            )
        tools = ["shell", "read_file", "write_file"] + (
            ["gui_screenshot", "gui_click", "gui_wait"] if "gui" in self.channels else []
        )
        events += [
            ToolPoolEvent(
                seq=0,
                ts=T0,
                tools_digest="0" * 64,
                system_digest="0" * 64,
                tools=tuple(tools),
                schema_digests=tuple("0" * 64 for _ in tools),
                system_chars=1,
                calls=self._calls,
            ),
            BudgetEvent(seq=0, ts=T0, turns=self._calls, wall_clock_s=1.0),
            RoundEndEvent(seq=0, ts=T0, round=1, reason="done"),
            RunEndEvent(seq=0, ts=T0, status=status.value, wall_time_s=1.0),
        ]
        header = HeaderEvent(
            seq=0,
            ts=T0,
            realcli_version="0.1.0",
            git_sha=None,
            run_key=self.run_key,
            experiment="judge",
            task_id=self.task.id,
            task_digest="0" * 12,
            spec={
                "mode": {
                    "name": "hybrid" if "gui" in self.channels else "cli_only",
                    "channels": list(self.channels),
                }
            },
            host={"name": "test"},
        )
        with LedgerWriter.create(self.run_dir / "ledger.jsonl", header, Redactor(env={})) as w:
            for e in events:
                w.emit(e)
        tests = tuple(
            TestResult(
                nodeid=t,
                test_set="f2p",
                outcome=TestOutcome.failed if t in failed else TestOutcome.passed,
            )
            for t in F2P_TESTS
        ) + tuple(
            TestResult(
                nodeid=f"p2p/test_keep.py::test_{i}",
                test_set="p2p",
                outcome=TestOutcome.passed if i < p2p[0] else TestOutcome.failed,
            )
            for i in range(p2p[1])
        )
        f2p_passed = sum(t.outcome is TestOutcome.passed for t in tests if t.test_set == "f2p")
        substeps = tuple(
            SubStepResult(
                id=s.id,
                passed=all(t not in failed for t in F2P_TESTS if t.startswith(s.tests[0])),
                weight=1.0,
                tests_passed=sum(t not in failed for t in F2P_TESTS if t.startswith(s.tests[0])),
                tests_total=sum(1 for t in F2P_TESTS if t.startswith(s.tests[0])),
            )
            for s in self.task.substeps
        )
        f2p_step = sum(s.passed for s in substeps) / len(substeps)
        graded = status is VerdictStatus.graded
        rounds = (
            (
                RoundVerdict(
                    round=1,
                    passed=not failed and p2p[0] == p2p[1],
                    f2p=SetScore(
                        total=len(F2P_TESTS),
                        passed=f2p_passed,
                        all_passed=not failed,
                        step_score=f2p_step,
                    ),
                    p2p=SetScore(
                        total=p2p[1],
                        passed=p2p[0],
                        all_passed=p2p[0] == p2p[1],
                        step_score=p2p[0] / p2p[1] if p2p[1] else 1.0,
                    ),
                    f2p_test_share=f2p_passed / len(F2P_TESTS),
                    substeps=substeps,
                    tests=tests,
                ),
            )
            if graded
            else ()
        )
        deliverables = (
            grade_deliverables(self.task, tests, self.workspace, set(self.shots)) if graded else ()
        )
        verdict = Verdict(
            run_key=self.run_key,
            task_id=self.task.id,
            status=status,
            error=None if graded else "the sandbox failed to start",
            error_type=None if graded else ErrorType.sandbox_error,
            rounds=rounds,
            deliverables=deliverables,
            passed=graded and not failed and p2p[0] == p2p[1],
            f2p_pass=graded and not failed,
            f2p_step=f2p_step if graded else 0.0,
            p2p_pass=graded and p2p[0] == p2p[1],
            p2p_step=(p2p[0] / p2p[1] if p2p[1] else 1.0) if graded else 0.0,
            graded_at=T0,
        )
        (self.run_dir / "verdict.json").write_text(verdict.model_dump_json(indent=2))
        return self.run_dir
