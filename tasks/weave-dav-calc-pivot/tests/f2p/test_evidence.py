"""evidence/q3_report.png: Calc showing out/q3_report.ods with its below-target rows shaded."""

import sys
from pathlib import Path

from realcli_testkit import bbox_of, count_near, read_png  # realcli's shared test helpers

sys.path.insert(0, str(Path(__file__).parent))
from _truth import BELOW  # noqa: E402

ROW_PX = 17  # a Calc row at 100% zoom in the frozen profile
SHADE = (0xFF, 0x80, 0x80)


def test_report_screenshot() -> None:
    path = Path("evidence/q3_report.png")
    assert path.is_file(), "evidence/q3_report.png is missing"
    img = read_png(path)
    assert img.size == (1280, 800), "not a full screenshot of the 1280x800 display"
    box = bbox_of(img, SHADE, tolerance=3)
    assert box is not None, "no shaded (#ff8080) rows on the screenshot"
    x, y, w, h = box
    assert w >= 250, f"the shaded rows span {w}px: not four Calc columns"
    assert abs(h - ROW_PX * len(BELOW)) <= 4, f"{h}px of shaded rows: not {len(BELOW)} rows"
    # Solid: the shaded block is the rows' backgrounds (text aside), not scattered pixels.
    assert count_near(img, SHADE, 3, box) >= 0.8 * w * h, "the shaded block is not solid"
