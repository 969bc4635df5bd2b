"""Regenerate the fixtures of weave-gam-xboard-mate-in-three (python3 tests/make_fixtures.py
from the bundle; needs Debian's stockfish at /usr/games/stockfish). Deterministic; writes

- environment/profile/puzzle.fen: the club's puzzle position, loaded by xboard at start (in
  the app's per-run profile copy, never in the agent's sandbox);
- tests/anchors.json: the hidden expected values: the FEN, the mate length, the key move, and
  the whole solution tree: every line in which White keeps a forced mate in at most three
  moves against every legal defence, with the piece placement it ends in (the tests need no
  chess library and no engine).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

BUNDLE = Path(__file__).resolve().parents[1]
FEN = "r1b3kr/ppp1Bp1p/1b6/n2P4/2p3q1/2Q2N2/P4PPP/RN2R1K1 w - - 1 1"
STOCKFISH = "/usr/games/stockfish"
MATE_IN = 3


class _Engine:
    """One Stockfish process spoken to over UCI; every query waits for its own answer."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.ask(["uci", "setoption name Threads value 1"], "uciok")

    def ask(self, commands: list[str], until: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write("\n".join(commands) + "\n")
        self.proc.stdin.flush()
        out = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            out.append(line)
            if line.startswith(until):
                return "".join(out)


ENGINE: _Engine | None = None


def _engine(commands: list[str]) -> str:
    global ENGINE
    if ENGINE is None:
        ENGINE = _Engine()
    until = {"d": "Checkers", "go perft 1": "Nodes searched"}.get(commands[-1], "bestmove")
    return ENGINE.ask(commands, until)


def _position(moves: list[str]) -> str:
    return f"position fen {FEN}" + (" moves " + " ".join(moves) if moves else "")


def legal_moves(moves: list[str]) -> list[str]:
    out = _engine([_position(moves), "go perft 1"])
    return sorted(m for m in re.findall(r"^([a-h][1-8][a-h][1-8][qrbn]?): 1$", out, re.M))


def placement(moves: list[str]) -> str:
    out = _engine([_position(moves), "d"])
    return re.search(r"^Fen: (\S+)", out, re.M).group(1)  # type: ignore[union-attr]


def state(moves: list[str]) -> tuple[bool, list[str]]:
    """Whether the side to move after ``moves`` is in check, and its legal moves."""
    out = _engine([_position(moves), "d"])
    checkers = re.search(r"^Checkers:(.*)$", out, re.M).group(1).strip()  # type: ignore[union-attr]
    return bool(checkers), legal_moves(moves)


def mated_within(moves: list[str], n: int) -> bool:
    """The side to move after ``moves`` (Black) is mated in at most ``n`` White moves."""
    out = _engine([_position(moves), "go depth 16"])
    found = re.findall(r" score mate (-?\d+) ", out)
    return bool(found) and -n <= int(found[-1]) < 0


def tree(moves: list[str], n: int, lines: dict[str, str]) -> None:
    """Every White move keeping a mate in <= n, then every Black defence, down to the mates."""
    for move in legal_moves(moves):
        line = [*moves, move]
        check, defences = state(line)
        if not defences:
            if check:  # checkmate (no move, in check); stalemate is no solution
                lines[" ".join(line)] = placement(line)
            continue
        if n == 1 or not mated_within(line, n - 1):
            continue
        for defence in defences:
            tree([*line, defence], n - 1, lines)


def main() -> None:
    profile = BUNDLE / "environment" / "profile"
    (profile / "puzzle.fen").write_text(FEN + "\n")
    lines: dict[str, str] = {}
    tree([], MATE_IN, lines)
    key = sorted({line.split()[0] for line in lines})
    anchors = {
        "fen": FEN,
        "placement": FEN.split()[0],
        "mate_in": MATE_IN,
        "key_moves": key,
        "key_move": key[0],
        "key_san": "Qxh8+",
        "lines": dict(sorted(lines.items())),
    }
    (BUNDLE / "tests" / "anchors.json").write_text(json.dumps(anchors, indent=1) + "\n")
    print(f"{len(lines)} mating lines, key moves {key}")


if __name__ == "__main__":
    main()
