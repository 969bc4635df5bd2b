"""Solve the saved game read off the screen; write the club's files.

Usage: python3 tools/sudoku_solve.py work/grid.json [folder]

Writes into ``folder`` (default out/; a draft folder until GNOME Sudoku accepts the solution):

- solution.txt: the solved grid, 9 lines of 9 digits;
- mistakes.json: the player's own entries (not given) that differ from the solution, as
  ``r<row>c<col>`` (1-based), sorted;
- savefile.json: the solved game in GNOME Sudoku's save format (cells with position,
  value, fixed, earmarks).
Prints the keys that type the missing and corrected digits in, row by row (serpentine, from
the top-left cell, where GNOME Sudoku's cursor starts).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def candidates(g: list[list[int]], r: int, c: int) -> list[int]:
    used = set(g[r]) | {g[i][c] for i in range(9)}
    br, bc = r // 3 * 3, c // 3 * 3
    used |= {g[br + i][bc + j] for i in range(3) for j in range(3)}
    return [d for d in range(1, 10) if d not in used]


def solve(g: list[list[int]]) -> bool:
    best = None
    for r in range(9):
        for c in range(9):
            if g[r][c] == 0:
                cand = candidates(g, r, c)
                if best is None or len(cand) < len(best[2]):
                    best = (r, c, cand)
    if best is None:
        return True
    r, c, cand = best
    for d in cand:
        g[r][c] = d
        if solve(g):
            return True
    g[r][c] = 0
    return False


def main() -> None:
    read = json.loads(Path(sys.argv[1]).read_text())
    shown = [[0 if ch == "." else int(ch) for ch in row] for row in read["grid"]]
    given = [[ch == "1" for ch in row] for row in read["given"]]
    g = [[shown[r][c] if given[r][c] else 0 for c in range(9)] for r in range(9)]
    if not solve(g):
        raise SystemExit("the given digits have no solution: check the reading")
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "out")
    out.mkdir(parents=True, exist_ok=True)
    (out / "solution.txt").write_text("".join("".join(map(str, row)) + "\n" for row in g))
    wrong = [
        f"r{r + 1}c{c + 1}"
        for r in range(9)
        for c in range(9)
        if not given[r][c] and shown[r][c] and shown[r][c] != g[r][c]
    ]
    (out / "mistakes.json").write_text(json.dumps({"wrong": sorted(wrong)}, indent=1) + "\n")
    cells = [
        {"position": [r, c], "value": g[r][c], "fixed": given[r][c], "earmarks": []}
        for r in range(9)
        for c in range(9)
    ]
    save = {"difficulty_category": "Hard Difficulty", "time_elapsed": 0.0, "cells": cells}
    (out / "savefile.json").write_text(json.dumps(save, indent=2) + "\n")
    for r in range(9):
        cols = range(9) if r % 2 == 0 else range(8, -1, -1)
        keys = []
        for i, c in enumerate(cols):
            if shown[r][c] != g[r][c]:
                keys.append(str(g[r][c]))
            if i < 8:
                keys.append("Right" if r % 2 == 0 else "Left")
        print(" ".join(keys + (["Down"] if r < 8 else [])))
    print("wrong:", ", ".join(wrong))


if __name__ == "__main__":
    main()
