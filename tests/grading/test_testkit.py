"""The shared test helpers (``realcli_testkit``): real PNGs of every colour type decode to the
pixels ImageMagick drew; colour, region and similarity checks; and in a real grading sandbox
the tests import realcli's read-only copy, never one the agent left in the workspace."""

from __future__ import annotations

import subprocess
from functools import partial
from pathlib import Path

import pytest

from realcli.grading.realcli_testkit import (
    bbox_of,
    colour_counts,
    colour_share,
    count_near,
    parse_colour,
    read_png,
    region_difference,
    similarity,
)
from realcli.grading.testkit import TESTKIT_MOUNT
from realcli.grading.testrun import fresh_sandbox, pytest_argv
from realcli.gui.png import encode_png
from realcli.sandbox import SandboxOptions, make_sandbox

CONVERT = "/usr/bin/convert"
# ImageMagick output types: (option, what the decoder must handle)
VARIANTS = {
    "PNG24": "8-bit RGB",
    "PNG32": "8-bit RGBA",
    "PNG48": "16-bit RGB",
    "PNG64": "16-bit RGBA",
    "PNG8": "palette",
}


def _two_boxes(tmp: Path, fmt: str) -> Path:
    out = tmp / f"img-{fmt}.png"
    subprocess.run(
        [CONVERT, "-size", "40x30", "xc:#ffffff", "-fill", "#2e7d32",
         "-draw", "rectangle 5,4 14,11", "-fill", "#c62828", "-draw", "rectangle 20,10 29,19",
         "-define", "png:compression-filter=5", f"{fmt}:{out}"],
        check=True, capture_output=True,
    )  # fmt: skip
    return out


@pytest.mark.skipif(not Path(CONVERT).exists(), reason="ImageMagick is not installed")
@pytest.mark.parametrize("fmt", sorted(VARIANTS))
def test_every_colour_type_decodes_to_the_drawn_pixels(tmp_path: Path, fmt: str) -> None:
    img = read_png(_two_boxes(tmp_path, fmt))
    assert img.size == (40, 30)
    assert img.pixel(0, 0) == (255, 255, 255)
    assert img.pixel(10, 8) == (0x2E, 0x7D, 0x32), VARIANTS[fmt]
    assert bbox_of(img, "#2e7d32") == (5, 4, 10, 8)
    assert count_near(img, "#c62828", region=(20, 10, 10, 10)) == 100
    assert colour_counts(img)[(255, 255, 255)] == 40 * 30 - 80 - 100


@pytest.mark.skipif(not Path(CONVERT).exists(), reason="ImageMagick is not installed")
def test_grey_and_low_bit_depths(tmp_path: Path) -> None:
    out = tmp_path / "grey.png"
    subprocess.run(
        [CONVERT, "-size", "16x4", "gradient:black-white", "-colorspace", "Gray",
         "-depth", "2", f"PNG8:{out}"],
        check=True, capture_output=True,
    )  # fmt: skip
    img = read_png(out)
    assert img.pixel(0, 0) == (0, 0, 0) and img.pixel(0, 3) == (255, 255, 255)


def test_region_and_similarity() -> None:
    white = bytes([255]) * (8 * 8 * 3)
    half = bytearray(white)
    for i in range(0, 8 * 4 * 3):  # the top half black
        half[i] = 0
    a, b = read_png(encode_png(8, 8, white)), read_png(encode_png(8, 8, half))
    assert similarity(a, a) == 1.0
    assert similarity(a, b) == pytest.approx(0.5)
    assert region_difference(a, b) == pytest.approx(0.5)
    assert region_difference(a, b, region=(0, 4, 8, 4)) == 0.0
    assert colour_share(b, (0, 0, 0)) == pytest.approx(0.5)
    assert colour_share(b, "#0a0a0a", tolerance=10) == pytest.approx(0.5)
    assert parse_colour("2E7D32") == (46, 125, 50)
    with pytest.raises(ValueError, match="differ in size"):
        similarity(a, read_png(encode_png(4, 4, bytes(48))))
    with pytest.raises(ValueError, match="not a PNG"):
        read_png(b"GIF89a")


@pytest.mark.sandbox
def test_grading_sandbox_imports_realclis_copy_not_the_workspaces(tmp_path: Path) -> None:
    tests, workspace = tmp_path / "tests", tmp_path / "ws"
    (tests / "f2p").mkdir(parents=True)
    (tests / "f2p" / "test_kit.py").write_text(
        "import realcli_testkit\n\n\ndef test_kit():\n"
        f"    assert realcli_testkit.__file__ == '{TESTKIT_MOUNT}/realcli_testkit.py'\n"
        "    assert realcli_testkit.read_png\n",
        encoding="utf-8",
    )
    workspace.mkdir()
    (workspace / "realcli_testkit.py").write_text("raise SystemExit('decoy')\n", "utf-8")
    options = SandboxOptions(workspace=workspace)
    argv = pytest_argv(tests, ["f2p"], options.workdir, [])
    make = partial(make_sandbox, "local")
    with fresh_sandbox(workspace, tests, options, make) as (_, box):
        res = box.exec(argv, timeout_s=120, cwd=options.workdir)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "1 passed" in res.stdout
