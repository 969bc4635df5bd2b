"""Boards are lists of rows of 0/1 ints; a move is a (row, col) pair, 0-based."""

from __future__ import annotations

from collections.abc import Iterable

Board = list[list[int]]
Move = tuple[int, int]


def parse_board(text: str) -> Board:
    """Parse the board text format (one row per line of 0/1; blank lines ignored)."""
    rows = [line.strip() for line in text.splitlines() if line.strip()]
    if not rows:
        raise ValueError("empty board")
    width = len(rows[0])
    board = []
    for i, row in enumerate(rows):
        if len(row) != width or set(row) - {"0", "1"}:
            raise ValueError(f"row {i}: expected {width} characters of 0/1, got {row!r}")
        board.append([int(ch) for ch in row])
    return board


def format_board(board: Board) -> str:
    return "".join("".join(str(v) for v in row) + "\n" for row in board)


def press(board: Board, r: int, c: int) -> None:
    """Press (r, c) in place: toggle it and its orthogonal neighbours."""
    rows, cols = len(board), len(board[0])
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            board[rr][cc] ^= 1


def apply_presses(board: Board, moves: Iterable[Move]) -> Board:
    """A copy of ``board`` after pressing ``moves``."""
    out = [row[:] for row in board]
    for r, c in moves:
        press(out, r, c)
    return out


def is_clear(board: Board) -> bool:
    return not any(any(row) for row in board)


def format_moves(moves: Iterable[Move]) -> str:
    """moves.txt format: one 'row col' line per press."""
    return "".join(f"{r} {c}\n" for r, c in moves)
