"""``Judgement.screenshots``: the trajectory judge records each screenshot deliverable's
provenance (captured, derived by crop / overlay, unbacked, missing), the outcome-only judge
records none, and an abstained deliverable is not classified."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

from realcli.judge import load_run, make_judge
from realcli.schema.judgement import Judgement, ScreenshotCheck
from realcli.schema.run_spec import JudgeSpec
from realcli.util.hashing import sha256_bytes
from tests.judge.run_builder import RunBuilder, painted

pytestmark = pytest.mark.usefixtures("stand_ins")  # the probe task's test-only checkers

Build = Callable[..., RunBuilder]
TRAJECTORY = JudgeSpec(name="trajectory", kind="trajectory")
OUTCOME = JudgeSpec(name="outcome_only", kind="outcome_only")
SHOT = "evidence/shot.png"


def _judge(b: RunBuilder, spec: JudgeSpec = TRAJECTORY) -> Judgement:
    return make_judge(spec).judge(load_run(b.finish()))


def _capture_seq(b: RunBuilder) -> int:
    run = load_run(b.run_dir)
    (shot,) = [s for s in run.screenshots if s.source == "gui.screenshot"]
    return shot.seq


def _png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_a_saved_capture_is_captured_with_its_event(build: Build) -> None:
    b = build().honest()
    j = _judge(b)
    (check,) = j.screenshots
    sha = sha256_bytes((b.workspace / SHOT).read_bytes())
    seq = _capture_seq(b)
    assert check == ScreenshotCheck(
        deliverable=SHOT,
        provenance="captured",
        sha256=sha,
        how="bytes",
        capture_seq=seq,
        capture_source="gui.screenshot",
        capture_sha256=sha,
        similarity=1.0,
        writer_seq=seq - 1,  # the gui_screenshot call that saved it
        writer_tool="gui_screenshot",
        reason=f"{SHOT} is the gui.screenshot capture at seq {seq}",
    )
    assert make_judge(OUTCOME).judge(load_run(b.run_dir)).screenshots == ()


def test_a_crop_and_an_overlay_are_derived_with_where(build: Build) -> None:
    b = build()
    data = b.screenshot()
    im = Image.open(io.BytesIO(data)).convert("RGB")
    b.shell("python3 crop.py", writes={SHOT: _png(im.crop((8, 4, 48, 40)))})
    b.write("out/result.json", "{}")
    (crop,) = _judge(b).screenshots
    assert (crop.provenance, crop.how, crop.box) == ("derived", "crop", (8, 4, 40, 36))
    assert crop.writer_tool == "shell" and crop.capture_source == "gui.screenshot"

    b = build()
    data = b.screenshot()
    im = Image.open(io.BytesIO(data)).convert("RGB")
    ImageDraw.Draw(im).rectangle((50, 40, 53, 42), fill=(255, 0, 255))
    b.shell("python3 badge.py", writes={SHOT: _png(im)})
    (overlay,) = _judge(b).screenshots
    assert (overlay.provenance, overlay.how, overlay.box) == ("derived", "overlay", (50, 40, 4, 3))
    assert overlay.changed_share == round(12 / (64 * 48), 4)
    assert overlay.similarity == round(1 - 12 / (64 * 48), 4)


def test_painted_missing_and_abstained(build: Build) -> None:
    b = build()
    b.screenshot()
    seq_call = b.shell("python3 draw.py", writes={SHOT: painted()})
    (check,) = _judge(b).screenshots
    assert (check.provenance, check.how, check.capture_seq) == ("unbacked", None, None)
    assert check.writer_tool == "shell" and seq_call.startswith("call_")
    assert "matches none of the run's" in check.reason

    b = build()
    b.screenshot()
    (check,) = _judge(b).screenshots
    assert (check.provenance, check.sha256, check.writer_seq) == ("missing", None, None)

    b = build()
    b.screenshot()
    b.write(f"{SHOT}.SKIPPED.txt", "the game never drew the solved board\n")
    assert _judge(b).screenshots == ()
