"""out/mate.json and out/mate.pgn: the puzzle, its forced mate, the game xboard recorded."""

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _truth import FEN, KEY_SAN, LINES, MATE_IN

TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$', re.M)


def _mate() -> dict:
    path = Path("out/mate.json")
    assert path.is_file(), "out/mate.json is missing"
    data = json.loads(path.read_text())
    assert isinstance(data, dict), "out/mate.json is not a JSON object"
    return data


def test_fen() -> None:
    fen = str(_mate().get("fen", "")).split()
    assert fen[:4] == FEN.split()[:4], "fen is not the position set up in xboard"


def test_line() -> None:
    data = _mate()
    line = data.get("line")
    assert isinstance(line, list) and all(isinstance(m, str) for m in line), "line: UCI moves"
    assert data.get("mate_in") == MATE_IN, f"mate_in {data.get('mate_in')!r} is not the shortest"
    assert len(line) <= 2 * MATE_IN - 1, "the line is longer than the mate"
    assert " ".join(line) in LINES, f"{' '.join(line)} is not a forced mate from the puzzle"


def _movetext(pgn: str) -> list[str]:
    body = TAG.sub("", pgn)
    body = re.sub(r"\{[^}]*\}|;[^\n]*", " ", body)  # comments (xboard adds a diagram)
    return [t for t in body.split() if not re.fullmatch(r"\d+\.(\.\.)?", t)]


def test_pgn() -> None:
    path = Path("out/mate.pgn")
    assert path.is_file(), "out/mate.pgn is missing"
    pgn = path.read_text()
    tags = dict(TAG.findall(pgn))
    assert tags.get("SetUp") == "1", 'no [SetUp "1"] tag'
    assert tags.get("FEN", "").split()[:4] == FEN.split()[:4], "the FEN tag is not the puzzle"
    assert tags.get("Result") == "1-0", "the Result tag is not 1-0"
    tokens = _movetext(pgn)
    assert tokens and tokens[-1] == "1-0", "the movetext does not end with the result 1-0"
    moves = tokens[:-1]
    line = _mate().get("line") or []
    assert len(moves) == len(line), f"{len(moves)} moves in the PGN, {len(line)} in the line"
    assert moves[0].rstrip("+#") == KEY_SAN.rstrip("+#"), f"first move {moves[0]}, not the key"
    assert moves[-1].endswith("#"), "the last move is not a mate (#)"
