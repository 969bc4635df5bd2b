#!/usr/bin/env python3
"""Assemble out/result.json from the boards read off the screen, the moves the solver
produced, and the completion code (copied from the game's code field, on stdin)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from lightsout.board import apply_presses, is_clear, parse_board

code = sys.stdin.read().strip()
if not re.fullmatch(r"LO-[0-9A-F]{4}-[0-9A-F]{4}", code):
    sys.exit(f"unexpected completion code {code!r}")
levels = []
for i in (1, 2):
    board = parse_board(Path(f"boards/level{i}.txt").read_text())
    moves = [
        tuple(int(v) for v in line.split())
        for line in Path(f"moves/level{i}.txt").read_text().splitlines()
        if line.strip()
    ]
    assert is_clear(apply_presses(board, moves)), f"level {i}: moves do not clear the board"
    levels.append(
        {
            "level": i,
            "rows": len(board),
            "cols": len(board[0]),
            "board": ["".join(map(str, row)) for row in board],
            "presses": [list(m) for m in moves],
        }
    )
Path("out").mkdir(exist_ok=True)
Path("out/result.json").write_text(
    json.dumps({"levels": levels, "completion_code": code}, indent=2) + "\n"
)
print(Path("out/result.json").read_text())
