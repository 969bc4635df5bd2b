"""Prove the forced mate of the puzzle with Stockfish (UCI) and write out/mate.json.

Usage: python3 tools/solve.py work/puzzle.fen [max-moves]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

STOCKFISH = "/usr/games/stockfish"


def mate_search(fen: str, moves: int) -> tuple[int, list[str]]:
    """The shortest mate Stockfish finds in at most ``moves`` moves, and its line."""
    proc = subprocess.Popen(
        [STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write(f"uci\nisready\nposition fen {fen}\ngo mate {moves}\n")
    proc.stdin.flush()
    best: tuple[int, list[str]] | None = None
    for line in proc.stdout:
        found = re.search(r" score mate (\d+) .* pv (.+)$", line)
        if found:
            best = (int(found.group(1)), found.group(2).split())
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    if best is None:
        raise SystemExit(f"no mate in {moves} found")
    return best


def main() -> None:
    fen = Path(sys.argv[1]).read_text().strip()
    moves = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    mate_in, line = mate_search(fen, moves)
    out = Path("out/mate.json")
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"fen": fen, "mate_in": mate_in, "line": line}, indent=1) + "\n")
    print(out.read_text(), end="")


if __name__ == "__main__":
    main()
