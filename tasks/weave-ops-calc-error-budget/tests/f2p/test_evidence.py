"""evidence/budget.png: Calc's recalculated Budget sheet, every exhausted service shaded."""

import sys
from pathlib import Path

from realcli_testkit import count_near, read_png  # realcli's shared test helpers

sys.path.insert(0, str(Path(__file__).parent))
from _truth import FROZEN  # noqa: E402

ROW_PX = 17  # a Calc row at 100% zoom in the frozen profile
SHADE = (0xD3, 0x2F, 0x2F)  # the workbook's "Exhausted" conditional style


def test_budget_screenshot() -> None:
    path = Path("evidence/budget.png")
    assert path.is_file(), "evidence/budget.png is missing"
    img = read_png(path)
    assert img.size == (1280, 800), "not a full screenshot of the 1280x800 display"
    shaded = [y for y in range(img.height) if count_near(img, SHADE, 3, (0, y, img.width, 1)) > 150]
    assert shaded, "no shaded (exhausted) budget on the screenshot"
    rows = len(shaded) / ROW_PX
    assert abs(rows - len(FROZEN)) < 0.5, (
        f"{len(shaded)} shaded pixel rows (~{rows:.1f} table rows), want {len(FROZEN)}: "
        "recalculate the workbook (stale) and clear the selection"
    )
