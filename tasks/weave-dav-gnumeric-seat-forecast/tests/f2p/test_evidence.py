"""evidence/gaps.png: Gnumeric's workbook with the targets typed in, short regions shaded.

The workbook's own conditional style shades a Gap cell #D32F2F while it is negative: with the
right targets in the Q4 target column, exactly the short regions' rows show it.
"""

import sys
from pathlib import Path

from realcli_testkit import count_near, read_png  # realcli's shared test helpers

sys.path.insert(0, str(Path(__file__).parent))
from _truth import SHORT

ROW_PX = 19  # a shaded Gnumeric cell at 100% zoom, Sans 10 (measured)
SHADE = (0xD3, 0x2F, 0x2F)


def test_gaps_screenshot() -> None:
    path = Path("evidence/gaps.png")
    assert path.is_file(), "evidence/gaps.png is missing"
    img = read_png(path)
    assert img.size == (1024, 768), "not a full screenshot of the 1024x768 display"
    shaded = [y for y in range(img.height) if count_near(img, SHADE, 3, (0, y, img.width, 1)) > 40]
    assert shaded, "no shaded (short) Gap cell on the screenshot: type the targets in"
    rows = len(shaded) / ROW_PX
    assert abs(rows - len(SHORT)) < 0.5, (
        f"{len(shaded)} shaded pixel rows (~{rows:.1f} table rows), want {len(SHORT)}: "
        "every region's target typed into its own row, no selection over the Gap column"
    )
