"""Regenerate the fixtures of weave-gam-sudoku-saved-game (python3 tests/make_fixtures.py from
the bundle). Deterministic; writes

- environment/profile/.local/share/gnome-sudoku/savefile: the club member's saved game, in
  GNOME Sudoku's own save format (given cells ``fixed``, six of the player's own entries, two
  of them wrong but in no visible conflict), resumed by GNOME Sudoku at start from the app's
  per-run profile copy, never in the agent's sandbox. The puzzle is a relabelled, permuted and
  transposed copy of a puzzle with a unique solution;
- tests/anchors.json: the hidden expected values (puzzle, solution, the wrong entries).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

BUNDLE = Path(__file__).resolve().parents[1]
BASE = ["534678912", "672195348", "198342567", "859761423", "426853791", "713924856",
        "961537284", "287419635", "345286179"]  # fmt: skip
PUZZLE = ["53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1", "7...2...6",
          ".6....28.", "...419..5", "....8..79"]  # fmt: skip


def transformed() -> tuple[list[str], list[str]]:
    rng = random.Random(2026)
    perm = list("123456789")
    rng.shuffle(perm)
    relabel = dict(zip("123456789", perm, strict=True))

    def order() -> list[int]:
        bands = [0, 1, 2]
        rng.shuffle(bands)
        out = []
        for b in bands:
            r = [0, 1, 2]
            rng.shuffle(r)
            out += [b * 3 + i for i in r]
        return out

    ro, co = order(), order()
    sol = ["".join(relabel[BASE[r][c]] for c in co) for r in ro]
    pz = ["".join(relabel.get(PUZZLE[r][c], ".") for c in co) for r in ro]
    rng.random()
    sol = ["".join(sol[r][c] for r in range(9)) for c in range(9)]  # transposed
    pz = ["".join(pz[r][c] for r in range(9)) for c in range(9)]
    return pz, sol


def main() -> None:
    pz, sol = transformed()
    rng = random.Random(8)
    empty = [(r, c) for r in range(9) for c in range(9) if pz[r][c] == "."]
    picks = rng.sample(empty, 6)
    entries = {p: int(sol[p[0]][p[1]]) for p in picks[:4]}
    for r, c in picks[4:]:  # wrong, but no clash with anything on the board
        seen = {pz[r][k] for k in range(9)} | {pz[k][c] for k in range(9)}
        br, bc = r // 3 * 3, c // 3 * 3
        seen |= {pz[br + i][bc + j] for i in range(3) for j in range(3)}
        seen |= {
            str(v)
            for (rr, cc), v in entries.items()
            if rr == r or cc == c or (rr // 3, cc // 3) == (r // 3, c // 3)
        }
        entries[(r, c)] = int(rng.choice([d for d in "123456789" if d not in seen | {sol[r][c]}]))
    cells = []
    for r in range(9):
        for c in range(9):
            if pz[r][c] != ".":
                cells.append(
                    {"position": [r, c], "value": int(pz[r][c]), "fixed": True, "earmarks": []}
                )
            elif (r, c) in entries:
                cells.append(
                    {"position": [r, c], "value": entries[(r, c)], "fixed": False, "earmarks": []}
                )
    save = {"difficulty_category": "Hard Difficulty", "time_elapsed": 600.0, "cells": cells}
    folder = BUNDLE / "environment" / "profile" / ".local" / "share" / "gnome-sudoku"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "savefile").write_text(json.dumps(save, indent=2) + "\n")
    wrong = sorted(f"r{r + 1}c{c + 1}" for r, c in picks[4:])
    anchors = {
        "puzzle": pz,
        "solution": sol,
        "wrong": wrong,
        "entries": {f"r{r + 1}c{c + 1}": v for (r, c), v in sorted(entries.items())},
    }
    (BUNDLE / "tests" / "anchors.json").write_text(json.dumps(anchors, indent=1) + "\n")
    print("wrong entries:", ", ".join(wrong))


if __name__ == "__main__":
    main()
