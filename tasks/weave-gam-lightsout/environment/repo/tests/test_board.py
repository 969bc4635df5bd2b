import unittest

from lightsout.board import apply_presses, format_board, format_moves, is_clear, parse_board
from lightsout.solver import solve


class BoardTests(unittest.TestCase):
    def test_parse_and_format_round_trip(self):
        text = "010\n111\n010\n"
        self.assertEqual(format_board(parse_board(text)), text)

    def test_parse_rejects_ragged_rows(self):
        with self.assertRaises(ValueError):
            parse_board("010\n11\n")

    def test_press_centre_of_3x3(self):
        board = apply_presses(parse_board("000\n000\n000"), [(1, 1)])
        self.assertEqual(board, [[0, 1, 0], [1, 1, 1], [0, 1, 0]])

    def test_press_corner(self):
        board = apply_presses(parse_board("000\n000\n000"), [(0, 0)])
        self.assertEqual(board, [[1, 1, 0], [1, 0, 0], [0, 0, 0]])

    def test_format_moves(self):
        self.assertEqual(format_moves([(0, 2), (3, 1)]), "0 2\n3 1\n")


class SmallSolverTests(unittest.TestCase):
    def test_solve_3x3_plus(self):
        board = parse_board("010\n111\n010")
        moves = solve(board)
        self.assertEqual(moves, [(1, 1)])
        self.assertTrue(is_clear(apply_presses(board, moves)))

    def test_solve_clear_board(self):
        self.assertEqual(solve(parse_board("000\n000")), [])


if __name__ == "__main__":
    unittest.main()
