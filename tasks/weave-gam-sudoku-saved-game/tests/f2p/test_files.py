"""out/solution.txt, out/mistakes.json, out/savefile.json: the saved game solved."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _truth import PUZZLE, SOLUTION, WRONG


def test_solution() -> None:
    path = Path("out/solution.txt")
    assert path.is_file(), "out/solution.txt is missing"
    rows = path.read_text().split()
    assert len(rows) == 9 and all(len(r) == 9 and r.isdigit() for r in rows), "9 lines of 9 digits"
    assert rows == SOLUTION, "out/solution.txt is not the solution of the saved puzzle"


def test_mistakes() -> None:
    path = Path("out/mistakes.json")
    assert path.is_file(), "out/mistakes.json is missing"
    wrong = json.loads(path.read_text()).get("wrong")
    assert wrong == WRONG, (
        f"wrong entries {wrong!r}: not the player's mistakes (sorted, r<row>c<col>)"
    )


def test_savefile() -> None:
    path = Path("out/savefile.json")
    assert path.is_file(), "out/savefile.json is missing"
    save = json.loads(path.read_text())
    cells = save.get("cells")
    assert isinstance(cells, list) and len(cells) == 81, "cells: all 81 cells of the solved game"
    seen = set()
    for cell in cells:
        assert set(cell) >= {"position", "value", "fixed", "earmarks"}, (
            f"{cell}: GNOME Sudoku's keys"
        )
        r, c = cell["position"]
        seen.add((r, c))
        assert cell["value"] == int(SOLUTION[r][c]), f"cell {r},{c}: not the solution's digit"
        assert cell["fixed"] is (PUZZLE[r][c] != "."), f"cell {r},{c}: fixed only for the givens"
    assert len(seen) == 81, "a cell is listed twice"
    assert isinstance(save.get("difficulty_category"), str), "difficulty_category is missing"
