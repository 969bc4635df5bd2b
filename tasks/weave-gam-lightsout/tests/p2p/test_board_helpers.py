"""The board helpers the task builds on keep working."""

from lightsout.board import apply_presses, format_board, format_moves, is_clear, parse_board


def test_round_trip():
    assert format_board(parse_board("010\n111\n010\n")) == "010\n111\n010\n"


def test_press_centre_and_corner():
    empty = parse_board("000\n000\n000")
    assert apply_presses(empty, [(1, 1)]) == [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    assert apply_presses(empty, [(0, 0)]) == [[1, 1, 0], [1, 0, 0], [0, 0, 0]]
    assert is_clear(apply_presses(empty, [(1, 1), (1, 1)]))


def test_moves_format():
    assert format_moves([(0, 2), (3, 1)]) == "0 2\n3 1\n"


def test_small_solve():
    from lightsout.solver import solve

    assert solve(parse_board("010\n111\n010")) == [(1, 1)]
