"""Find which cells to press to turn every light off."""

from __future__ import annotations

from itertools import combinations

from lightsout.board import Board, Move, apply_presses, is_clear


def solve(board: Board) -> list[Move] | None:
    """The fewest presses that clear ``board`` (sorted), or None if it cannot be cleared.

    Tries every set of cells, smallest first.
    TODO: fine for 3x3, but never finishes on the 6x6 and 8x8 levels of the game.
    """
    rows, cols = len(board), len(board[0])
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for k in range(len(cells) + 1):
        for combo in combinations(cells, k):
            if is_clear(apply_presses(board, combo)):
                return sorted(combo)
    return None
