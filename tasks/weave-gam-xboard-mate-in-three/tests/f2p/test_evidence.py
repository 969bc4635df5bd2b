"""evidence/mate.png: xboard's board after the agent typed its mating line in.

The board is found by its two square colours (the frozen profile's flat #C8C365/#77A26D
squares), then every square is classified by the pieces' fill colours (white pieces #FFFFCC,
black pieces #202020): the picture must show the final position of the agent's own line.
"""

import json
import sys
from pathlib import Path

from realcli_testkit import bbox_of, count_near, read_png  # realcli's shared test helpers

sys.path.insert(0, str(Path(__file__).parent))
from _truth import LINES, occupancy

LIGHT, DARK = (0xC8, 0xC3, 0x65), (0x77, 0xA2, 0x6D)
WHITE_FILL, BLACK_FILL = (0xFF, 0xFF, 0xCC), (0x20, 0x20, 0x20)


def board_on(path: Path) -> list[str]:
    img = read_png(path)
    assert img.size == (1024, 768), "not a full screenshot of the 1024x768 display"
    light, dark = bbox_of(img, LIGHT, 2), bbox_of(img, DARK, 2)
    assert light and dark, "no xboard board (its square colours) on the screenshot"
    x0, y0 = min(light[0], dark[0]), min(light[1], dark[1])
    x1 = max(light[0] + light[2], dark[0] + dark[2])
    y1 = max(light[1] + light[3], dark[1] + dark[3])
    side = (x1 - x0) / 8
    assert side >= 20 and abs((y1 - y0) - (x1 - x0)) <= 8, "the board is hidden or cut off"
    rows = []
    for r in range(8):
        row = ""
        for c in range(8):
            box = (int(x0 + c * side), int(y0 + r * side), int(side), int(side))
            white = count_near(img, WHITE_FILL, 3, box)
            black = count_near(img, BLACK_FILL, 3, box)
            area = side * side
            row += "W" if white > 0.06 * area else "B" if black > 0.06 * area else "."
        rows.append(row)
    return rows


def test_mate_screenshot() -> None:
    path = Path("evidence/mate.png")
    assert path.is_file(), "evidence/mate.png is missing"
    line = " ".join(json.loads(Path("out/mate.json").read_text())["line"])
    assert line in LINES, "out/mate.json's line is no forced mate of the puzzle"
    want = occupancy(LINES[line])
    got = board_on(path)
    assert got == want, (
        "the board on evidence/mate.png is not the final position of the line in out/mate.json"
        f" (want {want}, see {got}): type every move of the line into xboard"
    )
