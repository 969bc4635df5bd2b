"""python3 -m lightsout BOARD_FILE: print the solution in moves.txt format."""

from __future__ import annotations

import sys
from pathlib import Path

from lightsout.board import format_moves, parse_board
from lightsout.solver import solve


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m lightsout BOARD_FILE", file=sys.stderr)
        return 2
    board = parse_board(Path(argv[0]).read_text(encoding="utf-8"))
    moves = solve(board)
    if moves is None:
        print("no solution", file=sys.stderr)
        return 1
    sys.stdout.write(format_moves(moves))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
