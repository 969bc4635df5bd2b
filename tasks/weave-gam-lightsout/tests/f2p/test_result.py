"""out/result.json: the boards as shown on screen, the presses that cleared them, the code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

BOARDS = {
    1: ["011100", "100001", "000111", "000000", "010001", "000011"],
    2: [
        "01000011",
        "00001001",
        "01101011",
        "00010011",
        "11110001",
        "01111100",
        "01101010",
        "10000101",
    ],
}
PRESSES = {
    1: {(0, 2), (2, 0), (2, 2), (2, 5), (3, 0), (3, 2), (4, 3), (4, 5), (5, 0), (5, 1), (5, 3)},
    2: {
        (0, 2), (0, 3), (0, 6), (1, 4), (1, 5), (2, 2), (2, 4), (2, 7), (3, 4), (4, 2),
        (4, 5), (4, 6), (5, 0), (6, 0), (6, 3), (6, 4), (6, 6), (7, 4), (7, 7),
    },
}
CODE = "LO-49E4-559D"


def load():
    path = Path("out/result.json")
    assert path.is_file(), "out/result.json is missing"
    return json.loads(path.read_text(encoding="utf-8"))


def level(i):
    levels = load().get("levels")
    assert isinstance(levels, list) and len(levels) == 2, "levels must list the 2 levels"
    lv = levels[i - 1]
    assert lv.get("level") == i
    return lv


@pytest.mark.parametrize("i", [1, 2])
def test_boards(i):
    lv = level(i)
    n = len(BOARDS[i])
    assert (lv.get("rows"), lv.get("cols")) == (n, n)
    assert lv.get("board") == BOARDS[i]


@pytest.mark.parametrize("i", [1, 2])
def test_presses(i):
    presses = level(i).get("presses")
    assert isinstance(presses, list)
    got = [tuple(p) for p in presses]
    assert len(got) == len(set(got)), "a cell is listed twice"
    assert set(got) == PRESSES[i]


def test_completion_code():
    assert load().get("completion_code") == CODE
