"""The workspace solver: every board size, fewest presses, None when unsolvable, fast."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

TIME_LIMIT_S = 10
RUNNER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from lightsout.solver import solve
boards = json.load(sys.stdin)
out = []
for b in boards:
    m = solve([row[:] for row in b])
    out.append(None if m is None else [list(x) for x in m])
json.dump(out, sys.stdout)
"""


def solve_all(boards):
    """Run the workspace's solve() on each board in a child process, with a time limit."""
    try:
        proc = subprocess.run(
            [sys.executable, "-c", RUNNER, os.getcwd()],
            input=json.dumps(boards),
            capture_output=True,
            text=True,
            timeout=TIME_LIMIT_S,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"solve() did not finish {len(boards)} boards within {TIME_LIMIT_S}s")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def toggle(board, r, c):
    rows, cols = len(board), len(board[0])
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            board[rr][cc] ^= 1


def after(board, moves):
    out = [row[:] for row in board]
    for r, c in moves:
        toggle(out, r, c)
    return out


def fewest(board):
    """Reference by light chasing: try every first-row pattern, chase the rest down."""
    rows, cols = len(board), len(board[0])
    best = None
    for mask in range(1 << cols):
        b = [row[:] for row in board]
        moves = [(0, c) for c in range(cols) if mask >> c & 1]
        for r, c in moves:
            toggle(b, r, c)
        for r in range(1, rows):
            for c in range(cols):
                if b[r - 1][c]:
                    toggle(b, r, c)
                    moves.append((r, c))
        if not any(b[-1]) and (best is None or len(moves) < best):
            best = len(moves)
    return best


def random_solvable(rows, cols, rng):
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return after([[0] * cols for _ in range(rows)], rng.sample(cells, rng.randint(3, len(cells) // 2)))


def check_all(boards):
    for board, moves in zip(boards, solve_all(boards)):
        assert moves is not None, f"solve() gave None for a solvable board {board}"
        moves = [tuple(m) for m in moves]
        assert len(set(moves)) == len(moves), f"a cell is pressed twice: {moves}"
        assert not any(map(any, after(board, moves))), f"moves {moves} do not clear {board}"
        assert len(moves) == fewest(board), f"{len(moves)} presses, {fewest(board)} suffice"


def test_game_sizes_have_unique_solutions():
    rng = random.Random(1006)
    check_all([random_solvable(n, n, rng) for n in (6, 7, 8) for _ in range(3)])


def test_fewest_presses_when_several_solutions():
    rng = random.Random(2005)
    check_all([random_solvable(n, n, rng) for n in (9, 5, 4) for _ in range(3)])


def test_rectangular_boards():
    rng = random.Random(3007)
    check_all([random_solvable(r, c, rng) for r, c in ((5, 8), (3, 7), (8, 5), (6, 9))])


def test_unsolvable_gives_none():
    boards = []
    for n in (5, 4, 9):
        board = [[0] * n for _ in range(n)]
        board[0][0] = 1  # one corner light cannot be cleared on 4x4, 5x5 or 9x9
        assert fewest(board) is None
        boards.append(board)
    assert solve_all(boards) == [None, None, None]
